#!/usr/bin/env bash
# The vLLM tier in one command (for .ci/run): setup venv (idempotent) → convert model (cached)
# → pytest -m vllm (the tests start their own vLLM server). Extra args go to pytest.
# Env: VLLM_VENV (default .venv-vllm), GLOSSARY_CACHE_DIR (model cache), PYTEST_PYTHON.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
PYTEST_PY="${PYTEST_PYTHON:-$ROOT/.venv/bin/python}"
VENV="${VLLM_VENV:-$ROOT/.venv-vllm}"
stamp() { printf '[vllm-tier] %-8s %4d s\n' "$1" "$2"; }

t0=$SECONDS
bash scripts/vllm/setup.sh
t1=$SECONDS; stamp setup $((t1 - t0))
"$VENV/bin/python" scripts/vllm/convert.py
t2=$SECONDS; stamp convert $((t2 - t1))
rc=0
"$PYTEST_PY" -m pytest tests/vllm -m vllm -p no:cacheprovider -rs --durations=5 "$@" || rc=$?
t3=$SECONDS; stamp pytest $((t3 - t2)); stamp total $((t3 - t0))
exit "$rc"
