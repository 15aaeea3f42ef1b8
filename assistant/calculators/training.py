"""Model size + method (full/LoRA/QLoRA) + sharding → training VRAM per GPU, without activations.

Full fine-tuning with Adam in mixed precision (glossary:mixed-precision) ≈ 16 bytes per parameter:
    BF16 weights 2 + BF16 gradients 2 + FP32 master copy 4 + two FP32 Adam moments 4 + 4.
LoRA: frozen BF16 base (2 bytes/param) + trainable adapters (16 bytes per adapter parameter).
QLoRA: frozen 4-bit NF4 base (0,5 bytes/param) + the same adapters (glossary:qlora).
Sharding over N GPUs (glossary:zero, glossary:fsdp):
    ZeRO-1 divides optimizer state (master + moments) by N, ZeRO-2 also gradients,
    ZeRO-3 / FSDP also the weights. Without sharding every GPU holds a full copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field, model_validator

from assistant.calculators.base import Arguments, Computation, Tool, ToolInput, Values
from assistant.calculators.fields import MAX_GPUS, MAX_PARAMS_B, GpuName, ModelName
from assistant.calculators.memory import params_text
from assistant.calculators.units import NBSP, gb_text, num, sig, to_gb
from assistant.corpus.catalog import Catalog
from assistant.errors import ToolInputError

Method = Literal["full", "lora", "qlora"]
Sharding = Literal["none", "zero1", "zero2", "zero3", "fsdp"]

BASE_BYTES = {"full": 2.0, "lora": 2.0, "qlora": 0.5}
ADAPTER_STATE = {"weights": 2.0, "grads": 2.0, "master": 4.0, "moments": 8.0}  # = 16
SHARDED = {
    "none": frozenset(),
    "zero1": frozenset({"master", "moments"}),
    "zero2": frozenset({"master", "moments", "grads"}),
    "zero3": frozenset({"master", "moments", "grads", "weights"}),
    "fsdp": frozenset({"master", "moments", "grads", "weights"}),
}
METHOD_RU = {
    "full": "полного дообучения",
    "lora": "дообучения с LoRA",
    "qlora": "дообучения с QLoRA",
}
# what a setup without (full) sharding keeps on every GPU: the cause when it does not fit
WHOLE_ON_EACH = ("хранит полную копию", "лежат целиком на каждой карте")
SHARDING_RU = {"zero1": "ZeRO-1", "zero2": "ZeRO-2", "zero3": "ZeRO-3", "fsdp": "FSDP"}


class TrainingInput(ToolInput):
    model: ModelName | None = Field(default=None, description="Модель из справочника")
    params_b: float | None = Field(
        default=None,
        allow_inf_nan=False,
        gt=0,
        le=MAX_PARAMS_B,
        description="Число параметров в миллиардах",
    )
    method: Method = Field(default="full", description="full — полное дообучение, lora, qlora")
    gpus: int = Field(default=1, gt=0, le=MAX_GPUS, description="Число GPU")
    sharding: Sharding = Field(default="none", description="Шардирование: zero1/zero2/zero3/fsdp")
    lora_trainable_pct: float = Field(
        default=1.0, gt=0, le=100, description="Доля обучаемых параметров адаптеров LoRA, %"
    )
    gpu: GpuName | None = Field(
        default=None, description="GPU из каталога — проверить, поместится ли"
    )
    gib: bool = Field(default=False, description="Показывать в ГиБ")

    @model_validator(mode="after")
    def _check(self) -> TrainingInput:
        if self.model is None and self.params_b is None:
            raise ToolInputError("Укажите модель или число параметров (например, 70B).")
        return self


@dataclass(frozen=True)
class TrainBreakdown:
    params_b: float
    parts: dict[str, float]  # bytes on all GPUs together (unsharded)
    per_gpu: dict[str, float]  # bytes on one GPU

    @property
    def total(self) -> float:
        return sum(self.parts.values())

    @property
    def per_gpu_total(self) -> float:
        return sum(self.per_gpu.values())


def breakdown(inp: TrainingInput, catalog: Catalog) -> TrainBreakdown:
    params_b = (
        inp.params_b if inp.params_b is not None else catalog.models[inp.model or ""].params_b
    )
    p = params_b * 1e9
    trainable = p if inp.method == "full" else p * inp.lora_trainable_pct / 100
    frozen = 0.0 if inp.method == "full" else p * BASE_BYTES[inp.method]
    parts = {k: trainable * b for k, b in ADAPTER_STATE.items()}
    parts["weights"] += frozen
    sharded = SHARDED[inp.sharding] if inp.gpus > 1 else frozenset()
    per_gpu = {k: v / inp.gpus if k in sharded else v for k, v in parts.items()}
    return TrainBreakdown(params_b, parts, per_gpu)


def _sharded_total(bd: TrainBreakdown, gpus: int) -> float:
    """Bytes per GPU when ZeRO-3/FSDP shards every part over `gpus` GPUs."""
    return sum(v / gpus if k in SHARDED["zero3"] else v for k, v in bd.parts.items())


def _split(inp: TrainingInput, bd: TrainBreakdown) -> tuple[float, float]:
    """(frozen base, adapters with their gradients and optimizer state), bytes: LoRA/QLoRA."""
    frozen = bd.params_b * 1e9 * BASE_BYTES[inp.method]
    return frozen, bd.total - frozen


def _formula_text(inp: TrainingInput, bd: TrainBreakdown) -> str:
    if inp.method == "full":
        return (
            # the optimizer state is named as such: it is what inference never holds
            "16 байт на параметр: веса BF16 2 + градиенты 2 + состояние оптимизатора 12 "
            "(мастер-копия FP32 4 + два момента Adam 4 + 4)"
        )
    # the frozen base is most of it: its size tells whether the model loads at all
    base = "BF16, 2 байта" if inp.method == "lora" else "NF4, 0,5 байта"
    frozen, adapters = (gb_text(to_gb(b, inp.gib), inp.gib) for b in _split(inp, bd))
    return (
        f"замороженная база — {frozen} ({base} на параметр), адаптеры с градиентами и "
        f"состоянием оптимизатора — {adapters} ({num(inp.lora_trainable_pct)}{NBSP}% "
        "параметров × 16 байт)"
    )


def _parts(inp: TrainingInput, bd: TrainBreakdown) -> str:
    what = _formula_text(inp, bd)
    return f" ({what})" if inp.method == "full" else f": {what}"


def _left_whole(inp: TrainingInput, bd: TrainBreakdown) -> str:
    """«С ZeRO-1 шардируется только состояние оптимизатора: веса (141 ГБ) и градиенты (141 ГБ)
    лежат целиком на каждой карте» — what the stage shards, and what it leaves on every card."""
    g, stage = inp.gib, SHARDING_RU[inp.sharding]
    whole = [("веса", "weights")] + (
        [] if "grads" in SHARDED[inp.sharding] else [("градиенты", "grads")]
    )
    left = " и ".join(f"{name} ({gb_text(to_gb(bd.parts[key], g), g)})" for name, key in whole)
    sharded = (
        "шардируются только состояние оптимизатора и градиенты"
        if len(whole) == 1
        else "шардируется только состояние оптимизатора"
    )
    return f"С {stage} {sharded}: {left} {WHOLE_ON_EACH[1]}"


def describe(inp: TrainingInput, bd: TrainBreakdown, catalog: Catalog) -> tuple[str, list[str]]:
    g = inp.gib
    total = gb_text(to_gb(bd.total, g), g)
    s = (
        f"Для {METHOD_RU[inp.method]} модели на {params_text(bd.params_b)} с Adam в смешанной "
        f"точности нужно около {total} без активаций{_parts(inp, bd)}."
    )
    if inp.gpus > 1:
        per = gb_text(to_gb(bd.per_gpu_total, g), g)
        full = gb_text(to_gb(_sharded_total(bd, inp.gpus), g), g)
        if inp.sharding == "none":
            s += (
                # several GPUs without sharding is data parallelism (DDP): say it by its name
                f" При параллелизме по данным (DDP) без шардирования каждый из {inp.gpus} GPU "
                f"{WHOLE_ON_EACH[0]} модели, "
                f"градиентов и состояния оптимизатора — {per} на GPU."
            )
            s += f" С ZeRO-3 или FSDP (шардируются и веса) — около {full} на GPU."
        else:
            s += f" С {SHARDING_RU[inp.sharding]} на {inp.gpus} GPU это около {per} на GPU."
            if "weights" not in SHARDED[inp.sharding]:  # ZeRO-1/2 leave the weights whole
                s += f" {_left_whole(inp, bd)}; с ZeRO-3 или FSDP (шардируются и веса) — около "
                s += f"{full} на GPU."
    assumed = [
        "оптимизатор Adam, смешанная точность BF16 + FP32",
        "не включены активации (зависят от батча и длины последовательности), временные буферы "
        "и фрагментация памяти — закладывайте запас",
        "ГиБ = 2³⁰ байт" if g else "ГБ десятичные (10⁹ байт)",
    ]
    if inp.method != "full":
        assumed.insert(1, f"обучается {num(inp.lora_trainable_pct)}{NBSP}% параметров (адаптеры)")
    if inp.gpu is not None:
        card = catalog.gpus[inp.gpu]
        need = to_gb(bd.per_gpu_total)
        where = f"одну {card.name}" if inp.gpus == 1 else f"каждую из {inp.gpus} × {card.name}"
        verdict = "поместится" if need <= card.memory_gb else "не поместится"
        s += f" На {where} ({gb_text(card.memory_gb)}) {verdict} — без учёта активаций."
    if inp.sharding != "none" and inp.gpus == 1:
        assumed.append("на одном GPU шардирование ничего не экономит")
    return s, assumed


def compute(inp: TrainingInput, catalog: Catalog) -> Computation:
    bd = breakdown(inp, catalog)
    g = inp.gib
    values: Values = {
        "params_b": bd.params_b,
        "bytes_per_param": sig(bd.total / (bd.params_b * 1e9)),
        "total_gb": sig(to_gb(bd.total, g)),
        "per_gpu_gb": sig(to_gb(bd.per_gpu_total, g)),
        "weights_gb": sig(to_gb(bd.per_gpu["weights"], g)),
        "gradients_gb": sig(to_gb(bd.per_gpu["grads"], g)),
        "optimizer_gb": sig(to_gb(bd.per_gpu["master"] + bd.per_gpu["moments"], g)),
        "unit": "GiB" if g else "GB",
    }
    if inp.method != "full":
        frozen, adapters = _split(inp, bd)
        values["base_gb"] = sig(to_gb(frozen, g))
        values["adapters_gb"] = sig(to_gb(adapters, g))
    if inp.gpus > 1 and inp.sharding == "none":  # what the same GPUs need when sharded
        values["per_gpu_zero3_gb"] = sig(to_gb(_sharded_total(bd, inp.gpus), g))
    if inp.gpu is not None:
        card = catalog.gpus[inp.gpu]
        values.update(gpu=card.id, gpu_memory_gb=card.memory_gb)
        values["fits"] = to_gb(bd.per_gpu_total) <= card.memory_gb
    summary, assumed = describe(inp, bd, catalog)
    formula = (
        "на GPU = Σ частей (веса, градиенты, мастер-копия, моменты Adam); "
        "шардированные части делятся на число GPU (ZeRO-1: оптимизатор, ZeRO-2: + градиенты, "
        "ZeRO-3/FSDP: + веса)"
    )
    unused = {"model", "params_b", "gpu"} | (
        {"lora_trainable_pct"} if inp.method == "full" else set()
    )
    return Computation(
        formula, values, summary, assumed, {"params_b": bd.params_b}, frozenset(unused)
    )


LABELS = {
    "model": "модель",
    "params_b": "число параметров",
    "method": "метод",
    "gpus": "число GPU",
    "sharding": "шардирование",
    "lora_trainable_pct": "доля обучаемых параметров",
    "gpu": "GPU",
}

DESCRIPTION = (
    "Сколько видеопамяти нужно для обучения/дообучения: полное дообучение с Adam "
    "(~16 байт на параметр), LoRA, QLoRA, шардирование ZeRO-1/2/3 и FSDP на N GPU. "
    "Активации не включены."
)


def related(args: Arguments, catalog: Catalog) -> list[str]:
    """Most specific first (answers cite the first two): the method, then how it is sharded."""
    out = ["vram"]
    method = args.get("method")
    out += [method] if isinstance(method, str) and method in ("lora", "qlora") else []
    sharding = str(args.get("sharding", ""))
    gpus = args.get("gpus", 1)
    several = isinstance(gpus, int | float) and int(gpus) > 1
    if sharding.startswith("zero"):
        out.append("zero")
    elif sharding == "fsdp":
        out.append("fsdp")
    elif several:  # the answer names ZeRO-3 / FSDP as the way to fit on these GPUs
        out += ["zero", "fsdp"]
    return out + ["mixed-precision"] + (["data-parallelism"] if several else [])


TOOL = Tool(
    "vram_training",
    DESCRIPTION,
    TrainingInput,
    compute,
    LABELS,
    title="Память для обучения",
    short="калькулятор памяти для обучения",
    source="Расчёт: калькулятор памяти для обучения",
    headline=("per_gpu_gb", "total_gb"),
    related=related,
)
