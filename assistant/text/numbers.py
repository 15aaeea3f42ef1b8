"""Russian free text → normalised text: look-alike letters fixed, number words (English «one» …
«twelve» too) and groups as digits.

    normalise("Восемь Н100, 2 190 $, 7,5 млрд")  →  "8 h100, 2190 $, 7.5 млрд"

Steps: lower-case, ё→е; Cyrillic look-alikes inside tokens with digits/Latin
(Н100 → h100, 32к → 32k, fр8 → fp8); number words (восемь, двух, семьдесят пять, полтора,
трое) → digits; thousands groups («2 190», «$2,190») joined; decimal comma (7,5) → point.
"""

from __future__ import annotations

import re

_LOOKALIKE = str.maketrans("авекмнорстухй", "abekmhopctyxn")
_LOOKALIKE_SET = frozenset("авекмнорстух")

_UNITS = {
    0: "ноль",  # not «нуля»: «обучение с нуля» is from scratch
    1: "один одна одно одну одного одной одном одним one",
    2: "два две двух двум двумя пару пара пары двое two",
    3: "три трех трем тремя трое three",
    4: "четыре четырех четырем четырьмя четверо four",
    5: "пять пяти пятью пятеро five",
    6: "шесть шести шестью шестеро six",
    7: "семь семи семью семеро seven",
    8: "восемь восьми восемью eight",
    9: "девять девяти девятью nine",
}
_TEENS = {
    10: "десять десяти десятью ten",
    11: "одиннадцать одиннадцати",
    12: "двенадцать двенадцати twelve",
    13: "тринадцать тринадцати",
    14: "четырнадцать четырнадцати",
    15: "пятнадцать пятнадцати",
    16: "шестнадцать шестнадцати",
    18: "восемнадцать восемнадцати",
    20: "двадцать двадцати",
    24: "",
    30: "тридцать тридцати",
    40: "сорок сорока",
    50: "пятьдесят пятидесяти",
    60: "шестьдесят шестидесяти",
    70: "семьдесят семидесяти",
    80: "восемьдесят восьмидесяти",
    90: "девяносто девяноста",
}
_HUNDREDS = {
    100: "сто ста сотни",
    200: "двести двухсот",
    300: "триста трехсот",
    400: "четыреста четырехсот",
    500: "пятьсот пятисот",
    600: "шестьсот шестисот",
    700: "семьсот семисот",
    800: "восемьсот восьмисот",
    900: "девятьсот девятисот",
}
_FRACTIONS = {"полтора": 1.5, "полторы": 1.5, "полутора": 1.5}


def _table() -> dict[str, float]:
    words: dict[str, float] = {}
    for group in (_UNITS, _TEENS, _HUNDREDS):
        for value, forms in group.items():
            for form in forms.split():
                words[form] = value
    words.update(_FRACTIONS)
    return words


WORDS = _table()


def _fix_token(tok: str) -> str:
    has_anchor = any(c.isdigit() or "a" <= c <= "z" for c in tok)
    cyr = [c for c in tok if "а" <= c <= "я"]
    if has_anchor and cyr and all(c in _LOOKALIKE_SET for c in cyr):
        return tok.translate(_LOOKALIKE)
    return tok


def fix_lookalikes(text: str) -> str:
    return re.sub(r"[\w]+", lambda m: _fix_token(m.group(0)), text)


def _magnitude(v: float) -> int:
    return 100 if v >= 100 else 10 if v >= 20 else 1


def words_to_digits(text: str) -> str:
    """«семьдесят пять» → «75», «четыреста пять» → «405», «двух» → «2», «полтора» → «1.5»."""
    # «на двух?», «две, …»: punctuation after a number word is its own token
    tokens = re.split(r"(\s+|(?<=[а-я])(?=[?!.,;:…)»]))", text)
    tokens = [t for t in tokens if t]
    out: list[str] = []
    acc: float | None = None
    last_mag = 1000
    for tok in tokens:
        if tok.isspace():
            if acc is None:
                out.append(tok)
            continue
        v = WORDS.get(tok)
        if (
            v is not None
            and acc is not None
            and _magnitude(v) < last_mag
            and v < 100
            and acc % 1 == 0
        ):
            acc += v
            last_mag = _magnitude(v) if v >= 20 else 1
            continue
        if acc is not None:
            out.append(_fmt(acc) + " ")
            acc = None
        if v is not None:
            acc, last_mag = v, (_magnitude(v) if v >= 10 else 1)
            if 10 <= v < 20:
                last_mag = 1
            continue
        out.append(tok)
    if acc is not None:
        out.append(_fmt(acc))
    return "".join(out)


def _fmt(v: float) -> str:
    return str(int(v)) if v == int(v) else str(v)


def join_groups(text: str) -> str:
    """«2 190» / «2 190» / «$2,190» → «2190»; «7,5» → «7.5»."""
    text = re.sub(
        r"(?<![\d.,])(\d{1,3})(?:[ \u00a0\u202f](\d{3}))+(?![\w.,])",
        lambda m: re.sub(r"[ \u00a0\u202f]", "", m.group(0)),
        text,
    )
    text = re.sub(
        r"(?<![\d.,])([1-9]\d{0,2})(?:,(\d{3}))+(?![\d,]|\.\d)",
        lambda m: m.group(0).replace(",", ""),
        text,
    )
    return re.sub(r"(?<=\d),(?=\d)", ".", text)


def normalise(text: str) -> str:
    t = text.lower().replace("ё", "е").replace("\u00a0", " ").replace("\u202f", " ")
    t = t.replace("×", "x").replace("—", " - ").replace("–", "-")
    t = fix_lookalikes(t)
    t = words_to_digits(t)
    t = join_groups(t)
    t = re.sub(r"(?<=\d)x(?=[a-zа-я])", " x ", t)  # 8xh100 → 8 x h100
    t = re.sub(r"(?<=\d)б(?![\w])", "b", t)  # 70б → 70b (Cyrillic б for B)
    return re.sub(r"[ \t]+", " ", t).strip()
