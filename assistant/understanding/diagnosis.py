"""A problem message → the diagnosis Plan: the memory calculation of what the customer runs,
then the same calculator for what would help.

    diagnose(reader.read("Llama 3 70B в bf16 не стартует на одной h100, сразу oom"), …)
    -> Plan(gpu_fit, runs=(BF16 on 1 × H100, FP8 on 1 × H100, INT4 on 1 × H100))

«не стартует, OOM» with a model and a card named is a calculation the customer did not ask
for: its figures are the cause, and the lighter runs (a smaller precision; for training LoRA
or sharding over more GPUs) are the remedies the answer may state with their own numbers.
A problem naming no model, or no memory calculation («через пару часов всё падает»), has no
diagnosis: the glossary explains it.
"""

from __future__ import annotations

from dataclasses import replace

from assistant.calculators.registry import ToolName, get_tool
from assistant.corpus.catalog import Catalog, Gpu
from assistant.understanding.calculation import Plan, plan_calculation
from assistant.understanding.follow_up import MEMORY_TOOLS
from assistant.understanding.params import Params
from assistant.understanding.reader import ParsedMessage

# what a precision's weights shrink to next; "int4" becomes FP4 on a card that computes in it
_LIGHTER = {
    "fp32": ("bf16", "fp8"),
    "bf16": ("fp8", "int4"),
    "fp16": ("fp8", "int4"),
    "fp8": ("int4",),
    "int8": ("int4",),
}
_SHARDED = (2, 4, 8)  # GPUs of one server to shard a full fine-tune over (ZeRO-3)
_PUBLISHED = Params(precision="bf16")
PRECISION_ASSUMED = "Точность не названа — посчитано для BF16, в которой публикуют веса"
MAX_RUNS = 6  # the stated run and five remedies at most


def diagnose(
    message: ParsedMessage, carried: Params, catalog: Catalog, *, memory: bool = False
) -> Plan | None:
    """`memory`: the symptom is memory («не лезет», OOM): its «почему» asks for the
    calculation; a slow answer's «почему» does not."""
    plan = plan_calculation(message, carried, catalog, trouble=memory)
    if plan is not None and plan.missing == ("precision",):
        # «vllm падает с OOM на Mixtral»: a checkpoint is loaded as published, in BF16
        plan = plan_calculation(message, carried, catalog, _PUBLISHED, trouble=memory)
        plan = plan and replace(plan, notes=(*plan.notes, PRECISION_ASSUMED))
    if plan is None or plan.tool not in MEMORY_TOOLS or plan.missing or plan.problem:
        return None
    return with_remedies(plan, catalog)


def with_remedies(plan: Plan, catalog: Catalog) -> Plan:
    """The plan with what would help appended as its last runs (Plan.remedies counts them);
    a plan that already compares runs («в FP8 и в INT4») or misses a value stays as it is."""
    if plan.tool not in MEMORY_TOOLS or len(plan.runs) != 1 or plan.missing or plan.problem:
        return plan
    if not plan.arguments.has("gpu", "gpu_memory_gb"):  # no card: nothing to fit into
        return plan
    extra = [r for r in _remedies(plan.tool, plan.arguments, catalog) if r != plan.arguments]
    definition = get_tool(plan.tool)
    runs = tuple(definition.validate(r.stored(), catalog) for r in extra)[: MAX_RUNS - 1]
    return replace(plan, runs=plan.runs + runs, remedies=len(runs))


def _remedies(tool: ToolName, args: Params, catalog: Catalog) -> list[Params]:
    if tool == ToolName.vram_training:
        return _training(args)
    gpu = catalog.gpus.get(args.gpu or "")
    fp4 = gpu is not None and gpu.fp4_support
    lighter = _LIGHTER.get(args.precision or "bf16", ())
    out = [args.updated(precision="fp4" if p == "int4" and fp4 else p) for p in lighter]
    larger = _larger(gpu, catalog) if gpu is not None else None
    return out + ([args.updated(gpu=larger)] if larger else [])


def _larger(gpu: Gpu, catalog: Catalog) -> str | None:
    """The card FullGPU rents with the least memory above this one's, of the same form factor
    first («H100 SXM → H200», «L40S → RTX PRO 6000»): the same weights in the same precision on
    as many cards, when a lighter precision is not wanted."""
    bigger = [g for g in catalog.gpus.values() if g.offered and g.memory_gb > gpu.memory_gb]

    def order(g: Gpu) -> tuple[bool, float, str]:
        return (g.form_factor != gpu.form_factor, g.memory_gb, g.id)

    return min(bigger, key=order).id if bigger else None


def _training(args: Params) -> list[Params]:
    """Full fine-tuning: LoRA and QLoRA on the same card, then ZeRO-3 over more GPUs;
    LoRA: QLoRA. Sharding only helps across GPUs, so one GPU's run is spread over 2, 4, 8."""
    method, gpus = args.method or "full", args.gpus or 1
    if method == "lora":
        return [args.updated(method="qlora")]
    if method != "full":
        return []
    out = [args.updated(method="lora"), args.updated(method="qlora")]
    if gpus > 1:
        return out  # the calculator states the same GPUs with ZeRO-3 itself
    return out + [args.updated(gpus=n, sharding="zero3") for n in _SHARDED]
