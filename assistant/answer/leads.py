"""Picked sentences + what the answer plan found → the cited sentences put in front of an
answer, with the picked entries they come from.

    joined(picked, entry)             (picked, n): the entry among the sources, its number
    cite(picked, entry, sentence)     («…», [n]): a sentence said in the lead, cited
    cite_all(picked, said)            several, in order («…[1]. Это самый простой… [1]»)
    side_by_side(bank, picked)        «A — … [1], а B — … [2].»: two terms' definitions
    link_speeds(entries, picked)      the PCIe and NVLink figures, cited, after «через PCIe»
    argues_active(catalog, message)   «всего 37b активных»: reasoning from an MoE's active part
    traffic(picked, entries, terms)   «…на каждом MoE-слое между GPU возникает трафик…» [2]
    linked_cards(picked, entries, catalog, gpu)
                                      «NVLink есть у … — они есть в аренде у FullGPU [3][4].»

A sentence moved to the lead leaves its entry's paragraph, so nothing is said twice; an entry
not yet picked joins the sources with no paragraph of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from assistant.answer import diagnosis
from assistant.answer.compose import Picked, SentenceBank, lead, standalone, with_marker
from assistant.answer.plans import BETWEEN_CARDS, lacking_lead
from assistant.answer.specs import sheet_slug
from assistant.corpus.catalog import Catalog, Gpu
from assistant.corpus.glossary import Entry
from assistant.text.sentences import split_sentences
from assistant.understanding.reader import ParsedMessage

# the links compared when cards talk over PCIe without NVLink: each entry gives its figure
LINK_ENTRIES = ("pcie-gen5", "nvlink")


def joined(
    picked: tuple[Picked, ...], entry: Entry, first: int = 1
) -> tuple[tuple[Picked, ...], int]:
    """The entry among the sources and its number: one already picked keeps its own, another
    joins after the rest with no sentence of its own (`first`: where numbering starts)."""
    at = next((p for p in picked if p.entry is entry), None)
    if at is not None:
        return picked, at.number
    number = max((p.number for p in picked), default=first - 1) + 1
    return (*picked, Picked(entry, number, ())), number


def cite(
    picked: tuple[Picked, ...], entry: Entry, sentence: str, first: int = 1
) -> tuple[tuple[Picked, ...], str]:
    """`sentence` of `entry` said in the lead, with its marker: an entry not yet picked joins with
    no sentence of its own, one already picked gives the sentence up to the lead. `first`: the
    number the picked entries start at (after the cards' sheets)."""
    joined_, number = joined(picked, entry, first)
    out = list(joined_)
    at = next(i for i, p in enumerate(out) if p.number == number)
    p = out[at]
    # an entry's definition names its subject in front («Blackwell — архитектура…»); another
    # sentence is made to stand alone; a paragraph may hold it in that form (evidence.py)
    first = split_sentences(entry.text)[:1] == [sentence]
    said = lead(entry, sentence) if first else standalone(entry, sentence)
    out[at] = Picked(entry, p.number, tuple(x for x in p.sentences if x not in (sentence, said)))
    return tuple(out), with_marker(said, p.number)


def cite_all(
    picked: tuple[Picked, ...], said: Sequence[tuple[Entry, str]]
) -> tuple[tuple[Picked, ...], tuple[str, ...]]:
    """Several entries' sentences said in the lead, in order, each cited; a sentence that
    follows another of its entry reads on from it («…батча [1]. Это самый простой…» [1])."""
    out: list[str] = []
    before: Entry | None = None
    for entry, sentence in said:
        picked, text = cite(picked, entry, sentence)
        if entry is before:
            number = next(p.number for p in picked if p.entry is entry)
            text = with_marker(sentence, number)
        out.append(text)
        before = entry
    return picked, tuple(out)


def side_by_side(
    bank: SentenceBank, picked: tuple[Picked, ...]
) -> tuple[tuple[Picked, ...], tuple[str, ...]]:
    """«Параллелизм по данным — … [1], а тензорный параллелизм — … [2].»: the first two
    entries' definitions in one sentence, each with its marker, taken out of their paragraphs;
    nothing when either paragraph does not hold its definition."""
    first, second = picked[0], picked[1]
    heads = [bank.sentences[p.entry.slug][0] for p in (first, second)]
    if any(h not in p.sentences for h, p in zip(heads, (first, second), strict=True)):
        return picked, ()
    a = with_marker(lead(first.entry, heads[0]), first.number).rstrip(".")
    b = with_marker(lead(second.entry, heads[1]), second.number)
    if b[:1].isupper() and b[1:2].islower() and not b[:1].isascii():
        b = b[0].lower() + b[1:]  # «тензорный параллелизм» after «а»; «RoCE» stays as it is
    rest = tuple(
        Picked(p.entry, p.number, tuple(x for x in p.sentences if x not in heads)) for p in picked
    )
    return rest, (f"{a}, а {b}",)


def link_speeds(
    entries: Mapping[str, Entry], picked: tuple[Picked, ...], first: int = 1
) -> tuple[tuple[Picked, ...], tuple[str, ...]]:
    """The PCIe and NVLink entries' sentences with their figures («Канал Gen5 x16 передаёт
    около 64 ГБ/с…», «…900 ГБ/с на GPU…»), cited."""
    said: list[str] = []
    for slug in LINK_ENTRIES:
        entry = entries.get(slug)
        sentence = diagnosis.with_speed(entry) if entry is not None else ""
        if entry is not None and sentence:
            picked, marked = cite(picked, entry, sentence, first)
            said.append(marked)
    return picked, tuple(said)


def argues_active(catalog: Catalog, message: ParsedMessage) -> bool:
    """The customer reasons from a named MoE's active parameters («всего 37b активных»)."""
    models = [catalog.models.get(m) for m in message.models]
    return message.signals.active and any(m is not None and m.active_b for m in models)


# the sentence of a work's entry on how often its cards exchange data («на каждом MoE-слое»)
_EVERY_STEP = re.compile(r"на\s+каждом\s+(?:MoE-)?слое|после\s+каждого\s+шага")


def traffic(
    picked: tuple[Picked, ...], entries: Mapping[str, Entry], terms: Iterable[str]
) -> tuple[tuple[Picked, ...], str | None]:
    """Why the link matters for the work the customer names: its entry's sentence on data
    exchanged on every layer or step, cited. None: no such work named."""
    for slug in (t for t in terms if t in BETWEEN_CARDS):
        entry = entries.get(slug)
        said = [s for s in split_sentences(entry.text) if _EVERY_STEP.search(s)] if entry else []
        if entry is not None and said:
            return cite(picked, entry, said[-1])
    return picked, None


def linked_cards(
    picked: tuple[Picked, ...], entries: Mapping[str, Entry], catalog: Catalog, gpu: Gpu
) -> tuple[tuple[Picked, ...], str | None]:
    """What helps when cards without NVLink scale badly: the offered cards of the vendor that
    have it, each sheet joining the sources («NVLink есть у NVIDIA H100 SXM и NVIDIA H200 — они
    есть в аренде у FullGPU [3][4].»). None: the card has NVLink, or no offered card has it."""
    lines, having = lacking_lead(gpu, {"nvlink"}, catalog)
    sheets = [e for g in having if (e := entries.get(sheet_slug(g.id))) is not None]
    if len(lines) < 2 or len(sheets) < len(having):
        return picked, None
    marks = []
    for sheet in sheets:
        picked, number = joined(picked, sheet)
        marks.append(f"[{number}]")
    return picked, f"{lines[1].removesuffix('.')} {''.join(marks)}."
