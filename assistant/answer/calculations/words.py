"""Numbers, names and inputs → the Russian strings of a Display (DISPLAY.md formatting rules).

    num(70.63) → «70,6»   num(1344) → «1 344»   num(0.523) → «0,52»
    gb(77.7) → «77,7 ГБ»  gb_span(77.66, 91.78) → «77–92 ГБ»   usd(3) → «3,00 $»
    gpu_name("h100-sxm", catalog) → «H100 SXM»   model_name("llama-3-70b", catalog) → «Llama 3 …»
    input_items(result, stated, catalog) → [(«Модель», «Llama 3 70B»), (…)]   each label once

Rounding by magnitude: ≥ 100 → whole, ≥ 10 → one decimal, else two significant digits;
decimal comma; a no-break space as the thousands separator and before a unit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from assistant.calculators.base import Scalar, ToolResult
from assistant.calculators.units import UNIT_RU, plural
from assistant.corpus.catalog import Catalog

NBSP = "\u00a0"

METHOD_TITLE = {
    "full": "Полное дообучение",
    "lora": "Дообучение с LoRA",
    "qlora": "Дообучение с QLoRA",
}
METHOD_TEXT = {"full": "полное дообучение", "lora": "LoRA", "qlora": "QLoRA"}
SHARDING_TEXT = {"none": "без шардирования", "zero1": "ZeRO-1", "zero2": "ZeRO-2"}
SHARDING_TEXT |= {"zero3": "ZeRO-3", "fsdp": "FSDP"}
# a setup by its name: a full copy on each card is plain data parallelism (DDP)
SHARDING_NAME = SHARDING_TEXT | {"none": "DDP"}
# «на 1 неделю», «на 3 суток»: the accusative after «на»
UNIT_WORDS_ON = UNIT_RU | {"weeks": ("неделю", "недели", "недель")}


def num(x: float) -> str:
    """Rounded by magnitude, decimal comma, no-break-space thousands; trailing zeros dropped."""
    ax = abs(x)
    if ax >= 100 or ax == 0:
        digits = 0
    elif ax >= 10:
        digits = 1
    else:
        digits = max(0, 1 - math.floor(math.log10(ax)))  # two significant digits
    text = f"{x:,.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.replace(",", NBSP).replace(".", ",")


def gb(x: float, unit: str = "ГБ") -> str:
    return f"{num(x)}{NBSP}{unit}"


def gb_span(lo: float, hi: float, unit: str = "ГБ", *, whole: bool = True) -> str:
    """«77–92 ГБ» (a total widened to whole numbers from 10) or «7,2–21,6 ГБ» (each rounded)."""
    if whole and hi >= 10:
        a, b = num(math.floor(lo)), num(math.ceil(hi))
    else:
        a, b = num(lo), num(hi)
    return f"{a}{NBSP}{unit}" if a == b else f"{a}–{b}{NBSP}{unit}"


def usd(x: float) -> str:
    """Money: cents below 100 $ («3,00 $»), whole dollars above («4 032 $»)."""
    if abs(x) >= 100:
        return f"{num(round(x))}{NBSP}$"
    return f"{x:,.2f}".replace(",", NBSP).replace(".", ",") + f"{NBSP}$"


def count(n: float, one: str, few: str, many: str) -> str:
    return f"{num(n)}{NBSP}{plural(n, one, few, many)}"


def tokens(n: int) -> str:
    return count(n, "токен", "токена", "токенов")


def params_short(params_b: float) -> str:
    if params_b < 1:
        return f"{num(params_b * 1000)}{NBSP}млн"
    return f"{num(params_b)}{NBSP}млрд"


def precision(p: object) -> str:
    return str(p).upper() if isinstance(p, str) and p else ""


def gpu_name(gpu_id: str, catalog: Catalog) -> str:
    """Catalogue id → short display name: «H100 SXM», «GB300 NVL72», «MI355X»."""
    g = catalog.gpus.get(gpu_id)
    if g is None:
        return gpu_id.upper().replace("-", " ")
    return g.short


def model_name(model_id: str, catalog: Catalog) -> str:
    m = catalog.models.get(model_id)
    return m.name if m is not None else model_id


def sentence(text: str) -> str:
    text = text.strip().rstrip(".")
    return text[:1].upper() + text[1:] if text else text


def duration(value: float, unit: str, *, on: bool = False) -> str:
    """«1 неделя» (on=False) or «1 неделю» (after «на»)."""
    words = (UNIT_WORDS_ON if on else UNIT_RU).get(unit, ("час", "часа", "часов"))
    return count(value, *words)


# -- stated inputs -------------------------------------------------------------------------------

Inputs = Mapping[str, Scalar]  # a result's inputs
Present = float | int | str | bool  # an input that has a value
Formatter = Callable[[Inputs], str | None]


def _several_gpus(i: Inputs) -> bool:
    """More than one GPU (no count given is one)."""
    n = i.get("gpus") or 1
    return isinstance(n, int | float) and n > 1


def _pct_range(i: Inputs) -> str | None:
    lo, hi = i.get("overhead_low_pct"), i.get("overhead_high_pct")
    if lo is None or hi is None:
        return None
    return f"{num(float(lo))}–{num(float(hi))}{NBSP}%"


def _price(key: str, per: str) -> Formatter:
    def fmt(i: Inputs) -> str | None:
        v = i.get(key)
        if not isinstance(v, int | float):
            return None
        whom = " за все GPU" if i.get("price_scope") == "total" and _several_gpus(i) else ""
        return f"{usd(float(v))} {per}{whom}"

    return fmt


def _get(key: str, fmt: Callable[[Present], str]) -> Formatter:
    def read(i: Inputs) -> str | None:
        v = i.get(key)
        return fmt(v) if v is not None and v != "" else None

    return read


def _params(v: Present) -> str:
    return f"{params_short(float(v))} параметров"


def _pct(v: Present) -> str:
    return f"{num(float(v))}{NBSP}%"


def _yes(text: str) -> Callable[[Present], str]:
    return lambda v: text if v else ""


def _duration(i: Inputs) -> str | None:
    v = i.get("duration")
    return duration(float(v), str(i.get("duration_unit") or "hours")) if v else None


# (input names that trigger the row, label, formatter): one label per row, in this order
INPUT_ROWS: tuple[tuple[tuple[str, ...], str, Formatter], ...] = (
    (("model",), "Модель", _get("model", str)),  # display names: see input_items
    (("params_b",), "Размер модели", _get("params_b", _params)),
    (("required_gb",), "Нужно памяти", _get("required_gb", lambda v: gb(float(v)))),
    (("precision",), "Точность весов", _get("precision", precision)),
    (("method",), "Метод", _get("method", lambda v: METHOD_TEXT.get(str(v), str(v)))),
    (("context_tokens",), "Контекст", _get("context_tokens", lambda v: tokens(int(v)))),
    (("batch",), "Одновременных запросов", _get("batch", lambda v: num(int(v)))),
    (("kv_precision",), "Точность KV-кэша", _get("kv_precision", precision)),
    (("layers",), "Слоёв", _get("layers", lambda v: num(int(v)))),
    (("kv_heads",), "KV-голов", _get("kv_heads", lambda v: num(int(v)))),
    (("head_dim",), "Размерность головы", _get("head_dim", lambda v: num(int(v)))),
    (("overhead_low_pct", "overhead_high_pct"), "Запас", _pct_range),
    (("quant_scales",), "Масштабы квантования", _get("quant_scales", _yes("учтены"))),
    (("gpu",), "GPU", _get("gpu", str)),
    (("gpu_memory_gb",), "Память карты", _get("gpu_memory_gb", lambda v: gb(float(v)))),
    (("gpus",), "Число GPU", _get("gpus", lambda v: num(int(v)))),
    (("sharding",), "Шардирование", _get("sharding", lambda v: SHARDING_TEXT.get(str(v), str(v)))),
    (("lora_trainable_pct",), "Обучаемых параметров", _get("lora_trainable_pct", _pct)),
    (("price_month",), "Цена", _price("price_month", "в месяц")),
    (("price_hour",), "Цена", _price("price_hour", "в час")),
    (("duration", "duration_unit"), "Срок", _duration),
    (("hours_per_month",), "Часов в месяце", _get("hours_per_month", lambda v: num(float(v)))),
    (("gib",), "Единицы", _get("gib", _yes("ГиБ (2³⁰ байт)"))),
)  # fmt: skip


def input_items(
    result: ToolResult, stated: frozenset[str], catalog: Catalog
) -> list[tuple[str, str]]:
    """What the user stated (or carried from earlier turns), each label once, human values."""
    inputs = dict(result.inputs)
    model, gpu = inputs.get("model"), inputs.get("gpu")
    if isinstance(model, str) and model:
        inputs["model"] = model_name(model, catalog)
    if isinstance(gpu, str) and gpu:
        inputs["gpu"] = gpu_name(gpu, catalog)
    out: dict[str, str] = {}
    for keys, label, fmt in INPUT_ROWS:
        if label in out or not any(k in stated for k in keys):
            continue
        value = fmt(inputs)
        if value:
            out[label] = value
    return list(out.items())


# -- defaults as assumptions ---------------------------------------------------------------------


def _default(fmt: Formatter) -> Formatter:
    def phrase(i: Inputs) -> str | None:
        text = fmt(i)
        return f"{text} — по умолчанию" if text else None

    return phrase


def _kv_precision(i: Inputs) -> str | None:
    return f"KV-кэш в {precision(i.get('kv_precision'))}" if i.get("context_tokens") else None


def _batch(i: Inputs) -> str | None:
    n = int(i.get("batch") or 1)
    return count(n, "одновременный запрос", "одновременных запроса", "одновременных запросов")


def _context(i: Inputs) -> str | None:
    """Said of a context left out: the default a named model is computed with, or that the KV
    cache is in the margin (a bare size)."""
    n = int(i.get("context_tokens") or 0)
    if n:
        return f"Контекст не назван — KV-кэш посчитан для {tokens(n)}"
    return "Контекст не назван — KV-кэш отдельно не считали, он входит в запас"


def _overhead(i: Inputs) -> str | None:
    pct = _pct_range(i)
    return f"Запас {pct} на служебные расходы" if pct else None


def _sharding(i: Inputs) -> str | None:
    return "Без шардирования" if _several_gpus(i) else None


def _hours_per_month(i: Inputs) -> str | None:
    """Only when a month is part of the sum: a price or a duration in months/years."""
    priced = any(i.get(k) for k in ("price_month", "price_hour", "gpu"))
    if not priced and i.get("duration_unit") not in ("months", "years"):
        return None
    return f"Месяц = {num(float(i.get('hours_per_month') or 730))}{NBSP}ч (среднее число часов)"


def _gpus(i: Inputs) -> str | None:
    if "duration" in i and not i.get("duration"):  # a price conversion: the count plays no part
        return None
    return f"{num(int(i.get('gpus') or 1))}{NBSP}GPU"


def _price_scope(i: Inputs) -> str | None:
    return "Цена за один GPU" if _several_gpus(i) else None


DEFAULT_PHRASES: dict[str, Formatter] = {
    "precision": _default(lambda i: f"Точность весов {precision(i.get('precision'))}"),
    "kv_precision": _default(_kv_precision),
    "batch": _default(_batch),
    "context_tokens": _context,
    "overhead_low_pct": _default(_overhead),
    "overhead_high_pct": _default(_overhead),
    "method": _default(lambda i: METHOD_TITLE.get(str(i.get("method")))),
    "gpus": _default(_gpus),
    "sharding": _default(_sharding),
    "lora_trainable_pct": _default(
        lambda i: (
            f"Обучается {num(float(i.get('lora_trainable_pct') or 1))}{NBSP}% параметров "
            "(адаптеры LoRA)"
        )
    ),
    "hours_per_month": _default(
        lambda i: (
            f"Месяц = {num(float(i.get('hours_per_month') or 730))}{NBSP}ч "
            "(среднее число часов в месяце)"
        )
    ),
    "price_scope": _default(_price_scope),
}
# the calculator's own assumption (by its opening words) that a default phrase replaces
SUPERSEDED: dict[str, tuple[str, ...]] = {
    "kv_precision": ("kv-кэш в ",),
    "batch": ("kv-кэш в ",),
    "context_tokens": ("kv-кэш отдельно не считался",),
    "lora_trainable_pct": ("обучается ",),
    "hours_per_month": ("месяц = ",),
    "price_scope": ("цена указана за",),
}
