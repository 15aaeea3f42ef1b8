"""Model size + precision (+ context, batch) → inference VRAM: weights, KV cache, 10–30 % overhead.

    weights  = parameters × bytes per parameter   (FP32 4, BF16/FP16 2, FP8/INT8 1, 4-bit 0,5)
    KV cache = 2 × layers × KV heads × head dim × bytes × context tokens × concurrent sequences
               (MLA models such as DeepSeek-V3: layers × latent dim × bytes × tokens × sequences)
    total    = (weights + KV cache) × (1 + 10…30 %)        glossary:vram

Decimal GB (10⁹ bytes) as the glossary writes them; GiB on request (`gib=True`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypeVar

from pydantic import Field, model_validator

from assistant.calculators.base import (
    Arguments,
    Computation,
    Inputs,
    Tool,
    ToolInput,
    Values,
)
from assistant.calculators.fields import (
    MAX_BATCH,
    MAX_CONTEXT,
    MAX_PARAMS_B,
    ModelName,
    Precision,
    precision_field,
)
from assistant.calculators.units import (
    DEFAULT_QUANT_BLOCK,
    NBSP,
    PRECISION_LABEL,
    bytes_per_value,
    exact_gb_text,
    gb_text,
    num,
    plural,
    sig,
    to_gb,
)
from assistant.corpus.catalog import Catalog, ModelArch
from assistant.errors import ToolInputError


class InferenceInput(ToolInput):
    model: ModelName | None = Field(
        default=None, description="Модель из справочника, например «Llama 3 70B» или «Qwen3 32B»"
    )
    params_b: float | None = Field(
        default=None,
        allow_inf_nan=False,
        gt=0,
        le=MAX_PARAMS_B,
        description="Число параметров в миллиардах (70 = 70B)",
    )
    precision: Precision = precision_field("bf16", "Точность весов")
    kv_precision: Precision = precision_field("fp16", "Точность KV-кэша")
    context_tokens: int = Field(
        default=0, ge=0, le=MAX_CONTEXT, description="Длина контекста в токенах (0 — без KV-кэша)"
    )
    batch: int = Field(default=1, gt=0, le=MAX_BATCH, description="Одновременных запросов")
    layers: int | None = Field(default=None, gt=0, le=1000, description="Число слоёв")
    kv_heads: int | None = Field(default=None, gt=0, le=1024, description="Число KV-голов (GQA)")
    head_dim: int | None = Field(default=None, gt=0, le=4096, description="Размерность головы")
    overhead_low_pct: float = Field(default=10, ge=0, le=200, description="Нижний запас, %")
    overhead_high_pct: float = Field(default=30, ge=0, le=200, description="Верхний запас, %")
    quant_scales: bool = Field(
        default=False,
        description="Учесть масштабные коэффициенты квантования (FP16 на 32 значения)",
    )
    gib: bool = Field(default=False, description="Показывать в ГиБ (2³⁰ байт) вместо ГБ")

    @property
    def architecture_only(self) -> bool:
        """KV cache from layers, KV heads and head dim alone: no weights to size."""
        shape = (self.layers, self.kv_heads, self.head_dim)
        return self.model is None and self.params_b is None and all(v for v in shape)

    @model_validator(mode="after")
    def _check(self) -> InferenceInput:
        if self.model is None and self.params_b is None and not self.architecture_only:
            raise ToolInputError("Укажите модель или число параметров (например, 70B).")
        if self.architecture_only and self.context_tokens == 0:
            raise ToolInputError("Для KV-кэша укажите длину контекста, например «контекст 8k».")
        if self.overhead_high_pct < self.overhead_low_pct:
            raise ToolInputError("Верхний запас не может быть меньше нижнего.")
        return self


@dataclass(frozen=True)
class KvShape:
    layers: int
    kv_heads: int
    head_dim: int
    latent_dim: int | None
    source: str  # "model" | "given" | "nearest:<id>"

    @property
    def values_per_token(self) -> int:
        """K and V values stored per token across all layers."""
        if self.latent_dim:
            return self.layers * self.latent_dim
        return 2 * self.layers * self.kv_heads * self.head_dim


@dataclass(frozen=True)
class Breakdown:
    params_b: float
    bytes_per_param: float
    weights_b: float  # bytes
    kv_b: float  # bytes
    kv: KvShape | None
    low: float  # bytes incl. overhead
    high: float


# A named model's KV cache is computed for this context when none is stated, as for one
# request: its architecture is known, so the answer names the cache instead of folding it into
# the 10–30 % margin. A bare size («70B») keeps the glossary's rule: weights plus the margin.
DEFAULT_CONTEXT = 4096


Input = TypeVar("Input", bound="InferenceInput")


def with_default_context(inp: Input) -> Input:
    """The input a named model is computed with: its context stated, or DEFAULT_CONTEXT."""
    if inp.model is None or "context_tokens" in inp.model_fields_set:
        return inp
    return inp.model_copy(update={"context_tokens": DEFAULT_CONTEXT})


def nearest_model(params_b: float, catalog: Catalog) -> ModelArch:
    """Dense catalogue model closest in size (log scale) — a stated stand-in for KV shape."""
    dense = [m for m in catalog.models.values() if m.active_b is None]
    return min(dense, key=lambda m: abs(math.log(m.params_b / params_b)))


def kv_shape(inp: InferenceInput, params_b: float, catalog: Catalog) -> KvShape:
    given = (inp.layers, inp.kv_heads, inp.head_dim)
    if all(v is not None for v in given):
        assert inp.layers and inp.kv_heads and inp.head_dim
        return KvShape(inp.layers, inp.kv_heads, inp.head_dim, None, "given")
    if any(v is not None for v in given):
        raise ToolInputError(
            "Для KV-кэша укажите все три числа: слои, KV-головы и размерность головы."
        )
    if inp.model:
        m = catalog.models[inp.model]
        source = "model"
    else:
        m = nearest_model(params_b, catalog)
        source = f"nearest:{m.id}"
    return KvShape(m.layers, m.kv_heads, m.head_dim, m.kv_latent_dim, source)


def model_size(inp: InferenceInput, catalog: Catalog) -> float:
    """Billions of parameters: given, the catalogue model's, or 0 (architecture only)."""
    if inp.params_b is not None:
        return inp.params_b
    return catalog.models[inp.model].params_b if inp.model else 0.0


def breakdown(inp: InferenceInput, catalog: Catalog) -> Breakdown:
    params_b = model_size(inp, catalog)
    block = DEFAULT_QUANT_BLOCK if inp.quant_scales else None
    bpp = bytes_per_value(inp.precision, block)
    weights = params_b * 1e9 * bpp
    shape = kv_shape(inp, params_b, catalog) if inp.context_tokens > 0 else None
    kv = 0.0
    if shape is not None:
        kv_bytes = bytes_per_value(inp.kv_precision)
        kv = shape.values_per_token * kv_bytes * inp.context_tokens * inp.batch
    base = weights + kv
    low = base * (1 + inp.overhead_low_pct / 100)
    high = base * (1 + inp.overhead_high_pct / 100)
    return Breakdown(params_b, bpp, weights, kv, shape, low, high)


def params_text(params_b: float) -> str:
    if params_b < 1:
        return f"{num(params_b * 1000)}{NBSP}млн параметров"
    digits = 1 if params_b >= 100 and not math.isclose(params_b, round(params_b)) else None
    return f"{num(params_b, digits)}{NBSP}млрд параметров"  # 140,6, not 141


def bytes_text(b: float) -> str:
    return f"{num(b)}{NBSP}{plural(b, 'байт', 'байта', 'байт')}"


def kv_formula_text(inp: InferenceInput, bd: Breakdown) -> str:
    assert bd.kv is not None
    kvb = bytes_per_value(inp.kv_precision)
    label = PRECISION_LABEL[inp.kv_precision]
    tail = f"{num(inp.context_tokens)} × {bytes_text(kvb)} в {label}"
    if inp.batch > 1:
        reqs = f"{inp.batch} {plural(inp.batch, 'запрос', 'запроса', 'запросов')}"
        tail = f"{tokens_text(inp.context_tokens)} × {reqs} × {bytes_text(kvb)} в {label}"
    s = bd.kv
    layers = f"{s.layers} {plural(s.layers, 'слой', 'слоя', 'слоёв')}"
    if s.latent_dim:
        return f"{layers} × {s.latent_dim} (MLA) × {tail}"
    heads = f"{s.kv_heads} KV-{plural(s.kv_heads, 'голова', 'головы', 'голов')}"
    return f"{layers} × {heads} × {s.head_dim} × 2 × {tail}"


def tokens_text(n: int) -> str:
    return f"{num(n)}{NBSP}{plural(n, 'токен', 'токена', 'токенов')}"


def sequences(batch: int) -> str:
    word = plural(batch, "одновременный запрос", "одновременных запроса", "одновременных запросов")
    return f"{batch} {word}"


def range_text(low_gb: float, high_gb: float, gib: bool) -> str:
    """«37–45 ГБ»: from 10 GB the range is widened to whole numbers (floor / ceil)."""
    if high_gb >= 10:
        lo, hi = num(math.floor(low_gb)), num(math.ceil(high_gb))
    else:
        lo, hi = num(low_gb, 1), num(high_gb, 1)
    unit = "ГиБ" if gib else "ГБ"
    return f"{lo}{NBSP}{unit}" if lo == hi else f"{lo}–{hi}{NBSP}{unit}"


def describe(inp: InferenceInput, bd: Breakdown, catalog: Catalog) -> tuple[str, list[str]]:
    """Russian summary sentences and the list of assumptions."""
    if inp.architecture_only:
        return _describe_cache(inp, bd), assumptions(inp, bd, catalog)
    g = inp.gib
    label = PRECISION_LABEL[inp.precision]
    who = f"{catalog.models[inp.model].name}, " if inp.model and inp.params_b is None else ""
    # the total first: «сколько памяти нужно» asks it; then each part in a sentence of its own,
    # so no figure shares a sentence with another part's name («KV-кэш … 32,76 ГБ» is false)
    weights = (
        f"Веса — {exact_gb_text(to_gb(bd.weights_b, g), g)} ({params_text(bd.params_b)} × "
        f"{bytes_text(bd.bytes_per_param)}, {label})."
    )
    need = f"Для {who.removesuffix(', ')} нужно" if who else "Нужно"
    lo, hi = inp.overhead_low_pct, inp.overhead_high_pct
    margin = f"{num(lo)}–{num(hi)}{NBSP}%"
    total = range_text(to_gb(bd.low, g), to_gb(bd.high, g), g)
    if bd.kv is None:
        first = f"{need} около {total} с запасом {margin} на KV-кэш и служебные расходы."
        return f"{first} {weights}", assumptions(inp, bd, catalog)
    req = "одного запроса" if inp.batch == 1 else f"{inp.batch} одновременных запросов"
    parts = [
        f"{need} около {total} с запасом {margin} на служебные расходы.",
        weights,
        f"KV-кэш для {req} с контекстом {tokens_text(inp.context_tokens)} — около "
        f"{gb_text(to_gb(bd.kv_b, g), g)} ({kv_formula_text(inp, bd)}).",
    ]
    return " ".join(parts), assumptions(inp, bd, catalog)


def _describe_cache(inp: InferenceInput, bd: Breakdown) -> str:
    g = inp.gib
    req = "одного запроса" if inp.batch == 1 else f"{inp.batch} одновременных запросов"
    total = range_text(to_gb(bd.low, g), to_gb(bd.high, g), g)
    return (
        f"KV-кэш для {req} с контекстом {tokens_text(inp.context_tokens)} займёт около "
        f"{gb_text(to_gb(bd.kv_b, g), g)} ({kv_formula_text(inp, bd)}). Веса модели сюда не "
        f"входят: размер модели не назван. С запасом {num(inp.overhead_low_pct)}–"
        f"{num(inp.overhead_high_pct)}{NBSP}% — около {total} только под кэш."
    )


def overheads(bd: Breakdown, inp: InferenceInput) -> tuple[float, float]:
    """The 10 % and 30 % of (weights + KV cache), in bytes: the breakdown's third line."""
    base = bd.weights_b + bd.kv_b
    return base * inp.overhead_low_pct / 100, base * inp.overhead_high_pct / 100


def assumptions(inp: InferenceInput, bd: Breakdown, catalog: Catalog) -> list[str]:
    out = []
    if bd.kv is not None:
        out.append(f"KV-кэш в {PRECISION_LABEL[inp.kv_precision]}, {sequences(inp.batch)}")
        if bd.kv.source.startswith("nearest:"):
            m = catalog.models[bd.kv.source.split(":", 1)[1]]
            out.append(f"форма KV-кэша взята как у ближайшей по размеру модели {m.name}")
    else:
        out.append("KV-кэш отдельно не считался — он входит в запас 10–30 %")
    if inp.quant_scales:
        out.append("учтены масштабные коэффициенты квантования (FP16 на блок из 32 значений)")
    out.append("ГиБ = 2³⁰ байт" if inp.gib else "ГБ десятичные (10⁹ байт), как в глоссарии")
    out.append("активации и буферы движка инференса входят в запас, отдельно не считались")
    return out


def compute(inp: InferenceInput, catalog: Catalog) -> Computation:
    inp = with_default_context(inp)
    bd = breakdown(inp, catalog)
    g = inp.gib
    summary, assumed = describe(inp, bd, catalog)
    values: Values = {
        "params_b": bd.params_b,
        "bytes_per_param": bd.bytes_per_param,
        "weights_gb": sig(to_gb(bd.weights_b, g)),
        "kv_cache_gb": sig(to_gb(bd.kv_b, g)),
        "overhead_low_gb": sig(to_gb(overheads(bd, inp)[0], g)),
        "overhead_high_gb": sig(to_gb(overheads(bd, inp)[1], g)),
        "total_low_gb": sig(to_gb(bd.low, g)),
        "total_high_gb": sig(to_gb(bd.high, g)),
        "unit": "GiB" if g else "GB",
    }
    derived: Inputs = {"params_b": bd.params_b, "context_tokens": inp.context_tokens}
    unused = {"model", "params_b", "layers", "kv_heads", "head_dim"}
    if bd.kv is None:
        unused |= {"kv_precision", "batch"}
    if inp.architecture_only:
        unused |= {"precision", "quant_scales"}
    if bd.kv is not None:
        derived.update(layers=bd.kv.layers, kv_heads=bd.kv.kv_heads, head_dim=bd.kv.head_dim)
        if bd.kv.latent_dim:
            derived["kv_latent_dim"] = bd.kv.latent_dim
    formula = (
        "веса = параметры × байт на параметр; KV = 2 × слои × KV-головы × размерность головы × "
        "байт × токены × запросы; итого = (веса + KV) × (1 + запас)"
    )
    return Computation(formula, values, summary, assumed, derived, frozenset(unused))


LABELS = {
    "model": "модель",
    "params_b": "число параметров",
    "precision": "точность",
    "kv_precision": "точность KV-кэша",
    "context_tokens": "контекст",
    "batch": "число одновременных запросов",
    "layers": "число слоёв",
    "kv_heads": "число KV-голов",
    "head_dim": "размерность головы",
    "overhead_low_pct": "нижний запас",
    "overhead_high_pct": "верхний запас",
}

DESCRIPTION = (
    "Сколько видеопамяти нужно для инференса модели: веса (параметры × байт на "
    "параметр), KV-кэш (слои × KV-головы × размерность × контекст × запросы) и "
    "запас 10–30 %. Модель можно указать по имени (Llama 3 70B) или числом параметров."
)
PRECISION_SLUG = {"bf16": "bf16", "fp16": "mixed-precision", "fp8": "fp8", "fp4": "fp4"}
QUANTISED = {"int8", "int4", "fp4", "nf4", "fp8"}


def related(args: Arguments, catalog: Catalog) -> list[str]:
    """The memory entry, the precision's, quantisation, the KV cache, MoE."""
    out = ["vram"]
    precision = args.get("precision")
    if isinstance(precision, str) and precision in PRECISION_SLUG:
        out.append(PRECISION_SLUG[precision])
    if precision in QUANTISED:
        out.append("quantization")
    if args.get("context_tokens"):
        out.append("kv-cache")
    model_id = args.get("model")
    model = catalog.models.get(model_id) if isinstance(model_id, str) else None
    if model is not None and model.active_b is not None:
        out.append("moe")
    return out


TOOL = Tool(
    "vram_inference",
    DESCRIPTION,
    InferenceInput,
    compute,
    LABELS,
    title="Память для инференса",
    short="калькулятор VRAM",
    source="Расчёт: калькулятор VRAM",
    headline=("total_low_gb", "total_high_gb"),
    related=related,
)
