#!/usr/bin/env bash
# Start vLLM (CPU) on 127.0.0.1 serving the converted Gemma 3 270M with hermes tool calling.
# Usage: bash scripts/vllm/start.sh [PORT]   (default port: VLLM_PORT or 8001)
# Env: VLLM_VENV, VLLM_MODEL_DIR, VLLM_SERVED_NAME, VLLM_API_KEY (optional Bearer key),
#      VLLM_CPU_KVCACHE_SPACE (GiB of KV cache, default 1). Runs in the foreground (exec).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${VLLM_VENV:-$ROOT/.venv-vllm}"
MODEL_DIR="${VLLM_MODEL_DIR:-$HOME/.cache/glossary-assistant/gemma3-270m-hf}"
PORT="${1:-${VLLM_PORT:-8001}}"
[[ -x "$VENV/bin/python" ]] || { echo "no $VENV: run scripts/vllm/setup.sh" >&2; exit 2; }
[[ -f "$MODEL_DIR/config.json" ]] || { echo "no model in $MODEL_DIR: run scripts/vllm/convert.py" >&2; exit 2; }

export VLLM_CPU_KVCACHE_SPACE="${VLLM_CPU_KVCACHE_SPACE:-1}"
export VLLM_NO_USAGE_STATS=1 DO_NOT_TRACK=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
args=(
  --model "$MODEL_DIR"
  --served-model-name "${VLLM_SERVED_NAME:-gemma3-270m}"
  --host 127.0.0.1 --port "$PORT"
  --dtype bfloat16
  --max-model-len 2048
  --max-num-seqs 4
  --enable-prefix-caching
  --enable-auto-tool-choice --tool-call-parser hermes
  --chat-template "$ROOT/scripts/vllm/gemma_tools.jinja"
  --generation-config vllm
  --disable-uvicorn-access-log
)
[[ -n "${VLLM_API_KEY:-}" ]] && args+=(--api-key "$VLLM_API_KEY")
# The `vllm` console script fails (the distribution is named vllm-cpu): use the module.
exec "$VENV/bin/python" -m vllm.entrypoints.openai.api_server "${args[@]}" "${@:2}"
