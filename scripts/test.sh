#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite: static checks (ruff, mypy), then unit +
# integration + API + browser tests, then the real-vLLM tier (its own venv, a CPU vLLM server on
# 127.0.0.1). Extra args go to pytest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/setup.sh

# Static checks first: a finding stops the run before any test starts.
check() {  # name, fix hint, command…
  local name="$1" hint="$2"
  shift 2
  echo "[test] $name"
  if ! "$@"; then
    echo "[test] FAILED: $name — $hint" >&2
    exit 1
  fi
}
check "ruff check" "fix the findings above (.venv/bin/ruff check --fix . fixes some)" \
  .venv/bin/ruff check .
check "ruff format --check" "run .venv/bin/ruff format ." .venv/bin/ruff format --check .
check "mypy (strict on assistant/, bodies checked in tests/)" "fix the type errors above" \
  .venv/bin/mypy

bash scripts/install_browser.sh           # Debian chromium for Playwright (no browser download)
bash scripts/install_nginx.sh             # Debian nginx: the compose recipe's proxy, tested
# A given ASSISTANT_TEST_POSTGRES_DSN is someone's server: used, never stopped.
if [ -z "${ASSISTANT_TEST_POSTGRES_DSN:-}" ]; then
  ASSISTANT_TEST_POSTGRES_DSN="$(bash scripts/start_postgres.sh)"
  export ASSISTANT_TEST_POSTGRES_DSN
  trap 'bash scripts/start_postgres.sh stop >/dev/null 2>&1 || true' EXIT
fi
.venv/bin/python -m pytest "$@"
if [ "${SKIP_VLLM_TIER:-0}" != 1 ]; then
  bash scripts/vllm/tier.sh
fi
