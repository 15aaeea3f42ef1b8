"""Draft sentences + their cited sources → comparative claims that nothing backs.

    comparisons("У H200 вдвое больше памяти, чем у B300", lexicon)
        → [Comparison(direction=+1, factor=2, greater={gpu:h200}, lesser={gpu:b300}, dim="GB")]

A comparative or relative claim — «вдвое», «в 1,5 раза», «на 45 %», «больше / меньше / выше /
быстрее, чем …», «намного быстрее PCIe» — stands when

1. a cited source sentence states it: a comparison the same way round (the same direction
   with the same sides, or the opposite word with the sides swapped), with the same factor if
   the draft gives one, about the same things; or
2. numbers imply it: the two sides' figures of one kind (memory in ГБ, bandwidth in ГБ/с,
   power in Вт, TFLOPS, bytes …), taken from the draft's own paragraph (whose numbers the claim
   check has verified) or else from the cited sources, give the claimed direction and factor:
   141 and 80 ГБ back «почти вдвое больше», 141 and 288 ГБ refute «вдвое больше, чем у B300».

A side the sentence leaves out («Памяти у PRO 6000 втрое больше») is the other card or term
of the paragraph with a figure of that kind. A factor is exact within 10 % («вдвое» for
1,8 ТБ/с and 900 ГБ/с), «почти» allows a quarter below it, «более чем» anything above it,
«около» 15 % either way, «намного» at least 1,25×.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from assistant.answer.claims import MARKER, Lexicon, Quantity
from assistant.answer.spelled import digits
from assistant.answer.support import ClaimSources, draft_quantities, sentences

_UP = (
    r"больше|больш(?:ий|ая|ое|ие|его|ей|ую|им|ими|их)|более|выше|быстрее|шире|дороже|мощнее"
    r"|длиннее|дольше|сильнее|точнее|превосходит|превышает|опережает|удвоен\w*|утроен\w*"
)
_DOWN = (
    r"меньше|меньш(?:ий|ая|ое|ие|его|ей|ую|им|ими|их)|менее|ниже|медленнее|дешевле|слабее"
    r"|короче|грубее|уступает|отстает"
)
_FACTOR_WORDS = {
    "вдвое": 2.0,
    "втрое": 3.0,
    "вчетверо": 4.0,
    "впятеро": 5.0,
    "вшестеро": 6.0,
    "всемеро": 7.0,
    "ввосьмеро": 8.0,
    "вдесятеро": 10.0,
}
_WORD = re.compile(rf"(?<![\w-])(?:(?P<up>{_UP})|(?P<down>{_DOWN}))(?![\w-])", re.IGNORECASE)
_FACTOR = re.compile(
    r"(?<![\w-])(?:(?P<word>" + "|".join(_FACTOR_WORDS) + r")|в\s+(?P<n>\d+(?:[.,]\d+)?)\s+раза?"
    r"|на\s+(?P<pct>\d+(?:[.,]\d+)?)\s*%|(?P<double>удвоен\w*)|(?P<triple>утроен\w*))(?![\w-])",
    re.IGNORECASE,
)
_ALMOST = re.compile(r"(?:почти|чуть\s+меньше\s+чем|без\s+малого)\s+$", re.IGNORECASE)
_OVER = re.compile(
    r"(?:более\s+чем|больше\s+чем|свыше|не\s+менее\s+чем|минимум)\s+(?:в\s+)?$", re.IGNORECASE
)
_ABOUT = re.compile(r"(?:около|примерно|приблизительно|порядка|где-то)\s+(?:в\s+)?$", re.I)
_MUCH = re.compile(r"(?:намного|гораздо|значительно|существенно|заметно|куда)\s+$", re.I)
# «…, чем», «против», also a few words on («меньшая пропускная способность, чем тензорному»)
_THAN = re.compile(
    r"^(?:\s+[^\s,;:.]+){0,3}[\s,]*(?:чем|против|по\s+сравнению\s+с|относительно)\b",
    re.IGNORECASE,
)
# a bound on a number («меньше 1 %», «не более 2 ГБ»), «всё больше», «чем …, тем …»: no claim
_BOUND_AFTER = re.compile(r"^\s*(?:чем\s+)?(?:на\s+)?\d")
_NOT_A_CLAIM = re.compile(r"(?:\bне|вс[её])\s+$", re.IGNORECASE)
_HEDGING = frozenset({"более", "менее", "больше", "меньше"})
_HEDGED = re.compile(r"\s+чем\s+(?:в\s+)?\S*(?:вдвое|втрое|вчетверо|\d)")
# where one comparison's sides end: «;», «:», «, а», «, но», «тогда как», a sentence end
_SIDE_END = re.compile(r";|:|,\s*(?:а|но|тогда\s+как|зато)\s|\s(?:тогда\s+как|а\s+у)\s")
_LATIN = re.compile(r"(?<![\w-])[A-Za-z][\w-]*")
_DIMS = {
    "TB/s": ("GB/s", 1000.0),
    "GB/s": ("GB/s", 1.0),
    "TB": ("GB", 1000.0),
    "GB": ("GB", 1.0),
    "kW": ("W", 1000.0),
    "W": ("W", 1.0),
    "PFLOPS": ("TFLOPS", 1000.0),
    "TFLOPS": ("TFLOPS", 1.0),
}
_PROPERTY = (  # what the words compare → the kind of figure that decides it
    (re.compile(r"пропускн|скорост\w*\s+памят|памят\w*\s+(?:быстрее|медленнее)", re.I), "GB/s"),
    (re.compile(r"памят|объ[её]м|vram", re.I), "GB"),
    (re.compile(r"\btdp\b|мощност|энергопотреб|ватт", re.I), "W"),
    (re.compile(r"производительн|tflops|вычислен", re.I), "TFLOPS"),
)
EXACT, ABOUT, ALMOST, MUCH = 0.10, 0.15, 0.75, 1.25


@dataclass(frozen=True)
class Comparison:
    """One comparative claim of a sentence, normalised to «greater than lesser»."""

    text: str  # the words, for logs
    direction: int  # +1: the first side is greater, -1: smaller, 0: not said («Да, вдвое:»)
    factor: float | None
    hedge: str  # "", "almost", "over", "about", "much"
    first: frozenset[str]  # comparands before the word (entities, Latin names)
    second: frozenset[str]  # comparands after it, within the comparison
    dim: str | None  # the kind of figure the words name, if any
    quality: str = "amount"  # what the word compares: speed, precision, price, length, amount
    topic: frozenset[str] = frozenset()  # terms naming what is compared («пропускная способность
    # памяти», NVLink, TDP): figures stated of them decide it, not the card's other ГБ/с

    @property
    def sides(self) -> frozenset[str]:
        return self.first | self.second


def comparisons(sentence: str, lexicon: Lexicon) -> list[Comparison]:
    """The comparative claims of one sentence (markers removed, numbers in words as digits)."""
    text = digits(MARKER.sub(" ", sentence))
    bounds = _side_bounds(text)
    words = [m for m in _WORD.finditer(text) if _is_claim(text, m)]
    factors = list(_FACTOR.finditer(text))
    found: list[Comparison] = []
    used: set[int] = set()
    for m in words:
        factor = _near_factor(factors, m, text)
        if factor is None and not _comparative(text, m, lexicon):
            continue
        if factor is not None:
            used.add(factor.start())
        found.append(_comparison(text, m, factor, bounds, lexicon))
    for f in factors:  # «Да, вдвое:», «удвоена», «в 8 раз»: a factor with no word of its own
        if f.start() not in used and not any(f.start() <= w.start() <= f.end() for w in words):
            found.append(_comparison(text, None, f, bounds, lexicon))
    return found


def _side_bounds(text: str) -> list[int]:
    return [0, *(m.end() for m in _SIDE_END.finditer(text)), len(text)]


def _is_claim(text: str, m: re.Match[str]) -> bool:
    before, after = text[: m.start()], text[m.end() :]
    if _NOT_A_CLAIM.search(before) or _BOUND_AFTER.match(after):
        return False
    if re.search(r"\bтем\b", after[:40]) or re.search(r"\bчем\s+\S+\s*,?\s*$", before[-40:]):
        return False  # «чем длиннее контекст, тем больше памяти»
    # «более чем вдвое»: a hedge of the factor after it
    return not (m.group(0).lower() in _HEDGING and _HEDGED.match(after))


def _near_factor(
    factors: Sequence[re.Match[str]], m: re.Match[str], text: str
) -> re.Match[str] | None:
    """A factor right before the word («вдвое больше», «в 1,5 раза выше», «на 45 % быстрее»)
    or right after it («больше в 3 раза», «выше вдвое»)."""
    for f in factors:
        gap = text[f.end() : m.start()] if f.end() <= m.start() else text[m.end() : f.start()]
        if len(gap.split()) <= 2 and not re.search(r"[;:,.]", gap):
            return f
    return None


def _comparative(text: str, m: re.Match[str], lexicon: Lexicon) -> bool:
    """A comparison rather than an amount: «…, чем», «против», «намного быстрее», or a name
    right after the word («быстрее PCIe»)."""
    after = text[m.end() :]
    if _THAN.match(after) or _MUCH.search(text[: m.start()]):
        return True
    if m.group(0).lower().startswith(("удвоен", "утроен")):
        return True
    following = after.lstrip()[:40]
    return any(x.start == 0 for x in lexicon.mentions(following)) or bool(
        re.match(r"[A-Z][\w-]*\d|[A-Z]{2,}", following)
    )


def _comparison(
    text: str,
    m: re.Match[str] | None,
    f: re.Match[str] | None,
    bounds: Sequence[int],
    lexicon: Lexicon,
) -> Comparison:
    at = m if m is not None else f
    assert at is not None
    start = max(b for b in bounds if b <= at.start())
    end = min(b for b in bounds if b >= at.end())
    direction = 0
    if m is not None:
        direction = 1 if m.group("up") else -1
    elif f is not None and (f.group("double") or f.group("triple")):
        direction = 1
    factor, hedge = _factor(text, f, direction)
    if factor is None and m is not None and _MUCH.search(text[: m.start()]):
        hedge = "much"
    left, right = min(x.start() for x in (m, f) if x), max(x.end() for x in (m, f) if x)
    clause = text[start:end]
    first = comparands(text[start:left], lexicon)
    second = comparands(text[right:end], lexicon)
    topic = {x.entity for x in lexicon.mentions(clause) if x.entity.startswith("term:")}
    return Comparison(
        text=clause.strip(),
        direction=direction,
        factor=factor,
        hedge=hedge,
        first=first,
        second=second,
        dim=_dimension(clause),
        quality=_quality(m.group(0) if m else "", clause),
        topic=frozenset(topic) - first - second,
    )


def _factor(text: str, f: re.Match[str] | None, direction: int) -> tuple[float | None, str]:
    if f is None:
        return None, ""
    if f.group("word"):
        value = _FACTOR_WORDS[f.group("word").lower()]
    elif f.group("n"):
        value = float(f.group("n").replace(",", "."))
    elif f.group("pct"):
        share = float(f.group("pct").replace(",", ".")) / 100
        value = 1 + share if direction >= 0 else 1 / max(1 - share, 0.01)
    else:
        value = 2.0 if f.group("double") else 3.0
    before = text[: f.start()]
    hedge = next(
        (
            name
            for name, rx in (("almost", _ALMOST), ("over", _OVER), ("about", _ABOUT))
            if rx.search(before)
        ),
        "",
    )
    return value, hedge


def comparands(text: str, lexicon: Lexicon) -> frozenset[str]:
    """What a side of a comparison names: entities, and Latin names the lexicon does not know
    («Gen4»), lower-case. A side naming a card or a model compares that: «пропускная
    способность памяти» next to it is what is compared, not a side."""
    mentions = lexicon.mentions(text)
    found = {x.entity for x in mentions}
    covered = [(x.start, x.end) for x in mentions]
    for w in _LATIN.finditer(text):
        if not any(a <= w.start() < b for a, b in covered):
            found.add(w.group(0).lower())
    things = {e for e in found if e.startswith(("gpu:", "model:"))}
    return frozenset(things or found)


_QUALITIES = (
    ("speed", re.compile(r"быстрее|медленнее|скорост", re.I)),
    ("precision", re.compile(r"точнее|грубее|точност", re.I)),
    ("price", re.compile(r"дороже|дешевле|стоимост|цен[аеуы]", re.I)),
    ("length", re.compile(r"длиннее|короче|дольше", re.I)),
)
# «быстрее» and «пиковая скорость … выше» compare speed; memory bandwidth and TFLOPS are speeds
_SAME_QUALITY = {"speed": {"speed", "GB/s", "TFLOPS"}, "GB/s": {"speed"}, "TFLOPS": {"speed"}}


def _quality(word: str, clause: str) -> str:
    """What the comparative word compares: its own meaning («быстрее»), else the property the
    clause names («пропускная способность … выше» → ГБ/с), else an amount."""
    for name, rx in _QUALITIES:
        if rx.search(word):
            return name
    for name, rx in _QUALITIES:
        if rx.search(clause):
            return name
    return _dimension(clause) or "amount"


def _compatible(a: str, b: str) -> bool:
    if a == b or b in _SAME_QUALITY.get(a, ()):
        return True
    loose = {"precision", "price"}
    return (a == "amount" or b == "amount") and not ({a, b} & loose)


def _dimension(clause: str) -> str | None:
    return next((dim for rx, dim in _PROPERTY if rx.search(clause)), None)


# -- checking a draft -----------------------------------------------------------------------------

Figure = tuple[str, float, frozenset[str]]  # (kind of figure, value in its base unit, entities)
_GENERIC = frozenset({"gpu", "cpu", "tflops", "pflops", "ai", "tops", "x16"})


def unsupported(text: str, cited: Sequence[int], sources: ClaimSources) -> list[str]:
    """Problems (Russian, for logs) of the draft's comparisons; empty when each one stands.

    cited[k - 1] is the context index of the entry marker [k] points to."""
    problems: list[str] = []
    lexicon = sources.lexicon
    for paragraph in text.split("\n"):
        sents = sentences(paragraph)
        marks = [[int(m.group(1)) for m in MARKER.finditer(s)] for s in sents]
        mine = [q for s in sents for q in draft_quantities(s, lexicon, spelled=True)]
        for i, sentence in enumerate(sents):
            found = comparisons(sentence, lexicon)
            if not found:
                continue
            own = marks[i] or next((m for m in marks[i + 1 :] + marks[:i][::-1] if m), [])
            indexes = [cited[k - 1] for k in own if 1 <= k <= len(cited)] or list(cited)
            indexes = [j for j in indexes if 0 <= j < len(sources.texts)]
            groups = [g for j in indexes for g in sources.entries[j]] + sources.tools
            figures = _figures(mine) + _figures(q for g in groups for q in g.quantities)
            for c in found:
                if not (_stated(c, indexes, sources) or _implied(c, figures)):
                    problems.append(f"сравнение «{c.text[:80]}» не подтверждено источником")
    return problems


def _stated(c: Comparison, indexes: Iterable[int], sources: ClaimSources) -> bool:
    """A cited sentence makes the same comparison, the same way round."""
    for j in indexes:
        subject = sources.subjects[j]
        for sentence in sources.texts[j]:
            named = comparands(sentence, sources.lexicon) | subject
            for s in comparisons(sentence, sources.lexicon):
                if _same(c, s, subject, named):
                    return True
    return False


def _same(d: Comparison, s: Comparison, subject: frozenset[str], named: frozenset[str]) -> bool:
    sides = d.sides - _GENERIC
    if not sides <= named or not _compatible(d.quality, s.quality):
        return False  # the source compares other things, or the same things in another way
    if d.factor is not None and (s.factor is None or abs(d.factor / s.factor - 1) > EXACT):
        return False
    if d.direction == 0 or s.direction == 0:
        return d.factor is not None
    first = s.first or subject  # «Он передаёт данные намного быстрее, чем PCIe»
    d_big, d_small = _oriented(d.first, d.second, d.direction)
    s_big, s_small = _oriented(first, s.second, s.direction)
    return not (d_big & s_small or d_small & s_big)


def _oriented(
    first: frozenset[str], second: frozenset[str], direction: int
) -> tuple[frozenset[str], frozenset[str]]:
    return (first, second) if direction > 0 else (second, first)


def _figures(qs: Iterable[Quantity]) -> list[Figure]:
    out: list[Figure] = []
    for q in qs:
        base = (q.unit or "").split(" per ")[0]
        if base in _DIMS:
            dim, scale = _DIMS[base]
            out.append((dim, q.value * scale, q.entities))
        elif base and base not in ("times", "%", "?"):
            out.append((base, q.value, q.entities))
    return out


def _implied(c: Comparison, figures: Sequence[Figure]) -> bool:
    """The two sides' figures of one kind give the claimed direction and factor: the kind the
    words name («памяти» → ГБ) when both sides have one, else any kind both sides have."""
    pairs = [
        (dim, _pairs(c, [(v, e) for d, v, e in figures if d == dim])) for dim in _dims(c, figures)
    ]
    named = [p for dim, p in pairs if dim == c.dim and p[0] and p[1]]
    for big, small, direction in named[:1] or [p for _, p in pairs]:
        if any(_fits(x / y, direction, c.factor, c.hedge) for x, y in product(big, small) if y):
            return True
    return False


def _dims(c: Comparison, figures: Sequence[Figure]) -> list[str]:
    return list(dict.fromkeys([*([c.dim] if c.dim else []), *(d for d, _, _ in figures)]))


def _pairs(
    c: Comparison, of_dim: list[tuple[float, frozenset[str]]]
) -> tuple[list[float], list[float], int]:
    """(the greater side's values, the other side's, direction) among figures of one kind."""
    on_topic = [(v, e) for v, e in of_dim if e & c.topic]
    of_dim = on_topic if len(on_topic) >= 2 else of_dim
    first, second = c.first - _GENERIC, c.second - _GENERIC
    if not first and not second:  # «Да, вдвое: … 1,8 ТБ/с, а … 900 ГБ/с»: the two figures
        values = sorted({v for v, _ in of_dim})
        return (values[-1:], values[:1], 0) if len(values) == 2 else ([], [], 0)
    # a side left out is any other thing with a figure of this kind
    big = [v for v, e in of_dim if (e & first if first else e and not e & second)]
    small = [v for v, e in of_dim if (e & second if second else e and not e & first)]
    return big, small, c.direction


def _fits(ratio: float, direction: int, factor: float | None, hedge: str) -> bool:
    if ratio <= 0:
        return False
    if direction == 0:
        ratio = max(ratio, 1 / ratio)
    elif direction < 0:
        ratio = 1 / ratio
    if factor is None:
        return ratio >= MUCH if hedge == "much" else ratio > 1.0
    if hedge == "over":
        return ratio >= factor * (1 - 0.02)
    if hedge == "almost":
        return ALMOST * factor <= ratio <= factor * 1.02
    return abs(ratio / factor - 1) <= (ABOUT if hedge == "about" else EXACT)
