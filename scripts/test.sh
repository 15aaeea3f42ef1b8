#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite: unit + integration + API + browser tests,
# then the real-vLLM tier (its own venv, a CPU vLLM server on 127.0.0.1).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/setup.sh
bash scripts/install_browser.sh           # Debian chromium for Playwright (no browser download)
export ASSISTANT_TEST_POSTGRES_DSN="${ASSISTANT_TEST_POSTGRES_DSN:-$(bash scripts/start_postgres.sh)}"
trap 'bash scripts/start_postgres.sh stop >/dev/null 2>&1 || true' EXIT
.venv/bin/python -m pytest "$@"
if [ "${SKIP_VLLM_TIER:-0}" != 1 ]; then
  bash scripts/vllm/tier.sh
fi
