"""Normalised text → the years and calendar dates it names («в 2024 году», «12.03.2025», «в марте»).

A year is a four-digit number from 1900 to 2100 that reads as one: followed by «год», «г.»
or «-й», part of a date, or after a preposition of time («в 2024», «с 2023», «к 2030») with
no unit, price or multiplier after it («2048 токенов», «2000 $», «2024 GPU-часа» are
quantities). Nothing here changes what the calculators read (extract.py, amounts.py): a later
stage decides what a year means for a duration.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MONTHS = {
    "январ": 1,
    "феврал": 2,
    "март": 3,
    "апрел": 4,
    "ма": 5,  # «мая», «мае», «май»: checked as a whole word below
    "июн": 6,
    "июл": 7,
    "август": 8,
    "сентябр": 9,
    "октябр": 10,
    "ноябр": 11,
    "декабр": 12,
}
_MONTH_WORD = (
    r"(январ[ьяе]|феврал[ьяе]|марта?|марте|апрел[ьяе]|ма[йяе]|июн[ьяе]|июл[ьяе]|августа?|"
    r"августе|сентябр[ьяе]|октябр[ьяе]|ноябр[ьяе]|декабр[ьяе])"
)
_YEAR = r"(19\d\d|20\d\d|2100)"
# what makes a four-digit number a quantity rather than a year
_UNIT_AFTER = (
    r" ?(?:k\b|к\b|b\b|m\b|x\b|тыс|млн|млрд|трлн|\$|долл|usd|руб|₽|€|токен|tokens?|"
    r"гб|gb|тб|tb|мб|mb|час|ч\b|h\b|дн|сут|недел|месяц|мес\b|лет\b|карт|gpu|гпу|шт|"
    r"параметр|запрос|пользовател|слоев|голов|%)"
)
_TIME_PREPOSITION = r"(?:в|во|с|со|до|к|ко|от|по|после|перед|since|in|by|until|before|after)"

_NUMERIC_DATE = re.compile(rf"(?<![\d.])(\d{{1,2}})\.(\d{{1,2}})\.{_YEAR}(?![\d.])")
_ISO_DATE = re.compile(rf"(?<![\d-]){_YEAR}-(\d{{2}})-(\d{{2}})(?![\d-])")
_DAY_MONTH = re.compile(rf"(?<![\w.])(\d{{1,2}}) {_MONTH_WORD}(?![\w])(?: {_YEAR}(?![\w.]))?")
_MONTH_YEAR = re.compile(rf"(?<![\w]){_MONTH_WORD} {_YEAR}(?![\w.])")
_YEAR_WORD = re.compile(
    rf"(?<![\w.,$]){_YEAR}(?: ?-?(?:год\w*|гг\.?|го(?!\w)|му(?!\w)|й(?!\w)|м(?!\w)|г\.?(?!\w)))"
)
_YEAR_AFTER_PREPOSITION = re.compile(
    rf"(?<![\w]){_TIME_PREPOSITION} {_YEAR}(?![\w.,])(?!{_UNIT_AFTER})"
)
# «батч в 2048», «контекст до 2048»: a count of something, not a year
_COUNTED_BEFORE = re.compile(
    r"(?:контекст|окн|батч|batch|бач|запрос|пользовател|юзер|токен|context|сесси|поток|"
    r"слое|голов|параметр)\w*\s*$"
)


MONTH_WORD = _MONTH_WORD  # for parsing/periods.py: date ranges reuse the same words
YEAR = _YEAR


@dataclass(frozen=True)
class DateMention:
    """A year, a month of a year, or a day (year None when only day and month are written)."""

    text: str  # as found in the normalised message
    start: int
    year: int | None
    month: int | None = None
    day: int | None = None


def month_number(word: str) -> int:
    """«июня» → 6, «мая» → 5."""
    return _month(word)


def _month(word: str) -> int:
    if re.fullmatch(r"ма[йяе]", word):
        return 5
    return next(n for stem, n in MONTHS.items() if stem != "ма" and word.startswith(stem))


def _valid(day: int | None, month: int | None) -> bool:
    return (month is None or 1 <= month <= 12) and (day is None or 1 <= day <= 31)


def _full_dates(t: str) -> list[DateMention]:
    found = []
    for m in _NUMERIC_DATE.finditer(t):
        day, month, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
        found.append(DateMention(m.group(0), m.start(), year, month, day))
    for m in _ISO_DATE.finditer(t):
        year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
        found.append(DateMention(m.group(0), m.start(), year, month, day))
    for m in _DAY_MONTH.finditer(t):
        written = int(m.group(3)) if m.group(3) else None
        found.append(
            DateMention(m.group(0), m.start(), written, _month(m.group(2)), int(m.group(1)))
        )
    return [d for d in found if _valid(d.day, d.month)]


def _years(t: str, covered: bytearray) -> list[DateMention]:
    """`covered`: 1 at each character of a date already read (one byte per character, so that a
    year is checked against all of them at once, not span by span)."""
    found = []
    for pattern, group in ((_MONTH_YEAR, 2), (_YEAR_WORD, 1), (_YEAR_AFTER_PREPOSITION, 1)):
        for m in pattern.finditer(t):
            if covered[m.start(group)]:
                continue
            if pattern is _YEAR_AFTER_PREPOSITION and _counted_before(t, m.start()):
                continue
            month = _month(m.group(1)) if pattern is _MONTH_YEAR else None
            found.append(DateMention(m.group(0), m.start(), int(m.group(group)), month))
            covered[m.start() : m.end()] = b"\1" * (m.end() - m.start())
    return found


def _counted_before(t: str, end: int) -> bool:
    """_COUNTED_BEFORE in t[:end], searched from where its last word starts: a match can start
    nowhere else, and searching all of t[:end] for every year cost many years their square."""
    start = end
    while start and t[start - 1].isspace():
        start -= 1
    while start and (t[start - 1].isalnum() or t[start - 1] == "_"):  # what \w matches
        start -= 1
    return _COUNTED_BEFORE.search(t, start, end) is not None


def dates(normalised: str) -> tuple[DateMention, ...]:
    """Every date and year named, in order of appearance (each written number counted once)."""
    full = _full_dates(normalised)
    covered = bytearray(len(normalised))
    for d in full:
        covered[d.start : d.start + len(d.text)] = b"\1" * len(d.text)
    return tuple(sorted(full + _years(normalised, covered), key=lambda d: d.start))
