"""Normalised text → a rental period named by dates: «с 10 по 24 июня», «с 15.06 по 20.06»,
«с понедельника по пятницу» (inclusive days), or «на весь 2026 год» (one calendar year).

    period("с 10 по 24 июня нужны 8 h100")   → Period(days=15, span=(0, 16))
    period("с 10 по 9 июня")                → Period(problem="дата окончания … раньше начала …")
    period("что изменилось с 2020 по 2024") → None   (years of history, not a rental)

Conventions (docs/calculators.md): both the first and the last day are rented («с 10 по 24
июня» = 15 days), «до» reads like «по»; a range without a year is taken in the current year and
an end month before the start month is in the next year («с 20 декабря по 10 января» = 22 days).
A calendar year is a period only with «весь / целый» («на весь 2026 год» = 12 months): «за 2024
год», «бюджет на 2026 год» name *when*, not *how long*.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from assistant.understanding.dates import MONTH_WORD as _MONTH_WORD
from assistant.understanding.dates import YEAR as _YEAR
from assistant.understanding.dates import DateMention, dates
from assistant.understanding.dates import month_number as _month

_WEEKDAYS = (
    ("понедельник", 0),
    ("вторник", 1),
    ("сред", 2),
    ("четверг", 3),
    ("пятниц", 4),
    ("суббот", 5),
    ("воскресень", 6),
)
_WEEKDAY = r"(понедельник\w*|вторник\w*|сред[уы]|четверг\w*|пятниц\w*|суббот\w*|воскресень\w*)"
_TO = r"(?:по|до|-)"
_FROM = r"(?:[сc]о?|начиная с)"  # a Latin «c» typed for «с» too
_ORD = r"(?:-?(?:го|е|ое|ого|й))?"  # «с 10-го по 24-е июня»
_DAY_RANGE = re.compile(
    rf"(?<![\w.]){_FROM} (\d{{1,2}}){_ORD}(?: {_MONTH_WORD})?(?: {_YEAR})?(?: г\.?| года)? "
    rf"{_TO} (\d{{1,2}}){_ORD} {_MONTH_WORD}(?: {_YEAR}(?: г\.?| года| году)?)?(?![\w.])"
)
# «10–24 июня» (normalised to «10-24 июня»): a range without «с … по»
_DASH_RANGE = re.compile(
    rf"(?<![\w.,-])(\d{{1,2}}) ?- ?(\d{{1,2}}) {_MONTH_WORD}(?: {_YEAR}(?: г\.?| года)?)?(?![\w.])"
)
_NUMERIC_RANGE = re.compile(
    rf"(?<![\w.]){_FROM} (\d{{1,2}})\.(\d{{1,2}})(?:\.(\d{{2}}|\d{{4}}))? "
    rf"{_TO} (\d{{1,2}})\.(\d{{1,2}})(?:\.(\d{{2}}|\d{{4}}))?(?![\w.])"
)
_WEEKDAY_RANGE = re.compile(rf"(?<![\w]){_FROM} {_WEEKDAY} {_TO} {_WEEKDAY}(?![\w])")
_WHOLE_YEAR = re.compile(
    rf"(?<![\w])(?:на |в течение )?(?:весь|целый|всего|целого) {_YEAR} ?(?:год\w*|г\.?)?(?![\w])"
)


@dataclass(frozen=True)
class Period:
    """Inclusive days of a date range (or a whole year), where it was written, or why not."""

    days: int = 0
    months: int = 0  # a whole calendar year: 12
    span: tuple[int, int] = (0, 0)
    problem: str = ""  # Russian: the range cannot be a rental (backwards, no such date)


def _year(raw: str | None, default: int) -> int:
    if not raw:
        return default
    return int(raw) + 2000 if len(raw) == 2 else int(raw)


def _make(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _between(
    start: tuple[int | None, int, int], end: tuple[int | None, int, int], span: tuple[int, int]
) -> Period:
    """Days from start to end inclusive; a year left out is this year (the end: the next one
    when its month comes before the start's)."""
    this = date.today().year
    (sy, sm, sd), (ey, em, ed) = start, end
    first_year = sy if sy is not None else (ey if ey is not None else this)
    last_year = ey if ey is not None else first_year + (1 if (em, ed) < (sm, sd) else 0)
    if sy is None and ey is not None and (em, ed) < (sm, sd):
        first_year = ey - 1
    first, last = _make(first_year, sm, sd), _make(last_year, em, ed)
    if first is None or last is None:
        return Period(span=span, problem="такой даты в календаре нет — проверьте числа")
    if last < first:
        return Period(
            span=span, problem="дата окончания аренды раньше даты начала — проверьте диапазон"
        )
    return Period(days=(last - first).days + 1, span=span)


def _day_range(m: re.Match[str]) -> Period:
    sd, smw, sy, ed, emw, ey = m.groups()
    em = _month(emw)
    sm = _month(smw) if smw else em
    start_year = int(sy) if sy else None
    end_year = int(ey) if ey else None
    if smw is None and end_year is None:  # «с 10 по 24 июня»: one month of one year
        start_year = end_year = date.today().year
    return _between((start_year, sm, int(sd)), (end_year, em, int(ed)), m.span())


def _dash_range(m: re.Match[str]) -> Period:
    sd, ed, mw, y = m.groups()
    year = int(y) if y else date.today().year
    month = _month(mw)
    return _between((year, month, int(sd)), (year, month, int(ed)), m.span())


def _numeric_range(m: re.Match[str]) -> Period:
    sd, sm, sy, ed, em, ey = m.groups()
    start_year = _year(sy, 0) or None
    end_year = _year(ey, 0) or None
    if not (1 <= int(sm) <= 12 and 1 <= int(em) <= 12):
        return Period(span=m.span(), problem="такой даты в календаре нет — проверьте числа")
    return _between((start_year, int(sm), int(sd)), (end_year, int(em), int(ed)), m.span())


def _weekday(word: str) -> int:
    return next(n for stem, n in _WEEKDAYS if word.startswith(stem))


def period(t: str) -> Period | None:
    """The first rental period named by dates in normalised text `t`, or None."""
    for pattern, read in (
        (_DAY_RANGE, _day_range),
        (_NUMERIC_RANGE, _numeric_range),
        (_DASH_RANGE, _dash_range),
    ):
        m = pattern.search(t)
        if m:
            return read(m)
    m = _WEEKDAY_RANGE.search(t)
    if m:
        days = (_weekday(m.group(2)) - _weekday(m.group(1))) % 7 + 1
        return Period(days=days, span=m.span())
    m = _WHOLE_YEAR.search(t)
    if m:
        return Period(months=12, span=m.span())
    return None


DATE_MARK = "§d§"  # a date or year already read: its digits are not a quantity


def masked(t: str, found: tuple[DateMention, ...] | None = None) -> tuple[str, Period | None]:
    """The text with the rental period and every date / year replaced by DATE_MARK (so that «в
    2023 году» is never 2 023 years and «01.01.2025» never 1,01), and the period itself."""
    p = period(t)
    spans = [p.span] if p is not None else []
    covered = bytearray(len(t))  # 1 under every span kept: an overlap is found at once
    for start, end in spans:
        covered[start:end] = b"\1" * (end - start)
    for d in found if found is not None else dates(t):
        start, end = d.start, d.start + len(d.text)
        if 1 not in covered[start:end]:
            spans.append((start, end))
            covered[start:end] = b"\1" * (end - start)
    pieces, at = [], 0  # spans never overlap: the text between them, a mark for each
    for start, end in sorted(spans):
        pieces += [t[at:start], f" {DATE_MARK} "]
        at = end
    return "".join([*pieces, t[at:]]), p
