"""Sentence → what it states, read once: content lemmas, clauses (negated? generalising?
what «без» takes), whom it credits, its figures and names.

    read("У карт PCIe, таких как RTX 5090, его нет.")
        → Read(lemmas={карта, pcie, rtx}, clauses=(Clause(…, negated=True), …))

Content lemmas leave out numbers (the number check reads them), stop and discourse words
(«например», «поэтому», «около»), comparisons (assistant/answer/relative.py) and units. A
clause too short to state anything joins the one before it («…, таких как RTX 5090»), and a
short denial («…, его нет», «Не поместится: …») denies the whole sentence. Used by
assistant/answer/backing.py on draft and source sentences alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from assistant.answer.claims import MARKER, Lexicon
from assistant.answer.spelled import digits
from assistant.text.tokens import STOPWORDS, lemma, words

STEM = 5  # letters two forms of one word share («аренд-а», «аренд-овать»)
MIN_FACT = 2  # content words that make a sentence state something

_ANSWER = re.compile(r"^\s*(?:да|нет|верно|нет\s+и\s+да)\s*[,:—–-]+\s*", re.IGNORECASE)
CLAUSE = re.compile(r"[;:,()]|\s[—–]\s|\s(?:а|но|зато|тогда\s+как)\s", re.IGNORECASE)
# «без» is left out: «без разреженности», «без потерь» qualify a figure, they deny nothing
_NEGATORS = frozenset({"не", "нет", "ни", "нельзя", "отсутствует", "отсутствуют"})
_UNIVERSALS = frozenset({"весь", "все", "всё", "любой", "всегда", "каждый", "никогда", "только"})
# words that join or hedge but state nothing («например», «поэтому», «около»)
_DISCOURSE = frozenset(
    """например поэтому значит итак так именно также ещё еще просто стоит важно учесть учитывать
    учтите свой сам этот тот вообще около примерно почти порядка лишь ровно довольно
    нужно надо будет быть являться это то есть вид случай целом главное итог итого пример
    справка для справки кроме того однако впрочем ваш зависеть уточнить проверить""".split()
)
# comparisons and their factors are relative.py's; units are the number check's
_CHECKED_ELSEWHERE = frozenset(
    """больше меньше более менее выше ниже быстрее медленнее дешевле дороже шире точнее
    вдвое втрое вчетверо впятеро вдесятеро раз раза оба обе обоих обеих против
    гб тб мб гбит вт квт ггц нм мс гигабайт терабайт мегабайт гигабит ватт киловатт секунда
    tflops pflops tops""".split()
)
_LATIN = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*(?![A-Za-z0-9])")
_ATTRIBUTION = (
    re.compile(
        r"\bпо\s+(?:опубликованным\s+)?(?:данным|спецификациям|словам|оценкам)\s+([A-Za-zА-Яа-яЁё][\w-]*)",
        re.IGNORECASE,
    ),
    re.compile(r"\b([A-Z][\w-]*)\s+(?:указывает|указывают|заявляет|сообщает|пишет)\b"),
)

_WITHOUT = re.compile(r"\bбез\s+((?:[^\W\d_]+\s*){1,3})", re.IGNORECASE)
# what a source says is absent: «без масштабирования функции потерь (loss scaling)», «в
# отсутствие NVLink», a few words on, brackets included
_DENIED = re.compile(r"\b(?:без|отсутстви\w*|нет)\s+((?:[(\w-]+[)]?\s*){1,6})", re.IGNORECASE)
FIGURE = re.compile(
    r"(?<![\w.,])\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?|(?<![\w.,])\d+(?:[.,]\d+)?"
)
_DISTRIBUTIVE = frozenset({"на", "в", "во", "для", "у", "по", "с", "из", "к"})
_NUMERIC = re.compile(r"[\d.,]+")


@dataclass(frozen=True)
class Clause:
    """A clause of a sentence: what it is about, whether it denies it, whether it generalises."""

    lemmas: frozenset[str]
    negated: bool  # «не», «нет», «ни»
    without: frozenset[str]  # «без аппаратной поддержки FP4»: what it says is absent
    universal: bool

    def denies(self, other: Clause) -> bool:
        """Negated, or «без» something the other clause speaks of («без разреженности» does not
        deny that a card supports FP4)."""
        return self.negated or overlap(self.without, other.lemmas) > 0


@dataclass(frozen=True)
class Read:
    """One sentence read once: its content lemmas, clauses, attributions."""

    text: str
    lemmas: frozenset[str]
    stems: frozenset[str]
    clauses: tuple[Clause, ...]
    credited: frozenset[str]  # whom it attributes a figure to («по данным NVIDIA» → nvidia)
    without: frozenset[str]  # what it says is absent: «без гипервизора» → гипервизор
    denied: frozenset[str]  # the words after «без», «в отсутствие», «нет» (a source's denials)
    numbers: frozenset[str]  # its figures as digits («2 048» → 2048, «1,8» → 1.8)


@lru_cache(maxsize=16_384)
def read(sentence: str) -> Read:
    """The sentence (markers ignored) read once; source sentences repeat across answers."""
    text = MARKER.sub(" ", sentence)
    found = content_lemmas(text)
    clauses: list[Clause] = []
    for part in CLAUSE.split(_ANSWER.sub("", text)):
        tokens = words(part)
        clause = Clause(
            frozenset(content_lemmas(part)),
            any(w in _NEGATORS for w in tokens),
            frozenset(w for m in _WITHOUT.finditer(part) for w in _absent_words(m.group(1))),
            _universal(tokens),
        )
        if len(clause.lemmas) < MIN_FACT and clauses:  # «таких как RTX 5090»: the one before
            last = clauses.pop()
            clause = Clause(
                last.lemmas | clause.lemmas,
                last.negated or clause.negated,
                last.without | clause.without,
                last.universal or clause.universal,
            )
            if clause.negated and not last.negated:  # «У карт PCIe, …, его нет»: the sentence
                clauses = [replace(c, negated=True) for c in clauses]
        elif clauses and len(clauses[0].lemmas) < MIN_FACT and clauses[0].negated:
            clause = replace(clause, negated=True)  # «Не поместится: …»: what follows is denied
        clauses.append(clause)
    stems = frozenset(w[:STEM] for w in found if len(w) > STEM)
    without = frozenset(w for m in _WITHOUT.finditer(text) for w in _absent_words(m.group(1)))
    denied = frozenset(w for m in _DENIED.finditer(text) for w in content_lemmas(m.group(1)))
    return Read(
        text,
        frozenset(found),
        stems,
        tuple(clauses),
        frozenset(_credited(text)),
        without,
        denied,
        frozenset(figures(text)),
    )


def _absent_words(phrase: str) -> list[str]:
    """«аппаратной поддержки FP4» → аппаратный, поддержка; «платы за исходящий трафик» →
    плата: what «без» takes, up to the first function word."""
    head: list[str] = []
    for w in phrase.split()[:2]:
        if w.lower() in STOPWORDS:
            break
        head.append(w)
    return content_lemmas(" ".join(head))


def figures(text: str) -> set[str]:
    """Its numbers, in words too, as plain digits: «2 048» → "2048", «одна целая восемь» …"""
    return {
        re.sub(r"[ \u00a0\u202f]", "", m.group(0)).replace(",", ".")
        for m in FIGURE.finditer(digits(text))
    }


def _universal(tokens: Sequence[str]) -> bool:
    """«все», «всегда», «любой», «каждый GPU получает»; not the distributive «на каждую»,
    «в каждом направлении», «для каждого»."""
    for i, w in enumerate(tokens):
        word = lemma(w)
        if w in _UNIVERSALS or word in _UNIVERSALS:
            if word == "каждый" and i and tokens[i - 1] in _DISTRIBUTIVE:
                continue
            return True
    return False


def content_lemmas(text: str) -> list[str]:
    """Content lemmas: no numbers (the number check reads them), stop or discourse words,
    comparisons (relative.py) or units."""
    out = []
    for w in words(digits(text)):
        if _NUMERIC.fullmatch(w) or w in STOPWORDS or w in _CHECKED_ELSEWHERE:
            continue
        lem = lemma(w)
        if lem in STOPWORDS or lem in _DISCOURSE or w in _DISCOURSE or len(lem) < 2:
            continue
        out.append(lem)
    return out


def _credited(text: str) -> set[str]:
    return {m.group(1).lower() for rx in _ATTRIBUTION for m in rx.finditer(text)}


def names_in(text: str, lexicon: Lexicon, *, every: bool = False) -> frozenset[str]:
    """Entities (their ids: «hopper» whether read as the architecture or its entry) and
    Latin-letter names of a text, lower-case («h100-sxm», «flashattention»); every: also the
    Latin words inside names (a source: «x16» of «Gen5 x16»)."""
    text = MARKER.sub(" ", text)
    mentions = lexicon.mentions(text)
    found = {m.entity.partition(":")[2] for m in mentions}
    if every:  # a spec sheet's own entity «gpu-h100-sxm» is the card «h100-sxm»
        found |= {e.removeprefix("gpu-") for e in found}
    covered = [] if every else [(m.start, m.end) for m in mentions]
    for w in _LATIN.finditer(text):
        if not any(a <= w.start() < b for a, b in covered):
            found.add(w.group(0).lower().strip("-"))
    return frozenset(found)


def overlap(a: frozenset[str], b: frozenset[str]) -> int:
    """How many of a's lemmas b has, a long word counting when b has its stem."""
    stems = {w[:STEM] for w in b if len(w) > STEM}
    return sum(1 for w in a if w in b or (len(w) > STEM and w[:STEM] in stems))
