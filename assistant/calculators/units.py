"""Precision names / numbers → bytes per value and Russian-formatted strings («140 ГБ», «3,00 $»).

Formatting uses a no-break space (U+00A0) as the thousands separator and between a number and
its unit, exactly as the glossary writes «2 190 $».
"""

from __future__ import annotations

import math

from assistant.errors import ToolInputError

NBSP = "\u00a0"
# duration unit → Russian forms for 1, 2–4 and 5+ («1 неделя», «3 недели», «5 недель»)
UNIT_RU = {
    "hours": ("час", "часа", "часов"),
    "days": ("сутки", "суток", "суток"),
    "weeks": ("неделя", "недели", "недель"),
    "months": ("месяц", "месяца", "месяцев"),
    "years": ("год", "года", "лет"),
}
GB = 1e9
GIB = 2**30

# canonical precision → bytes per value (glossary: bf16, fp8, fp4, quantization)
PRECISION_BYTES: dict[str, float] = {
    "fp32": 4.0,
    "bf16": 2.0,
    "fp16": 2.0,
    "fp8": 1.0,
    "int8": 1.0,
    "int4": 0.5,
    "fp4": 0.5,
    "nf4": 0.5,
}
PRECISION_LABEL: dict[str, str] = {p: p.upper() for p in PRECISION_BYTES}
# quantisation scales: one FP16 scale per block of values → 16 bits / block size per value
DEFAULT_QUANT_BLOCK = 32

_ALIASES = {
    "float32": "fp32",
    "tf32": "fp32",
    "bfloat16": "bf16",
    "float16": "fp16",
    "half": "fp16",
    "e4m3": "fp8",
    "e5m2": "fp8",
    "nvfp4": "fp4",
    "mxfp4": "fp4",
    "q8": "int8",
    "q4": "int4",
    "awq": "int4",
    "gptq": "int4",
}


HOURS_PER_MONTH = 730  # the average month (glossary:gpu-hour): 2 190 $ a month is 3 $ an hour


def canonical_precision(value: str, field: str = "precision") -> str:
    """'BF16', 'bfloat16', 'fp-8' → 'bf16' / 'fp8'; unknown → ToolInputError (Russian)."""
    key = value.strip().lower().replace("-", "").replace("_", "").replace(" ", "")
    key = _ALIASES.get(key, key)
    if key not in PRECISION_BYTES:
        known = ", ".join(PRECISION_LABEL[p] for p in PRECISION_BYTES)
        raise ToolInputError(f"Неизвестная точность «{value}» ({field}). Поддерживаются: {known}.")
    return key


def bytes_per_value(precision: str, quant_block: int | None = None) -> float:
    """Bytes per parameter; 4/8-bit formats may add one FP16 scale per `quant_block` values."""
    base = PRECISION_BYTES[precision]
    if quant_block and base <= 1.0:
        return base + 2.0 / quant_block
    return base


def to_gb(n_bytes: float, gib: bool = False) -> float:
    return n_bytes / (GIB if gib else GB)


def unit(gib: bool) -> str:
    return "ГиБ" if gib else "ГБ"


def num(x: float, digits: int | None = None) -> str:
    """Russian number: 140 → «140», 2190 → «2 190», 10.737 → «10,74», 0.5 → «0,5»."""
    if digits is None:
        digits = _auto_digits(x)
    text = f"{x:,.{digits}f}"
    return text.replace(",", NBSP).replace(".", ",")


def bandwidth(tbs: float) -> str:
    """Memory bandwidth as its source states it: «3,35 ТБ/с», but «864 ГБ/с» and «1 792 ГБ/с»
    (0,86 and 1,79 ТБ/с would round away a figure the datasheet and the glossary give)."""
    if tbs >= 1 and math.isclose(tbs * 100, round(tbs * 100), abs_tol=1e-6):
        return f"{num(tbs)}{NBSP}ТБ/с"
    return f"{num(round(tbs * 1000))}{NBSP}ГБ/с"


def _auto_digits(x: float) -> int:
    ax = abs(x)
    if ax == 0 or math.isclose(ax, round(ax), abs_tol=1e-9):
        return 0
    if ax >= 100:
        return 0
    if ax >= 1:
        return 1 if math.isclose(ax * 10, round(ax * 10), abs_tol=1e-6) else 2
    if ax >= 0.01:
        return 1 if math.isclose(ax * 10, round(ax * 10), abs_tol=1e-6) else 2
    return 4


def gb_text(value_gb: float, gib: bool = False) -> str:
    """«140 ГБ», «34,4 ГБ», «1,07 ГБ», «35 ГБ»: values ≥ 100 are rounded to whole GB, values
    from 10 to one decimal (a person reads «34,36 ГБ» as noise; the table keeps the figure)."""
    if 10 <= abs(value_gb) < 100:
        tenths = round(value_gb, 1)
        return f"{num(tenths, 0 if tenths == round(tenths) else 1)}{NBSP}{unit(gib)}"
    return f"{num(value_gb)}{NBSP}{unit(gib)}"


def gpu_hours_text(n: float) -> str:
    """«80 GPU-часов», «1 GPU-час», «192 GPU-часа»."""
    return f"{num(n)}{NBSP}{plural(n, 'GPU-час', 'GPU-часа', 'GPU-часов')}"


def exact_gb_text(value_gb: float, gib: bool = False) -> str:
    """Weights as the catalogue's parameters give them: «140,6 ГБ» for Mixtral 8x22B in FP8,
    where gb_text rounds to «141 ГБ» — the H200's whole memory."""
    if value_gb >= 100 and not math.isclose(value_gb, round(value_gb), abs_tol=0.05):
        return f"{num(value_gb, 1)}{NBSP}{unit(gib)}"
    if value_gb >= 100:
        return gb_text(value_gb, gib)
    return f"{num(value_gb)}{NBSP}{unit(gib)}"


def usd(x: float, cents: bool = True) -> str:
    """«2 190 $», «3,00 $» (cents=True for small sums, whole dollars from 1 000)."""
    digits = 2 if cents and abs(x) < 1000 else 0
    return f"{num(x, digits)}{NBSP}$"


def plural(n: float, one: str, few: str, many: str) -> str:
    """Russian plural for whole n (1 час, 2 часа, 5 часов); fractions take `few`."""
    if not math.isclose(n, round(n)):
        return few
    k = round(abs(n))
    if k % 10 == 1 and k % 100 != 11:
        return one
    if 2 <= k % 10 <= 4 and not 12 <= k % 100 <= 14:
        return few
    return many


def sig(x: float) -> float:
    """Round to 10 significant digits: clean JSON without losing precision (1/730 stays exact)."""
    return float(f"{x:.10g}")


def rental_hours(duration: float, unit: str, hours_per_month: float) -> float:
    """A duration in hours: a month is `hours_per_month` (730 on average), a year 12 months."""
    per = {"hours": 1.0, "days": 24.0, "weeks": 168.0, "months": hours_per_month}
    per["years"] = 12 * hours_per_month
    return duration * per[unit]
