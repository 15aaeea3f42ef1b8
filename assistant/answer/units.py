"""Text after (or before) a number → its unit; a tool-result key → the unit of its value.

    unit_after("141 ГБ HBM3e", 3, set())        # ("GB", 6)
    unit_after("3,00 $ за GPU-час", 4, set())    # ("USD per GPU-hour", 17)
    rate_before("цена за месяц составляет ", 0, 25)   # "month": «за месяц … 3,00 $»
    key_unit("price_per_gpu_hour")               # "USD per hour"

Units are canonical names ("GB", "TB/s", "GPU-hour" …); a rate is written "<unit> per <unit>".
"""

from __future__ import annotations

import re

UNKNOWN = "?"  # a JSON value whose key names no unit: it may be stated with any
# a unit and the one a thousand of it makes: «864 ГБ/с» is «0,864 ТБ/с», «1 400 Вт» «1,4 кВт»
_THOUSAND = {"GB/s": "TB/s", "W": "kW", "TFLOPS": "PFLOPS", "GB": "TB"}
CURRENCIES = ("USD", "RUB")

_UNITS: tuple[tuple[str, str], ...] = (
    ("GPU-hour", r"gpu[\s-]?час\w*|gpu[\s-]?ч\b|гпу[\s-]?час\w*|gpu[\s-]?hours?"),
    ("tokens/s", r"токен\w*\s*(?:/\s*с\b|в\s+секунду)|tokens?\s*/\s*s\b"),
    ("TB/s", r"тб\s*/\s*с\b|tb\s*/\s*s\b|тбайт\s*/\s*с\b"),
    ("GB/s", r"гб\s*/\s*с\b|gb\s*/\s*s\b|гбайт\s*/\s*с\b"),
    ("Gbit/s", r"гбит\s*/\s*с\b|gbit\s*/\s*s\b|gbps\b"),
    ("TB", r"тб\b|tb\b|терабайт\w*"),
    ("GB", r"гб\b|gb\b|гигабайт\w*|гбайт\b"),
    ("GiB", r"гиб\b|gib\b"),
    ("MB", r"мб\b|mb\b|мегабайт\w*"),
    ("USD", r"\$|долл\w*|usd\b"),
    ("RUB", r"₽|руб\w*"),
    ("%", r"%|процент\w*"),
    ("W", r"вт\b|w\b|ватт\w*"),
    ("kW", r"квт\b|kw\b"),
    ("TFLOPS", r"tflops\b|тфлопс\w*|терафлопс\w*"),
    ("PFLOPS", r"pflops\b|пфлопс\w*|петафлопс\w*"),
    ("TOPS", r"tops\b|топс\w*"),
    ("tokens", r"токен\w*|tokens?\b"),
    ("billion", r"млрд\b|миллиард\w*|billion\b"),
    ("million", r"млн\b|миллион\w*|million\b"),
    ("thousand", r"тыс\.?|тысяч\w*"),
    ("byte", r"байт\w*|bytes?\b"),
    ("bit", r"бит\w*|bits?\b"),
    ("layer", r"сло[её]в\b|сло[йяюе]\w*"),
    ("head", r"kv-голов\w*|голов\w*"),
    ("GPU", r"gpu\b|гпу\b|видеокарт\w*|карт[аыуе]?\b|ускорител\w*"),
    ("server", r"сервер\w*|узл\w*|узел\b|нод\w*"),
    ("request", r"запрос\w*"),
    ("param", r"параметр\w*"),
    ("core", r"ядер\b|ядра\b|ядро\b|cores?\b"),
    ("times", r"раза?\b|раз\b"),
    ("hour", r"ч\b|час\w*|hours?\b"),
    ("day", r"дн\w*|день\b|сут\w*|days?\b"),
    ("week", r"недел\w*|weeks?\b"),
    ("month", r"месяц\w*|мес\b|months?\b"),
    ("year", r"год\w*|лет\b|years?\b"),
    ("second", r"секунд\w*|сек\b|с\b|s\b"),
    ("ms", r"мс\b|ms\b"),
    ("nm", r"нм\b|nm\b"),
    ("GHz", r"ггц\b|ghz\b"),
)
_UNIT_RE = [(name, re.compile(rf"\s*(?:{rx})", re.IGNORECASE)) for name, rx in _UNITS]
_MULTIPLIERS = ("billion", "million", "thousand")
_RATE = re.compile(r"\s*(?:за|в|на|/|per|a)\s*(?:один\s+|одну\s+|1\s+)?", re.IGNORECASE)
_RATE_UNITS = ("hour", "GPU-hour", "day", "week", "month", "year", "second", "GPU", "param")
_TIMES_SIGN = re.compile(r"\s*[×x*]\s*", re.IGNORECASE)
_SPACES = re.compile(r"\s*")


def unit_at(text: str, pos: int) -> tuple[str | None, int]:
    for name, rx in _UNIT_RE:
        m = rx.match(text, pos)
        if m:
            return name, m.end()
    return None, pos


def unit_after(text: str, pos: int, gpu_at: set[int]) -> tuple[str | None, int]:
    """The unit stated right after a number, and where it ends: «141 ГБ», «3,00 $ за
    GPU-час», «8 × H100» (a count of that GPU)."""
    sign = _TIMES_SIGN.match(text, pos)
    spaces = _SPACES.match(text, pos)
    after = spaces.end() if spaces else pos
    if after in gpu_at or (sign and sign.end() in gpu_at):
        return "GPU", after
    unit, end = unit_at(text, pos)
    if unit in _MULTIPLIERS:  # «70,6 млрд параметров»
        rest, end2 = unit_at(text, end)
        if rest is not None and rest not in _MULTIPLIERS:
            unit, end = f"{unit} {rest}", end2
    if unit is None:
        return None, pos
    rate = _RATE.match(text, end)
    if rate:
        per, per_end = unit_at(text, rate.end())
        if per in _RATE_UNITS:
            return f"{unit} per {per}", per_end
    return unit, end


_PERIOD_BEFORE = re.compile(r"(?:^|\s)(?:за|в|per)\s+(?:один\s+|одну\s+|1\s+)?", re.IGNORECASE)
_PERIODS = ("hour", "GPU-hour", "day", "week", "month", "year")


def rate_before(text: str, start: int, end: int) -> str | None:
    """A period named before a price in its clause: «цена за месяц составляет 3,00 $»."""
    found = None
    for m in _PERIOD_BEFORE.finditer(text, start, end):
        per, _ = unit_at(text, m.end())
        if per in _PERIODS:
            found = per
    return found


_KEY_UNITS = (
    ("price_per_gpu_hour", "USD per hour"),
    ("price_hour", "USD per hour"),
    ("price_per_gpu_month", "USD per month"),
    ("price_month", "USD per month"),
    ("_cost", "USD"),
    ("_fee", "USD"),
    ("gpu_hours", "GPU-hour"),
    ("hours_per_month", "hour per month"),
    ("hours", "hour"),
    ("egress_tb_included", "TB per month"),
    ("_tbs", "TB/s"),
    ("per_gpu_low_gb", "GB per GPU"),
    ("per_gpu_high_gb", "GB per GPU"),
    ("per_gpu_gb", "GB per GPU"),
    ("_gb", "GB"),
    ("gpus_needed", "GPU"),
    ("gpus", "GPU"),
    ("servers_needed", "server"),
    ("params_b", "billion param"),
    ("active_b", "billion param"),
    ("_tokens", "tokens"),
    ("bytes_per_param", "byte per param"),
    ("_pct", "%"),
    ("layers", "layer"),
    ("kv_heads", "head"),
    ("batch", "request"),
    ("_tflops", "TFLOPS"),
    ("_w", "W"),
)
_DURATIONS = {"hours": "hour", "days": "day", "weeks": "week", "months": "month", "years": "year"}


def key_unit(key: str, duration_unit: str = "") -> str | None:
    if key == "duration":
        return _DURATIONS.get(duration_unit)
    return next((unit for suffix, unit in _KEY_UNITS if key.endswith(suffix)), None)


def in_unit(value: float, unit: str | None, wanted: str | None) -> float | None:
    """`value` in `unit` said in `wanted`, when one is a thousand of the other; else None."""
    if unit is None or wanted is None:
        return None
    if _THOUSAND.get(unit) == wanted:
        return value / 1000
    if _THOUSAND.get(wanted) == unit:
        return value * 1000
    return None
