"""LLM draft + the sentences of its cited sources → draft sentences the sources do not back.

    Backing.build(lexicon, entries, extra=tool_sentences, user=[question])
    unbacked("Аренда H100 бесплатна для всех клиентов.", cited, backing)
        → ["предложение без ссылки о FullGPU: «Аренда H100 бесплатна…»"]

Every sentence that states a fact (two content words or more) carries a citation whose source
supports it. A draft sentence is cut into citation segments as for numbers (support.py); a
segment is backed by the one or two sentences of its cited entries (or of the calculator's
text) that cover most of it, when

- coverage: at least MIN_COVERAGE of its content lemmas are in those sentences, the entry's
  title and names, or the customer's own words (a word of six letters or more also counts when
  a source word starts with the same five: «аренда» / «арендовать»);
- names: every entity and Latin name it uses is in its cited entries or the customer's words
  («FlashAttention» where the entry says PagedAttention, «GDDR7» on the L40S sheet);
- polarity: no clause is negated where the source clause it restates is not, or the reverse
  («FP4 она поддерживает аппаратно» where the sheet says «не поддерживает»);
- universals («все», «любой», «всегда», «каждый», «только») only where that clause has one;
- scope: the words right after a number — what it is per — come from the source («900 ГБ/с
  на весь сервер» where the entry says «на GPU», «суммарно» for «в каждом направлении»);
- attribution: «по данным AMD», «AMD указывает» only where the source attributes it to AMD.

A sentence without a marker must still be backed by some cited source; one that states a fact
about the provider («FullGPU», «у нас») is rejected outright: provider facts need a citation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from assistant.answer.claims import MARKER, Lexicon
from assistant.answer.spelled import digits
from assistant.answer.statements import (
    CLAUSE,
    FIGURE,
    MIN_FACT,
    STEM,
    Read,
    content_lemmas,
    figures,
    names_in,
    overlap,
    read,
)
from assistant.answer.support import sentences
from assistant.answer.units import unit_after

# Measured on the 132 dev drafts of eval/data/guard_drafts.jsonl (eval/tune_backing.py): with
# two source sentences per segment every threshold from 0.35 to 0.65 gives the lowest sum of bad
# drafts delivered and good drafts rejected (0 + 16); 0.30 lets an invented sentence through,
# 0.70 rejects one more good draft. 0.50 is the middle of that plateau. One source sentence
# rejects two more good paraphrases from 0.60 on; three change nothing. The names, negation,
# «все» and scope checks below catch most of what coverage alone would need a high bar for.
MIN_COVERAGE = 0.5
SOURCES_PER_SEGMENT = 2  # a paraphrase often joins two sentences of an entry

_MARKER_GROUP = re.compile(r"(?:\s*\[\d{1,2}\](?:\s*,)?)+")
_PROVIDER = re.compile(
    r"\bfullgpu\b|\bу\s+нас\b|\bнаш\w*\b|\bмы\b|\bнами\b|\bличн\w+\s+кабинет", re.IGNORECASE
)


@dataclass
class Backing:
    """What draft sentences may stand on: each context entry's sentences and names, the
    calculator's text, the customer's words."""

    lexicon: Lexicon
    entries: list[tuple[Read, ...]] = field(default_factory=list)  # in context order
    names: list[frozenset[str]] = field(default_factory=list)  # each entry's names and entities
    vocab: list[frozenset[str]] = field(default_factory=list)  # title and names, as lemmas
    extra: tuple[Read, ...] = ()  # the calculator's answer and notes: any segment may use them
    extra_names: frozenset[str] = frozenset()
    user: frozenset[str] = frozenset()  # lemmas and names of the customer's words

    @classmethod
    def build(
        cls,
        lexicon: Lexicon,
        entries: Sequence[tuple[str, str, Sequence[str]]],  # (title, text, names) per entry
        extra: Iterable[str] = (),
        user: Iterable[str] = (),
    ) -> Backing:
        out = cls(lexicon)
        for title, text, aliases in entries:
            out.entries.append(tuple(read(s) for s in sentences(text)))
            out.names.append(names_in(" ".join((title, text, *aliases)), lexicon, every=True))
            out.vocab.append(frozenset(content_lemmas(" ".join((title, *aliases)))))
        texts = [t for t in extra if t]
        out.extra = tuple(read(s) for t in texts for s in sentences(t))
        out.extra_names = names_in(" ".join(texts), lexicon, every=True)
        said = " ".join(user)
        out.user = frozenset(content_lemmas(said)) | names_in(said, lexicon, every=True)
        return out


# -- checking a draft -----------------------------------------------------------------------------


def unbacked(text: str, cited: Sequence[int], backing: Backing) -> list[str]:
    """Problems (Russian, for logs) of draft sentences their sources do not back.

    cited[k - 1] is the context index of the entry marker [k] points to."""
    problems: list[str] = []
    for paragraph in text.split("\n"):
        for sentence in sentences(paragraph):
            marked = bool(MARKER.search(sentence))
            if not marked and _PROVIDER.search(sentence) and _states(sentence):
                problems.append(f"предложение без ссылки о FullGPU: «{_short(sentence)}»")
                continue
            for segment, marks in _segments(sentence):
                indexes = [cited[k - 1] for k in marks if 1 <= k <= len(cited)]
                if not marked:
                    indexes = list(cited)
                found = _check(
                    segment, [i for i in indexes if 0 <= i < len(backing.entries)], backing
                )
                if found:
                    where = "" if marked else " (без ссылки)"
                    problems.append(f"{found}{where}: «{_short(segment)}»")
    return problems


def _short(text: str) -> str:
    text = " ".join(MARKER.sub(" ", text).split())
    return text if len(text) <= 80 else text[:79] + "…"


def _states(text: str) -> bool:
    return len(read(text).lemmas) >= MIN_FACT


def _segments(sentence: str) -> list[tuple[str, list[int]]]:
    """The sentence cut after each marker group; text after the last marker leans on it."""
    out: list[tuple[str, list[int]]] = []
    start = 0
    for m in _MARKER_GROUP.finditer(sentence):
        marks = [int(x) for x in MARKER.findall(m.group(0))]
        out.append((sentence[start : m.end()], marks))
        start = m.end()
    tail = sentence[start:]
    if not out:
        return [(tail, [])]
    if len(read(tail).lemmas) >= MIN_FACT:
        out.append((tail, out[-1][1]))
    elif tail.strip():
        out[-1] = (out[-1][0] + tail, out[-1][1])
    return out


def _check(segment: str, indexes: Sequence[int], backing: Backing) -> str:
    """The first thing that does not stand, or "" when the segment is backed."""
    mine = read(segment)
    if len(mine.lemmas) < MIN_FACT:
        return ""
    pool = [s for i in indexes for s in backing.entries[i]] + list(backing.extra)
    free = backing.user | frozenset().union(*(backing.vocab[i] for i in indexes))
    chosen = _choose(mine, pool, free)
    covered = _covered(mine.lemmas, chosen, free)
    if len(covered) < MIN_COVERAGE * len(mine.lemmas):
        missing = ", ".join(sorted(mine.lemmas - covered)[:4])
        return f"источник не подтверждает предложение (нет: {missing})"
    known = backing.user.union(backing.extra_names, *(backing.names[i] for i in indexes))
    strange = names_in(segment, backing.lexicon) - known
    if strange:
        return f"название не из цитируемого источника: {', '.join(sorted(strange)[:3])}"
    return _clauses(mine, pool) or _scope(segment, pool, chosen, free) or _credit(mine, pool)


def _covered(lemmas: Iterable[str], chosen: Sequence[Read], free: frozenset[str]) -> set[str]:
    have = free.union(*(s.lemmas for s in chosen))
    stems = frozenset().union(*(s.stems for s in chosen)) | {w[:STEM] for w in free}
    return {w for w in lemmas if w in have or (len(w) > STEM and w[:STEM] in stems)}


def _choose(mine: Read, pool: Sequence[Read], free: frozenset[str]) -> list[Read]:
    """The one or two source sentences covering most of the segment (greedy)."""
    chosen: list[Read] = []
    for _ in range(SOURCES_PER_SEGMENT):
        have = len(_covered(mine.lemmas, chosen, free))
        best = max(pool, key=lambda s: len(_covered(mine.lemmas, [*chosen, s], free)), default=None)
        if best is None or len(_covered(mine.lemmas, [*chosen, best], free)) <= have:
            break
        chosen.append(best)
    return chosen


def _clauses(mine: Read, pool: Sequence[Read]) -> str:
    """Each clause the same way round as the source clause it restates (the best-overlapping
    one; of equals, one that agrees): negation, universals, what is «без»."""
    source = [c for s in pool for c in s.clauses]
    for d in mine.clauses:
        if len(d.lemmas) < MIN_FACT:
            continue
        most = max((overlap(d.lemmas, c.lemmas) for c in source), default=0)
        if most < max(MIN_FACT, len(d.lemmas) / 2):
            if d.universal:
                return _GENERAL
            continue
        best = [c for c in source if overlap(d.lemmas, c.lemmas) == most]
        agree = [c for c in best if d.denies(c) == c.denies(d)]
        if not agree:
            return "отрицание не совпадает с источником"
        if d.universal and not any(c.universal for c in agree):
            return _GENERAL
    return _absent(mine, pool)


_GENERAL = "обобщение («все», «всегда», «любой») не из источника"


def _absent(mine: Read, pool: Sequence[Read]) -> str:
    """«без виртуальной машины» where a cited sentence has the virtual machine: a denial the
    sources contradict («без разреженности», said by the source too, is fine)."""
    for word in mine.without:
        if any(word in s.denied for s in pool):
            continue
        if any(word in s.lemmas for s in pool):
            return f"«без {word}» противоречит источнику"
    return ""


_SCOPE_WORDS = 3  # what a figure is per: «на GPU», «в каждом направлении», «на порт»
_SCOPE_OPENERS = frozenset({"на", "в", "за", "по", "per", "суммарно", "всего", "каждому"})


def _scope(segment: str, pool: Sequence[Read], chosen: Sequence[Read], free: frozenset[str]) -> str:
    """What a figure is per comes from the source sentence that states the figure."""
    text = digits(MARKER.sub(" ", segment))
    for m in FIGURE.finditer(text):
        _, end = unit_after(text, m.end(), set())
        tail = CLAUSE.split(text[end:], maxsplit=1)[0].split()
        if not tail or tail[0].lower() not in _SCOPE_OPENERS:
            continue
        # «на каждую из двух L40S» is «на GPU»: a distributive «каждый» names no scope
        after = [w for w in content_lemmas(" ".join(tail[:_SCOPE_WORDS])) if w != "каждый"]
        figure = next(iter(figures(m.group(0))), "")
        stating = [s for s in pool if figure in s.numbers] or list(chosen)
        loose = set(after) - _covered(after, stating, free)
        if loose:
            extra = ", ".join(sorted(loose))
            return f"к числу «{m.group(0)}» добавлено то, чего нет в источнике: {extra}"
    return ""


def _credit(mine: Read, pool: Sequence[Read]) -> str:
    """«по данным AMD» only where a cited sentence credits AMD, if any credits someone."""
    credited = frozenset().union(*(s.credited for s in pool))
    wrong = mine.credited - credited
    if wrong and credited:
        said = ", ".join(sorted(credited))
        return f"данные приписаны не тому: {', '.join(sorted(wrong))} (в источнике: {said})"
    return ""
