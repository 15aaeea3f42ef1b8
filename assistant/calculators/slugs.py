"""Tool name + arguments → glossary slugs relevant to the calculation (only slugs that exist)."""

from __future__ import annotations

from typing import Any

from assistant.corpus.catalog import Catalog

PRECISION_SLUG = {"bf16": "bf16", "fp16": "mixed-precision", "fp8": "fp8", "fp4": "fp4"}
QUANTISED = {"int8", "int4", "fp4", "nf4", "fp8"}


def _memory(args: dict[str, Any], catalog: Catalog) -> list[str]:
    out = ["vram"]
    precision = args.get("precision")
    if precision in PRECISION_SLUG:
        out.append(PRECISION_SLUG[precision])
    if precision in QUANTISED:
        out.append("quantization")
    if args.get("context_tokens"):
        out.append("kv-cache")
    model = catalog.models.get(args.get("model") or "")
    if model is not None and model.active_b is not None:
        out.append("moe")
    return out


def _training(args: dict[str, Any]) -> list[str]:
    """Most specific first (answers cite the first two): the method, then how it is sharded."""
    out = ["vram"]
    method = args.get("method")
    out += [method] if method in ("lora", "qlora") else []
    sharding = str(args.get("sharding", ""))
    several = int(args.get("gpus", 1)) > 1
    if sharding.startswith("zero"):
        out.append("zero")
    elif sharding == "fsdp":
        out.append("fsdp")
    elif several:  # the answer names ZeRO-3 / FSDP as the way to fit on these GPUs
        out += ["zero", "fsdp"]
    return out + ["mixed-precision"] + (["data-parallelism"] if several else [])


def related_slugs(tool: str, args: dict[str, Any], catalog: Catalog) -> list[str]:
    out: list[str] = []
    if tool in ("vram_inference", "gpu_fit"):
        out += _memory(args, catalog)
    if tool == "gpu_fit":
        out += ["tensor-parallelism"]
    if tool == "vram_training":
        out += _training(args)
    if tool == "gpu_cost":
        out.append("gpu-hour")
        if args.get("egress"):
            out.append("egress")
    known = catalog.glossary_slugs
    return [s for s in dict.fromkeys(out) if not known or s in known]
