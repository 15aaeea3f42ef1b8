"""Normalised text → money, durations, context lengths and batch sizes, with reading notes.

Each reader adds what it finds to a `Found` (params + the notes that explain a reading, e.g.
«32k понимаем как 32 768 токенов»); extract.py runs them and freezes the result.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from assistant.understanding.lexicon import CARD, DURATION, HOUR_WORD, OPENER, PRICE

# A number starts where its digits start (`(?<!\d)`): the same matches as without it, since the
# leftmost one always begins there, but a search no longer tries every digit of a long run as a
# start and reads the rest of the run from each (2 000 digits took ~0,5 s, growing as its square).
NUM = r"(?<!\d)(\d+(?:\.\d+)?)"
GPU_MARK = "§g§"  # a matched GPU name, so that its digits are not read as a quantity
MONEY_MARK = "§m§"  # a matched price, likewise


@dataclass
class Found:
    """What the readers found so far in one message (mutable while reading)."""

    params: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # Russian: why a value cannot be used


def clean(v: float) -> float | int:
    """6 decimals, whole numbers as int; an overflowing «1e400» stays a float (inf), which the
    calculators' limits turn into a friendly answer instead of an OverflowError."""
    if not math.isfinite(v):
        return v
    r = round(v, 6)
    return int(r) if r == int(r) else r


def signed(t: str, at: int, value: float | int) -> float | int:
    """«-13B», «-8 H100»: a minus written right before the number at `at` makes it negative (a
    hyphen inside a word such as «Qwen3-32B» does not)."""
    minus = at > 0 and t[at - 1] in "-−"
    return -value if minus and (at == 1 or not t[at - 2].isalnum()) else value


def count(text: str) -> int:
    """A count written in digits; absurdly long ones are capped (the limits reject them) —
    int() of thousands of digits is slow and Python refuses past 4 300."""
    return int(text) if len(text) <= 18 else 10**18


# «час», «часа», «часов», «часик»…, but not «часть», «частей», «частично»
_MONTH = r"(?:в|за|/|per|a) ?(?:мес\w*|month\w*|mo)\b|ежемесячн\w*|monthly"
_HOUR = (
    rf"(?:в|за|/|per|an?) ?(?:1 )?(?:gpu[ -]?)?(?:гпу[ -]?)?(?:{HOUR_WORD}|ч\b|h\b|hr\w*|hour\w*)"
    r"|почасов\w*|hourly"
)
_DOLLAR = r"(?:\$|долл\w*|usd|бакс\w*|dollars?)"


# «за 2190 в месяц», «по 1.8 в час»: a price with its period and no currency sign
_UNMARKED = re.compile(
    rf"(?<![\w])(?:за|по|цена|ценой|стоит|стоимостью|тариф) {NUM}(?= ?(?:{_HOUR}|{_MONTH}))"
)


def money(t: str, out: Found) -> str:
    t = _price(t, out)
    if MONEY_MARK in t and ("price_month" in out.params) != ("price_hour" in out.params):
        # «2190$/мес, а у другого 3.20$ за час»: a second price by the other period is the
        # other option of a choice between renting by the month and by the hour
        first = "price_month" if "price_month" in out.params else "price_hour"
        other = Found()
        rest = _price(t, other)
        key = "price_hour" if first == "price_month" else "price_month"
        # only with its period said: «а счёт 17520$» is a total, not a price by the month
        if key in other.params and first not in other.params and not other.notes:
            out.params[key] = other.params[key]
            return rest
    return t


def _price(t: str, out: Found) -> str:
    m = re.search(rf"(?:\$ ?{NUM}|{NUM} ?{_DOLLAR})", t)
    if not m:
        return _unmarked_money(t, out)
    group = 1 if m.group(1) else 2
    value = signed(t, m.start(group), float(m.group(group)))
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


def _unmarked_money(t: str, out: Found) -> str:
    """«H100 на 5 дней за 2190 в месяц»: the period after the number makes it a price."""
    m = _UNMARKED.search(t)
    if m is None:
        return t
    value = float(m.group(1))
    tail = re.match(rf"\s*(?:{_HOUR})", t[m.end() :])
    key = "price_hour" if tail else "price_month"
    tail = tail or re.match(rf"\s*(?:{_MONTH})", t[m.end() :])
    out.params[key] = clean(value)
    if _total_price(t) and not m.group(0).startswith("по "):  # «по 1000 в месяц» — each
        out.params["price_scope"] = "total"
    end = m.end() + (tail.end() if tail else 0)
    return t[: m.start(1)] + MONEY_MARK + t[end:]


_PER_GPU = re.compile(
    rf"за (?:1 |каждую |каждый )?(?:{CARD}[уыья]?|штуку)"
    r"(?![\w]|[ -]?час)|per gpu|за каждую|за каждый"
)
_TOTAL = re.compile(
    rf"за (?:весь |целый )?сервер|за все|в сумме|за (?:\d+ )?{CARD}\w* вместе|"
    rf"за (?:[2-9]|\d{{2,}}) (?:x ?)?(?:{CARD}|§g§)|"
    r"сервер\w*|восьми(?:гпу|карточн|gpu)\w*|(?<!\d)\d+[ -]?карточн\w*"
)


def _total_price(t: str) -> bool:
    """A price stated for a server («сервер на 8 H100 стоит …», «за 8 карт») covers all its GPUs,
    unless it is explicitly per card («… за карту», «per GPU»)."""
    return bool(_TOTAL.search(t)) and not _PER_GPU.search(t)


_DURATIONS = list(DURATION.items())
# A unit without a number is one of it: «на неделю», «в течение недели», «месяц аренды»
_ONE = r"(?:за|на|в течение|всю|весь|целую|целый|целые|одну|один|одни)"
_RENT = r"(?: (?:аренды|работы|обучения|инференса))"
# «сколько стоит неделя», «во сколько обойдётся месяц»: the unit is what is priced
_PRICED = rf"(?:{PRICE}\w*|выйд[её]т) (?:мне |нам )?"
# «а месяц?», «ну а неделю?»: a follow-up that opens with the unit
_ASKED = rf"{OPENER} "
# «for a month», «what about a week?» («a month» after a price is its period, read before)
_EN_ONE = r"(?<![\w])(?:for |about )?(?:a|one) "
_BARE = [
    ("hours", r"(?:за|на|в течение) час\b"),
    (
        "days",
        rf"сутки|{_ONE} (?:день|дня|сутки|суток)\b|(?:день|сутки){_RENT}|{_PRICED}день\b|"
        rf"{_EN_ONE}day\b",
    ),
    (
        "weeks",
        rf"{_ONE} недел(?:[юяи]|ьку)\b|недел[яю]{_RENT}|{_PRICED}недел[яю]\b|^{_ASKED}недел[юя]\b|"
        rf"{_EN_ONE}week\b",
    ),
    (
        "months",
        rf"{_ONE} месяца?\b|месяц{_RENT}|^(?:{_ASKED})?месяц\b|{_PRICED}месяц\b|{_EN_ONE}month\b",
    ),
    ("years", rf"{_ONE} года?\b|год{_RENT}"),
]
# Halves written as one word: «полгода» = 6 months, «полмесяца» = 0,5 month, «полдня» = 12 hours
_HALVES = (
    (r"(?:на|за|в течение|весь|целый) квартал\w*", 3, "months"),
    (r"(?:на|за) выходные", 2, "days"),
    (r"пол ?года", 6, "months"),
    (r"пол ?месяца", 0.5, "months"),
    (r"пол ?недели", 0.5, "weeks"),
    (r"пол ?дня|пол ?суток", 12, "hours"),
)


# «часов на 10», «дня на 3», «недели на 2»: an approximate duration, the unit first (its
# genitive forms only, and not after a number: «8 часов 10 минут» is no such thing)
_APPROX = {"hours": "часов|часа", "days": "дней|дня|суток", "weeks": "недель|недели"}
_ABOUT = re.compile(
    r"(?<![\d.,] )(?<![\w])(?:"
    + "|".join(f"(?P<{unit}>{words})" for unit, words in _APPROX.items())
    + r") (?:на |за |по )?(?P<n>\d+(?:\.\d+)?)(?![\w.,%$]| ?(?:gpu|гпу|карт|гб|\$))"
)
# «часов 10 в сутки», «по 8 ч в день»: how long the cards are used a day, not a duration
# «8 часов × 22 дня»: hours a day times the days, the days left for the duration
_PER_DAY = re.compile(
    rf"(?<![\w.])(?:{NUM} ?(?:{HOUR_WORD}|ч\b)|час\w* {NUM})"
    r"(?: (?:в|за|/) ?(?:сутки|день|day)\b| ?[×x*] ?(?=\d+ ?(?:дн|раб\w* дн|суток|days?)))"
)


def duration(t: str, out: Found) -> None:
    """«на 10 дней», «две недели» (already digits), «на неделю», «полгода», «100 GPU-часов»;
    «10 часов в сутки» is the hours a day the cards run (hours_per_day)."""
    if "duration" in out.params:  # a date range was read first (periods.py)
        return
    per_day = _PER_DAY.search(t)
    if per_day:
        hours = float(per_day.group(1) or per_day.group(2))
        if 0 < hours <= 24:
            out.params["hours_per_day"] = clean(hours)
            t = t[: per_day.start()] + " " + t[per_day.end() :]
    for pattern, value, unit in _HALVES:
        if re.search(rf"(?<![\w]){pattern}(?![\w])", t):
            out.params.update(duration=value, duration_unit=unit)
            return
    m = re.search(rf"(?<![\w.]){NUM} ?(?:gpu|гпу)[ -]?{HOUR_WORD}", t)
    if m and not _rate_of_one(t, m):  # «100 GPU-часов» = 100 hours of one GPU
        out.params.update(
            duration=signed(t, m.start(1), clean(float(m.group(1)))), duration_unit="hours"
        )
        return
    m = re.search(rf"(?<![\w.]){NUM} ?квартал\w*", t)
    if m:  # a quarter is three months
        months = signed(t, m.start(1), clean(float(m.group(1)) * 3))
        out.params.update(duration=months, duration_unit="months")
        return
    if _compound(t, out):
        return
    for unit, words in _DURATIONS:
        m = re.search(rf"(?<![\w.]){NUM} ?(?:{words})(?![\w])", t)
        if m and not _is_per(t, m.start()):
            value = signed(t, m.start(1), clean(float(m.group(1))))
            out.params.update(duration=value, duration_unit=unit)
            return
    m = _ABOUT.search(t)
    if m:  # «часов на 10», «дня на 3»: the unit before the number says «about»
        unit = next(u for u in _APPROX if m.group(u))
        out.params.update(duration=clean(float(m.group("n"))), duration_unit=unit)
        return
    priced = "price_month" in out.params or "price_hour" in out.params
    for unit, pattern in _BARE:
        if unit == "hours" and priced:  # «2 190 $ в месяц — сколько за час?» asks for a rate
            continue
        if re.search(rf"(?<![\w]){pattern}", t):
            out.params.update(duration=1, duration_unit=unit)
            return


_UNIT_HOURS = {"hours": 1, "days": 24, "weeks": 168}
_PART = (
    rf"{NUM} ?(?:(?P<weeks>{DURATION['weeks']})|(?P<days>{DURATION['days']})|"
    rf"(?P<hours>{DURATION['hours']}))"
)
_ANY = rf"{NUM} ?(?:{DURATION['weeks']}|{DURATION['days']}|{DURATION['hours']})"
_COMPOUND = re.compile(rf"(?<![\w.]){_ANY}(?:(?:,| и| плюс| \+) {_ANY})+(?![\w])")
_ONE_UNIT = re.compile(r"(?<![\w])(на|в течение) (недел[юя]|сутки|день)(?= (?:и|плюс|\+) \d)")


def _compound(t: str, out: Found) -> bool:
    """«2 недели и 3 дня», «на неделю и два дня», «1 день и 12 часов» → the sum, in days when
    whole days, else hours."""
    m = _COMPOUND.search(_ONE_UNIT.sub(r"\1 1 \2", t))
    if m is None:
        return False
    parts = re.finditer(_PART, m.group(0))
    hours = sum(
        float(p.group(1)) * _UNIT_HOURS[next(u for u in _UNIT_HOURS if p.group(u))] for p in parts
    )
    if hours % 24 == 0:
        out.params.update(duration=clean(hours / 24), duration_unit="days")
    else:
        out.params.update(duration=clean(hours), duration_unit="hours")
    return True


def _rate_of_one(t: str, m: re.Match[str]) -> bool:
    """«сколько стоит один GPU-час», «цена 1 GPU-часа» ask for the rate, not for a 1-hour job."""
    before = t[max(0, m.start() - 30) : m.start()]
    return float(m.group(1)) == 1 and bool(re.search(rf"{PRICE}\w*|почем|сколько|выход\w*", before))


def _is_per(t: str, start: int) -> bool:
    return bool(re.search(r"(?:токен\w*|запрос\w*) (?:в|за|/) ?$", t[max(0, start - 16) : start]))


# ---------------------------------------------------------------- context and batch

_POW2 = {2**k for k in range(1, 14)}


def _tokens(value: float, suffix: str, out: Found) -> int:
    if not value < 1e15:  # «контекст 1e400»: the limits answer, not an OverflowError
        return 10**18
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
        rf"(?<![\w.]){NUM} ?(k)\b ?(?:контекст\w*|context)",  # «32k контекста» first
        rf"(?:контекст\w*|context|ctx|seq(?:uence)?(?:[ _]len\w*)?|окн\w*|длин\w* контекст\w*)"
        rf"(?: \w+\b){{0,2}}? ?"
        rf"(?:в|на|до|of|=|:)? ?(?<![\w.]){NUM} ?{_SUFFIX}",
        rf"{NUM} ?{_SUFFIX} ?(?:токен\w*|tokens?|ткн)(?!\w)(?! ?(?:в|/|per) ?(?:секунд|сек|s\b))",
        rf"(?:запрос\w*|пользовател\w*|сесси\w*) по {NUM} ?{_SUFFIX}",  # «8 запросов по 8k»
        rf"(?:kv|кэш\w*|кеш\w*|cache)(?:[ -]\w+)? (?:на|для) (?<![\w.]){NUM} ?(k|тыс\w*\.?)",
    ]
    for p in patterns:
        m = re.search(p, t)
        if m:
            suffix = (m.group(2) or "").strip(".")
            tokens = _tokens(float(m.group(1)), suffix, out)
            out.params["context_tokens"] = signed(t, m.start(1), tokens)
            return
    if re.search(r"(?<![\w.])(?:миллион|million) (?:токен\w*|tokens?)(?!\w)", t):
        out.params["context_tokens"] = 1_000_000  # «на миллион токенов»: one, not written
    elif re.search(r"(?<![\w])без (?:учета )?(?:контекст\w*|kv|кв|кэш\w*|кеш\w*)(?![\w])", t):
        out.params["context_tokens"] = 0  # «а если без контекста?»: weights and overhead only


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
    r"(?:пользовател\w*|юзер\w*|users?|запрос\w*|сесси\w*|клиент\w*|человек\w*|чел\b|"
    r"последовательност\w*|поток\w*|чат\w*|диалог\w*|requests?)"
)


def batch(t: str, out: Found) -> None:
    """«батч 8», «40 одновременных запросов», «юзеров человек 8»; of several loads named («пока
    2-3 юзера всё ок, а как набегает человек 40»), the largest: the one that must be served."""
    m = re.search(r"(?:батч\w*|batch(?: size)?|бач\w*)(?: размер\w*)? ?(?:в|=|:|из|на)? ?(\d+)", t)
    found = [m] if m else [*_COUNTED.finditer(t), *_WHO_FIRST.finditer(t), *_AT_ONCE.finditer(t)]
    if found:
        m = max(found, key=lambda x: count(x.group(1)))
        out.params["batch"] = signed(t, m.start(1), count(m.group(1)))


_COUNTED = re.compile(
    rf"(?<!\d)(\d+) (?:одновременн\w* |параллельн\w* )?{_WHO}(?!\w)"
    r"(?! ?(?:в|/) ?(?:секунд|сек|s\b|минут|час))"
)
# «когда пошло 50+ одновременно»: a load written with «одновременно» alone
_AT_ONCE = re.compile(r"(?<![\d.])(\d+)\+? (?:одновременно|параллельно)(?!\w)")


# «юзеров человек 8», «пользователей до 20, контекст 8k»: the count after the word, and nothing
# after the count but the end, a comma or «одновременно» (not «сессии 2 часа»)
_WHO_FIRST = re.compile(
    rf"(?<![\w]){_WHO}(?: человек)? (?:около |примерно |где-то |до |~ ?)?(\d{{1,7}})"
    r"(?=\s*(?:$|[,;!?)]|[—–-]\s|\.(?!\d)|одновременн|параллельн|человек))"
)
