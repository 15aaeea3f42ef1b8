"""Normalised text → money, durations, context lengths and batch sizes, with reading notes.

Each reader adds what it finds to a `Found` (params + the notes that explain a reading, e.g.
«32k понимаем как 32 768 токенов»); extract.py runs them and freezes the result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

NUM = r"(\d+(?:\.\d+)?)"
GPU_MARK = "§g§"  # a matched GPU name, so that its digits are not read as a quantity
MONEY_MARK = "§m§"  # a matched price, likewise


@dataclass
class Found:
    """What the readers found so far in one message (mutable while reading)."""

    params: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def clean(v: float) -> float | int:
    r = round(v, 6)
    return int(r) if r == int(r) else r


_MONTH = r"(?:в|за|/|per|a) ?(?:мес\w*|month\w*|mo)\b|ежемесячн\w*|monthly"
_HOUR = (
    r"(?:в|за|/|per|an?) ?(?:1 )?(?:gpu[ -]?)?(?:гпу[ -]?)?(?:час\w*|ч\b|h\b|hr\w*|hour\w*)"
    r"|почасов\w*|hourly"
)
_DOLLAR = r"(?:\$|долл\w*|usd|бакс\w*|dollars?)"


def money(t: str, out: Found) -> str:
    m = re.search(rf"(?:\$ ?{NUM}|{NUM} ?{_DOLLAR})", t)
    if not m:
        return t
    value = float(m.group(1) or m.group(2))
    after = t[m.end() : m.end() + 16]
    before = t[max(0, m.start() - 14) : m.start()]
    if re.match(rf"\s*(?:{_HOUR})", after) or re.search(rf"(?:{_HOUR})\s*$", before):
        key, tail = "price_hour", re.match(rf"\s*(?:{_HOUR})", after)
    elif re.match(rf"\s*(?:{_MONTH})", after) or re.search(rf"(?:{_MONTH})\s*$", before):
        key, tail = "price_month", re.match(rf"\s*(?:{_MONTH})", after)
    else:
        key, tail = ("price_month" if value >= 100 else "price_hour"), None
        period = "в месяц" if key == "price_month" else "в час"
        out.notes.append(f"период цены не указан — считаем, что это цена {period}")
    out.params[key] = clean(value)
    if _total_price(t) and not re.search(r"(?<![\w])по $", before):  # «по 2 190 $» — each
        out.params["price_scope"] = "total"
    end = m.end() + (tail.end() if tail else 0)
    return t[: m.start()] + MONEY_MARK + t[end:]


_PER_GPU = re.compile(
    r"за (?:1 |каждую |каждый )?(?:карт[уы]|gpu|гпу|видеокарт[уы]|ускорител[ья]|штуку)"
    r"(?![\w]|[ -]?час)|per gpu|за каждую|за каждый"
)
_TOTAL = re.compile(
    r"за (?:весь |целый )?сервер|за все|в сумме|за (?:\d+ )?(?:карт|gpu|гпу)\w* вместе|"
    r"за (?:[2-9]|\d{2,}) (?:x ?)?(?:карт|gpu|гпу|видеокарт|ускорител|§g§)|"
    r"сервер\w*|восьми(?:гпу|карточн|gpu)\w*|\d+[ -]?карточн\w*"
)


def _total_price(t: str) -> bool:
    """A price stated for a server («сервер на 8 H100 стоит …», «за 8 карт») covers all its GPUs,
    unless it is explicitly per card («… за карту», «per GPU»)."""
    return bool(_TOTAL.search(t)) and not _PER_GPU.search(t)


_DURATIONS = [
    ("hours", r"час\w*|ч\b|h\b|hours?"),
    ("days", r"сут\w*|дн\w*|день|days?"),
    ("weeks", r"недел\w*|weeks?"),
    ("months", r"месяц\w*|мес\b|months?"),
    ("years", r"год\w*|лет\b|years?"),
]
_BARE = [
    ("hours", r"(?:за|на|в течение) час\b"),
    ("days", r"сутки|(?:за|на|в течение) (?:день|сутки)"),
    ("weeks", r"(?:за|на|в течение|всю|целую) недел[юя]"),
    ("months", r"(?:за|на|в течение|весь|целый) месяц\b"),
    ("years", r"(?:за|на|в течение|весь|целый) год\b"),
]


def duration(t: str, out: Found) -> None:
    if re.search(r"полгода|пол года", t):
        out.params.update(duration=6, duration_unit="months")
        return
    m = re.search(rf"(?<![\w.]){NUM} ?(?:gpu|гпу)[ -]?час\w*", t)
    if m and not _rate_of_one(t, m):  # «100 GPU-часов» = 100 hours of one GPU
        out.params.update(duration=clean(float(m.group(1))), duration_unit="hours")
        return
    for unit, words in _DURATIONS:
        m = re.search(rf"(?<![\w.]){NUM} ?(?:{words})(?![\w])", t)
        if m and not _is_per(t, m.start()):
            out.params.update(duration=clean(float(m.group(1))), duration_unit=unit)
            return
    priced = "price_month" in out.params or "price_hour" in out.params
    for unit, pattern in _BARE:
        if unit == "hours" and priced:  # «2 190 $ в месяц — сколько за час?» asks for a rate
            continue
        if re.search(rf"(?<![\w]){pattern}", t):
            out.params.update(duration=1, duration_unit=unit)
            return


def _rate_of_one(t: str, m: re.Match[str]) -> bool:
    """«сколько стоит один GPU-час», «цена 1 GPU-часа» ask for the rate, not for a 1-hour job."""
    before = t[max(0, m.start() - 30) : m.start()]
    return float(m.group(1)) == 1 and bool(
        re.search(r"стои\w*|стоимост\w*|цен\w*|почем|сколько|выход\w*|обход\w*", before)
    )


def _is_per(t: str, start: int) -> bool:
    return bool(re.search(r"(?:токен\w*|запрос\w*) (?:в|за|/) ?$", t[max(0, start - 16) : start]))


# ---------------------------------------------------------------- context and batch

_POW2 = {2**k for k in range(1, 14)}


def _tokens(value: float, suffix: str, out: Found) -> int:
    if suffix in ("k", "к") and value in _POW2:
        n = int(value) * 1024
        word = "токена" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "токенов"
        out.notes.append(f"{int(value)}k понимаем как {n:,} {word}".replace(",", " "))
        return n
    if suffix.startswith(("k", "к", "тыс")):
        return round(value * 1000)
    if suffix.startswith(("m", "млн", "миллион")):
        return round(value * 1_000_000)
    return round(value)


_SUFFIX = r"(k\b|тыс\w*\.?|тысяч\w*|m\b|млн\.?|миллион\w*)?"


def context(t: str, out: Found) -> None:
    patterns = [
        rf"(?:контекст\w*|context|окн\w*|длин\w* контекст\w*)(?: \w+){{0,2}}? ?"
        rf"(?:в|на|до|of|=|:)? ?{NUM} ?{_SUFFIX}",
        rf"{NUM} ?{_SUFFIX} ?(?:токен\w*|tokens?|ткн)(?!\w)(?! ?(?:в|/|per) ?(?:секунд|сек|s\b))",
        rf"{NUM} ?(k)\b ?(?:контекст\w*|context)",
    ]
    for p in patterns:
        m = re.search(p, t)
        if m:
            suffix = (m.group(2) or "").strip(".")
            out.params["context_tokens"] = _tokens(float(m.group(1)), suffix, out)
            return


def bare_context(t: str, out: Found) -> None:
    """«а для 32k?» — a bare «32k» / «128 тыс.» (no «контекст», «токенов») as a context length.

    Only a follow-up to a memory question reads it so (solve.py); sets params["context_tokens"].
    """
    m = re.search(
        rf"(?<![\w.$]){NUM} ?(k|тыс\w*\.?|тысяч\w*)(?![\w])(?! ?(?:{_DOLLAR}|руб\w*|₽|€))", t
    )
    if m:
        out.params["context_tokens"] = _tokens(float(m.group(1)), m.group(2).strip("."), out)


_WHO = (
    r"(?:пользовател\w*|юзер\w*|users?|запрос\w*|сесси\w*|клиент\w*|"
    r"последовательност\w*|поток\w*|чат\w*|диалог\w*|requests?)"
)


def batch(t: str, out: Found) -> None:
    m = re.search(r"(?:батч\w*|batch(?: size)?|бач\w*)(?: размер\w*)? ?(?:в|=|:|из|на)? ?(\d+)", t)
    m = m or re.search(
        rf"(\d+) (?:одновременн\w* |параллельн\w* )?{_WHO}(?!\w)"
        r"(?! ?(?:в|/) ?(?:секунд|сек|s\b|минут|час))",
        t,
    )
    if m:
        out.params["batch"] = int(m.group(1))
