#!/usr/bin/env bash
# The opt-in instruct tier: Qwen2.5-Coder-1.5B-Instruct behind vLLM (CPU) answers ~40 dev
# questions through the whole engine; prints the share of drafts the checks accept and the
# latency per answer, and writes every draft to test-output/instruct/drafts.jsonl for reading.
# Not in CI: ~40 min on 2 cores (decode ~9.5 tokens/s). Extra args go to eval/bench_llm_answers.py.
# Usage: bash scripts/vllm/instruct.sh [-n 40]
# Env: VLLM_VENV, GLOSSARY_CACHE_DIR, VLLM_PORT (default 8011), INSTRUCT_OUT, PYTEST_PYTHON.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
PY="${PYTEST_PYTHON:-$ROOT/.venv/bin/python}"
VENV="${VLLM_VENV:-$ROOT/.venv-vllm}"
PORT="${VLLM_PORT:-8011}"
OUT="${INSTRUCT_OUT:-$ROOT/test-output/instruct}"
log() { printf '[instruct %(%H:%M:%S)T] %s\n' -1 "$*"; }

bash scripts/vllm/setup.sh --instruct
"$VENV/bin/python" scripts/vllm/convert.py --model qwen-coder-1.5b
mkdir -p "$OUT"
log "starting vLLM on 127.0.0.1:$PORT (log: $OUT/vllm.log)"
VLLM_MODEL_KIND=qwen-coder-1.5b setsid bash scripts/vllm/start.sh "$PORT" >"$OUT/vllm.log" 2>&1 &
SERVER=$!
trap 'kill -TERM -- -"$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 420); do
  curl -sf "http://127.0.0.1:$PORT/v1/models" >/dev/null && break
  kill -0 "$SERVER" 2>/dev/null || { tail -20 "$OUT/vllm.log"; exit 1; }
  sleep 1
done
log "ready; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$PY" eval/bench_llm_answers.py --base-url "http://127.0.0.1:$PORT/v1" --out "$OUT" "$@"
log "done; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
