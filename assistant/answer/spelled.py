"""Text → the same text with numbers written in words as digits, so a claim check reads them.

    digits("около шестидесяти четырёх гигабайт в секунду")  → "около 64 ГБ/с"
    digits("тысячу двести гигабайт в секунду")               → "1200 ГБ/с"
    digits("одну целую восемь десятых терабайта в секунду")  → "1.8 ТБ/с"
    digits("полторы тысячи ватт"), digits("три с половиной ТБ/с") → "1500 ватт", "3.5 ТБ/с"
    digits("одна машина читает память другой")              → unchanged

The words are read by the understanding stage's number reader (assistant/text/numbers.py:
«семьдесят два» → 72, «двух» → 2, «полторы» → 1.5); this module adds what a customer's
message does not need but a draft writes: thousands («четырёх тысяч девяноста шести»),
decimals in words («одна целая восемь десятых»), «с половиной», «половина байта», and units
spelled out («гигабайт в секунду» → ГБ/с). A number below ten with no unit or name after it
is grammar more often than a figure («одна машина … другой», «с тремя стадиями») and stays
words; so does a lone «один» («один H100 за 2 190 $ в месяц» is «a H100»). Only the number runs
change; the rest of the text keeps its case and spacing.
"""

from __future__ import annotations

import re

from assistant.answer.units import unit_at
from assistant.text.numbers import WORDS, words_to_digits

_SCALE = {"десят": 10, "сот": 100, "тысячн": 1000}
_MULTIPLIERS = r"тысяч\w*|цел(?:ая|ую|ой|ых|ые)|десят(?:ая|ую|ой|ых)|сот(?:ая|ую|ой|ых)"
_HALF = r"с\s+половиной|половин\w*|четверть"
_WORD = "|".join(sorted((re.escape(w) for w in WORDS if w.isalpha()), key=len, reverse=True))
_RUN = re.compile(
    rf"(?<![\w-])(?:{_WORD}|{_MULTIPLIERS}|{_HALF})"
    rf"(?:\s+(?:{_WORD}|{_MULTIPLIERS}|{_HALF}))*(?![\w-])",
    re.IGNORECASE,
)
# units spelled out: «гигабайт в секунду» is what «ГБ/с» reads as
_SPELLED_UNITS = (
    (re.compile(r"\bтерабайт\w*\s+в\s+секунду\b", re.I), "ТБ/с"),
    (re.compile(r"\bгигабайт\w*\s+в\s+секунду\b", re.I), "ГБ/с"),
    (re.compile(r"\bмегабайт\w*\s+в\s+секунду\b", re.I), "МБ/с"),
    (re.compile(r"\bгигабит\w*\s+в\s+секунду\b", re.I), "Гбит/с"),
    (re.compile(r"\bкиловатт\w*", re.I), "кВт"),
)
# below ten, a number in words with no unit after it is grammar more often than a figure:
# «одна машина … другой», «в двух вариантах», «с тремя стадиями» (counted, not quoted)
_SMALL = 9
_VAGUE = frozenset({"сотни", "тысячи", "тысяч", "пару", "пара", "пары"})  # «тысячи запросов»


def digits(text: str) -> str:
    """Numbers in words as digits (a decimal point), spelled units as symbols; ё reads as е."""
    text = text.replace("ё", "е").replace("Ё", "Е")
    if not _RUN.search(text):
        return _units(text)
    out, last = [], 0
    for m in _RUN.finditer(text):
        value = _value(m.group(0))
        if value is None or not _figure(text, m, value):
            continue
        out += [text[last : m.start()], _fmt(value)]
        last = m.end()
    out.append(text[last:])
    return _units("".join(out))


def _units(text: str) -> str:
    for pattern, symbol in _SPELLED_UNITS:
        text = pattern.sub(symbol, text)
    return text


def _figure(text: str, m: re.Match[str], value: float) -> bool:
    """A run that states a figure: ten or more, with a unit or a name after it, or built with
    thousands or fractions; not a vague «тысячи», «сотни», «пару»."""
    run = m.group(0).lower()
    if run in _VAGUE or (value == 1 and " " not in run):  # «один H100 за 2 190 $»: «a», not 1
        return False
    if value > _SMALL or re.search(_MULTIPLIERS + "|" + _HALF, run):
        return True
    unit, _ = unit_at(_units(text[m.end() :]), 0)
    after = text[m.end() :].lstrip()
    return unit is not None or bool(re.match(r"[A-Za-z0-9]", after))


def _value(run: str) -> float | None:
    """«четырёх тысяч девяноста шести» → 4096, «одну целую восемь десятых» → 1.8; None when
    the run is more than one number or not a number at all."""
    tokens = words_to_digits(run.lower().replace("ё", "е")).split()
    tokens = _join_half(tokens)
    total, current, whole = 0.0, None, None
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        number = _number(tok) if not tok.startswith("<") else None
        if number is not None:
            if current is not None:
                return None  # «два три»: two numbers side by side
            current = number
        elif tok.startswith("тысяч") and not tok.startswith("тысячн"):
            total += (current if current is not None else 1.0) * 1000
            current = None
        elif tok.startswith("цел"):
            whole, current = total + (current if current is not None else 0.0), None
            total = 0.0
        elif any(tok.startswith(s) for s in _SCALE) and whole is not None and current is not None:
            scale = next(v for s, v in _SCALE.items() if tok.startswith(s))
            return whole + current / scale
        elif tok == "<half>":
            current = (current if current is not None else 0.0) + 0.5
        elif tok == "<quarter>" or tok.startswith("половин"):
            current = 0.5 if tok.startswith("половин") else 0.25
        else:
            return None
        i += 1
    if whole is not None:
        return None  # «одна целая» with no tenths: not a figure we read
    return total + (current or 0.0) if (total or current is not None) else None


def _join_half(tokens: list[str]) -> list[str]:
    """«3 с половиной» → ["3", "<half>"]; «четверть» → ["<quarter>"]."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if tokens[i] == "с" and i + 1 < len(tokens) and tokens[i + 1] == "половиной":
            out.append("<half>")
            i += 2
            continue
        out.append("<quarter>" if tokens[i] == "четверть" else tokens[i])
        i += 1
    return out


def _number(token: str) -> float | None:
    try:
        return float(token)
    except ValueError:
        return None


def _fmt(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"
