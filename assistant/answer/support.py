"""Draft + its sources → unsupported claims: every number checked against one specific cited
sentence or tool result (same value, unit and entities), and the calculator's headline stated.

A draft sentence is cut into citation segments: the text up to a marker group ([1], [1][2]) is
what that group supports; a sentence without markers borrows its paragraph neighbour's. The
numbers of one segment must all come from ONE group of its sources — a glossary sentence of a
cited entry or one tool result — with the same unit and entities; numbers the user gave may be
restated anywhere. «8 GPU, работающих 190 часов, расходуют 80 GPU-часов» fails when 8, 190
and 80 come from different claims, though each appears somewhere in the sources.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from assistant.answer.claims import (
    KINDS,
    MARKER,
    TOTAL,
    Group,
    Lexicon,
    Quantity,
    json_quantities,
    quantities,
)
from assistant.answer.spelled import digits
from assistant.answer.units import UNKNOWN, in_unit
from assistant.calculators.registry import find_tool
from assistant.text.sentences import split_sentences

if TYPE_CHECKING:
    from assistant.corpus.glossary import Entry

ADAPTER_METHODS = ("lora", "qlora")  # a training result is about its method's entry
MAX_ROUNDING = 0.05  # a rounded figure may differ from its source by at most 5 %
_MARKER_GROUP = re.compile(r"(?:\s*\[\d{1,2}\](?:\s*,)?)+")
_FIT = r"(?:помест|влез|вмест|умест|хват|подойд|подход)"
_NEGATED = re.compile(rf"\bне\s+{_FIT}|\bнедостаточно|\bне\s+получится", re.IGNORECASE)
_POSITIVE = re.compile(rf"(?<!не )\b{_FIT}", re.IGNORECASE)
_TIGHT = re.compile(r"впритык|на пределе|только при нижней", re.IGNORECASE)


@dataclass
class ClaimSources:
    """Claim groups an answer may use: per context entry, per tool result, the user's words."""

    lexicon: Lexicon
    entries: list[tuple[Group, ...]] = field(default_factory=list)  # in context order
    tools: list[Group] = field(default_factory=list)
    user: Group = field(default_factory=lambda: Group("слова клиента", (), wildcard_units=True))
    results: list[Mapping[str, Any]] = field(default_factory=list)  # tool results (headlines)
    texts: list[tuple[str, ...]] = field(default_factory=list)  # each entry's sentences
    subjects: list[frozenset[str]] = field(default_factory=list)  # what each entry is about

    @classmethod
    def build(
        cls,
        lexicon: Lexicon,
        entries: Sequence[Entry],
        results: Sequence[Mapping[str, Any]] = (),
        user_texts: Iterable[str] = (),
        tool_texts: Iterable[str] = (),
    ) -> ClaimSources:
        found = cls(lexicon, [entry_groups(e, lexicon) for e in entries])
        found.texts = [tuple(sentences(e.text)) for e in entries]
        found.subjects = [entry_subject(e, lexicon) for e in entries]
        if results:  # one calculation (side by side BF16/FP8/FP4 included) is one claim
            parts = [tool_group(r, lexicon) for r in results]
            label = parts[0].label
            found.tools = [Group(label, tuple(q for p in parts for q in p.quantities))]
        texts = [t for t in tool_texts if t]
        if texts:  # the calculator's composed answer: its notes are the tool's own words
            found.tools.append(_text_group("ответ калькулятора", texts, lexicon, set()))
        said = list(user_texts)
        read = {t: quantities(digits(t), lexicon) for t in dict.fromkeys(said)}  # message and
        user = [q for t in said for q in read[t]]  # question are mostly one text: read once
        found.user = Group("слова клиента", tuple(user), wildcard_units=True)
        found.results = list(results)
        return found


def entry_subject(entry: Entry, lexicon: Lexicon) -> frozenset[str]:
    """The entry itself and what its title names («Характеристики NVIDIA H200» → gpu:h200)."""
    return frozenset({f"term:{entry.slug}"} | {m.entity for m in lexicon.mentions(entry.title)})


def entry_groups(entry: Entry, lexicon: Lexicon) -> tuple[Group, ...]:
    """One group per sentence of the entry, its subject being the entry itself (cached);
    numbers written in words count as digits («час работы одного GPU»)."""
    cached = lexicon.cache.get(entry.slug)
    if cached is None:
        subject = entry_subject(entry, lexicon)
        cached = tuple(
            Group(
                f"{entry.title}, предложение {n}",
                tuple(quantities(digits(s), lexicon, subject=subject)),
            )
            for n, s in enumerate(sentences(entry.text), 1)
        )
        lexicon.cache[entry.slug] = cached
    return cached


def tool_group(result: Mapping[str, Any], lexicon: Lexicon) -> Group:
    """A tool result is one claim: its texts and its inputs/values may be combined freely."""
    inputs = result.get("inputs") or {}
    own = {f"gpu:{inputs['gpu']}"} if isinstance(inputs.get("gpu"), str) else set()
    if isinstance(inputs.get("model"), str):
        own.add(f"model:{inputs['model']}")
    if isinstance(inputs.get("precision"), str):
        own.add(f"precision:{inputs['precision']}")
    if inputs.get("method") in ADAPTER_METHODS:  # «с LoRA на 8 GPU — около 17 ГБ на GPU»
        own.add(f"term:{inputs['method']}")
    texts = [str(result.get("summary_ru") or ""), *(result.get("assumptions_ru") or [])]
    texts.append(str(result.get("formula") or ""))
    group = _text_group(f"калькулятор {result.get('tool')}", texts, lexicon, own)
    values = {**inputs, **(result.get("values") or {})}
    json = json_quantities(values, frozenset(own))
    return Group(group.label, group.quantities + tuple(json))


def _text_group(label: str, texts: Iterable[str], lexicon: Lexicon, own: set[str]) -> Group:
    found = [q for t in texts for s in sentences(t) for q in quantities(s, lexicon, subject=own)]
    return Group(label, tuple(found))


def sentences(text: str) -> list[str]:
    """Sentences as the index and the extractive composer cut them (the same boundaries)."""
    return split_sentences(text)


# -- checking a draft -----------------------------------------------------------------------------


def unsupported(
    text: str, cited: Sequence[int], sources: ClaimSources, *, spelled: bool = False
) -> list[str]:
    """Problems (Russian, for logs) of the draft's claims; empty when every number stands.

    cited[k - 1] is the context index of the entry marker [k] points to; spelled: numbers
    written in words are claims too (an LLM draft: «тысячу двести гигабайт в секунду»)."""
    problems: list[str] = []
    for paragraph in text.split("\n"):
        sents = sentences(paragraph)
        marks = [_markers(s) for s in sents]
        for i, sentence in enumerate(sents):
            for segment, own in _segments(sentence):
                qs = draft_quantities(segment, sources.lexicon, spelled=spelled)
                if spelled:  # «в 1,5 раза»: a relative claim, checked by answer/relative.py
                    qs = tuple(q for q in qs if q.unit != "times")
                if qs:
                    borrowed = own or _neighbour(marks, i)
                    problems += _check(qs, _groups(borrowed, cited, sources), sources)
    return problems


DRAFT_CACHE = 4096


def draft_quantities(
    segment: str, lexicon: Lexicon, *, spelled: bool = False
) -> tuple[Quantity, ...]:
    """quantities(segment, draft=True), remembered per lexicon (a pure function of the text);
    spelled: numbers in words read as digits first."""
    key = ("\0" if spelled else "") + segment
    found = lexicon.drafts.get(key)
    if found is None:
        found = tuple(quantities(digits(segment) if spelled else segment, lexicon, draft=True))
        if len(lexicon.drafts) >= DRAFT_CACHE:  # LLM drafts are all different: start over
            lexicon.drafts.clear()
        lexicon.drafts[key] = found
    return found


def _markers(sentence: str) -> list[int]:
    return [int(m.group(1)) for m in MARKER.finditer(sentence)]


def _neighbour(marks: list[list[int]], i: int) -> list[int]:
    after = next((m for m in marks[i + 1 :] if m), [])
    before = next((m for m in reversed(marks[:i]) if m), [])
    return after or before


def _segments(sentence: str) -> list[tuple[str, list[int]]]:
    """The sentence cut after each marker group: each part is what its markers support; text
    after the last marker leans on it."""
    out: list[tuple[str, list[int]]] = []
    start = 0
    for m in _MARKER_GROUP.finditer(sentence):
        out.append((sentence[start : m.end()], _markers(m.group(0))))
        start = m.end()
    tail = sentence[start:]
    if not out:
        return [(tail, [])]
    if tail.strip(" .!?"):
        out.append((tail, out[-1][1]))
    return out


def _groups(marks: list[int], cited: Sequence[int], sources: ClaimSources) -> list[Group]:
    """Groups a segment may use: its cited entries' sentences and every tool result; with no
    marker in reach, any cited entry (numeric answers cite their glossary background last)."""
    indexes = [cited[k - 1] for k in marks if 1 <= k <= len(cited)]
    if not marks:
        indexes = list(cited)
    entry_groups = [g for i in indexes if 0 <= i < len(sources.entries) for g in sources.entries[i]]
    return entry_groups + sources.tools


def _check(qs: Sequence[Quantity], groups: list[Group], sources: ClaimSources) -> list[str]:
    rest = [q for q in qs if not _supported(q, sources.user)]
    if not rest or any(all(_supported(q, g) for q in rest) for g in groups):
        return []
    lonely = [q for q in rest if not any(_supported(q, g) for g in groups)]
    if lonely:
        return [f"число «{q.text}» не подтверждено цитируемым источником" for q in lonely]
    shown = ", ".join(f"«{q.text}»" for q in rest)
    return [f"числа {shown} взяты из разных утверждений источников"]


def _supported(q: Quantity, group: Group) -> bool:
    return any(matches(q, s, wildcard=group.wildcard_units) for s in group.quantities)


def matches(q: Quantity, s: Quantity, *, wildcard: bool = False) -> bool:
    """Same value (rounding allowed), compatible unit, and every entity the draft attaches to
    the number (per kind) is one the source attaches to it."""
    if same_unit(q.unit, s.unit, wildcard=wildcard):
        if not same_value(q, s.value):
            return False
    else:  # «2,039 ТБ/с» for a sheet's «2 039 ГБ/с»: the same figure in a unit a thousand apart
        converted = in_unit(s.value, s.unit, q.unit)
        if converted is None or not same_value(q, converted):
            return False
    for kind in KINDS:
        mine = q.of(kind)
        if mine and not mine <= s.of(kind):
            return False
    return TOTAL not in s.entities or TOTAL in q.entities


def same_value(q: Quantity, allowed: float) -> bool:
    if allowed == q.value:
        return True
    if abs(allowed - q.value) > MAX_ROUNDING * abs(allowed):
        return False  # «около 2 ГБ» for 2,15 ГБ, «50» for 45,89: rounded away
    if round(allowed, q.decimals) == q.value:
        return True
    # a tool may give 10.737 where the text says «10,7»
    return abs(allowed - q.value) <= max(0.005 * abs(allowed), 0.5 * 10.0**-q.decimals)


def same_unit(mine: str | None, theirs: str | None, *, wildcard: bool = False) -> bool:
    if mine is None or mine == theirs or theirs == UNKNOWN:
        return True
    if theirs is None:
        return wildcard
    base, _, rate = mine.partition(" per ")
    their_base, _, their_rate = theirs.partition(" per ")
    if base != their_base and not _scaled(base, their_base):
        return False
    return not rate or _same_rate(rate, their_rate)


def _scaled(a: str, b: str) -> bool:
    """«70 млрд» and «70 млрд параметров» state the same quantity."""
    return a.split(" ")[0] == b.split(" ")[0] and a.split(" ")[0] in ("billion", "million")


def _same_rate(a: str, b: str) -> bool:
    hourly = {"hour", "GPU-hour"}
    return a == b or (a in hourly and b in hourly)


def missing_headline(text: str, sources: ClaimSources) -> list[str]:
    """A numeric answer must state what the calculator found: the total, the verdict, the cost."""
    qs = [q for s in sentences(text) for q in quantities(s, sources.lexicon, draft=True)]
    problems = []
    for result in sources.results:
        values = result.get("values") or {}
        tool = str(result.get("tool") or "")
        verdict = values.get("verdict")
        if not isinstance(verdict, str) and isinstance(values.get("fits"), bool):
            verdict = "fits" if values["fits"] else "no"
        if isinstance(verdict, str):  # a fit question: the verdict is the answer
            if not _says_verdict(text, verdict):
                problems.append(f"нет вывода калькулятора {tool} (поместится или нет)")
            continue
        keys = [k for k in headline_keys(tool) if _number(values.get(k))]
        if tool == "gpu_cost":
            keys = keys[:1]
        if keys and not any(_near(q, float(values[k])) for q in qs for k in keys):
            problems.append(f"нет главного результата калькулятора {tool}")
    return problems


def headline_sentence(result: Mapping[str, Any], lexicon: Lexicon) -> str:
    """The sentence of a tool's summary that states its headline (shown to the LLM as «Итог»)."""
    summary = sentences(str(result.get("summary_ru") or ""))
    probe = ClaimSources(lexicon, results=[result])
    for sentence in summary:
        if not missing_headline(sentence, probe):
            return sentence
    return summary[-1] if summary else ""


def headline_keys(tool: str) -> tuple[str, ...]:
    """The calculator's answer: the total, the fit verdict or the cost (Tool.headline)."""
    found = find_tool(tool)
    return found.headline if found else ()


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _near(q: Quantity, value: float) -> bool:
    """The headline as a person would round it: «38–46 ГБ» for 38,4…45,4 (floor or ceiling)."""
    gap = abs(q.value - value)
    close = gap < 10.0**-q.decimals or same_value(q, value)
    return close and gap <= MAX_ROUNDING * abs(value)


def _says_verdict(text: str, verdict: str) -> bool:
    if verdict == "tight":
        return bool(_TIGHT.search(text))
    if verdict == "no":
        return bool(_NEGATED.search(text))
    return bool(_POSITIVE.search(text)) and not _NEGATED.search(text) and not _TIGHT.search(text)
