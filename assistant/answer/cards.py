"""Understanding + the catalogue (+ the glossary's evidence) → Answer for a card: its spec, cards
compared, whether FullGPU rents it out, what the provider does or includes.

    cards.gpus(u, searched, history)       «сколько памяти у B300?», «B200 или MI355X?»
    cards.provider(u, searched, history)   «у вас есть H100 PCIe?», «делите ли карту?» (None: no
                                           sentence of FullGPU's own answers it)

The figures come from the catalogue's spec sheets (answer/specs.py), cited like entries; the
generated text goes through the same guard as every answer (Answerer's `finish`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from assistant.answer import causes, evidence, leads
from assistant.answer.calculations.choice import BANDWIDTH
from assistant.answer.compose import Picked, SentenceBank, is_reference, standalone, with_marker
from assistant.answer.generation import AnswerContext
from assistant.answer.plans import (
    alternatives,
    lacking_lead,
    listing_lead,
    offered_lead,
    provider_also,
    provider_lead,
    provider_statements,
    vendor_lead,
)
from assistant.answer.specs import (
    comparison_lead,
    fact_sentences,
    same_specs,
    sheet_sentences,
    sheet_slug,
    short_name,
    unknown,
    use_verdict,
)
from assistant.corpus.catalog import Catalog, Gpu
from assistant.corpus.glossary import Entry
from assistant.schema import Answer, AnswerMeta, Route, Turn
from assistant.search.lookup import Searched
from assistant.text.sentences import split_sentences
from assistant.understanding.asks import Ask
from assistant.understanding.causes import Cause
from assistant.understanding.decide import Understanding
from assistant.understanding.lexicon import FP64, GENERATION

# a question about a card no longer than this asks whether it is offered (with «у вас», «есть
# ли» in it: OFFERED_WORDS); a longer one asks something else of it
SHORT_WORDS = 6
# after FullGPU's own sentence, the entry's best others: what is included, what it gives access
# to («ко всем GPU, ядрам CPU, дискам…»), what it does not replace (dev: 1 left such facts out)
PROVIDER_MORE = 2
OFFERED_WORDS = 12
# the memory-bandwidth entry's sentence on a model generating text (cards told apart by speed)
PEAKS = "tflops"  # the entry on how vendors state peak figures
# its sentences: «…с разреженностью… обычно вдвое выше», «Реальные задачи достигают лишь части…»
_SPARSITY = ("разреженностью", "реальные задачи")
_GENERATION = re.compile(rf"(?<![\w])(?:{GENERATION})", re.IGNORECASE)


@dataclass(frozen=True)
class SlowGeneration:
    """The plan of a slow-generation problem (CardAnswers.slow_generation)."""

    slugs: list[str]  # the memory-bandwidth entry first
    lead: tuple[str, str] | None  # (slug, sentence): its sentence on generation
    sheets: tuple[Picked, ...]  # each named card's bandwidth, from its sheet

    def placed(
        self, picked: tuple[Picked, ...], slugs: list[str]
    ) -> tuple[tuple[Picked, ...], list[str]]:
        """The cards' sheets right after the cause (what it means for them), renumbered."""
        order = (picked[0], *self.sheets, *picked[1:])
        numbered = tuple(Picked(p.entry, n, p.sentences) for n, p in enumerate(order, 1))
        return numbered, [slugs[0], *(p.entry.slug for p in self.sheets), *slugs[1:]]


class Finish(Protocol):
    """Generate, verify, cite (Answerer._finish); `refused`: the question is not answered."""

    def __call__(self, ctx: AnswerContext, meta: AnswerMeta, *, refused: bool = ...) -> Answer: ...


class CardAnswers:
    def __init__(
        self, entries: dict[str, Entry], bank: SentenceBank, catalog: Catalog, finish: Finish
    ) -> None:
        self.entries = entries
        self.bank = bank
        self.catalog = catalog
        self.finish = finish

    def gpus(self, u: Understanding, searched: Searched, history: list[Turn]) -> Answer:
        """A card's spec, or cards compared: the figures from their catalogue sheets first, then
        what the glossary says of them (when it covers the question)."""
        gpus = [self.catalog.gpus[g] for g in u.message.gpus][:4]
        family = self.catalog.versions(gpus[0]) if u.reading.variants else []
        if family:  # «на другом облаке H100 была медленнее»: its other versions compared
            gpus = [*gpus[:1], *family][:3]
        sheets = tuple(self.entries[sheet_slug(g.id)] for g in gpus)
        numbers = list(range(1, len(sheets) + 1))
        fields = u.reading.fields
        lacking: list[str] = []
        having: list[Gpu] = []  # the cards that have what the one asked about lacks
        if u.reading.ask is Ask.gpu_comparison and fields[:1] == ("form",):
            lead = [  # «на каком поколении сделаны B200 и RTX 5090»: each card's, then the rest
                with_marker(sheet_sentences(g)["form"], n)
                for g, n in zip(gpus, numbers, strict=True)
            ]
            route: Route = "comparison"
        elif u.reading.ask is Ask.gpu_comparison and len(gpus) > 1:
            lead = [comparison_lead(gpus, numbers, fields)]
            verdict = use_verdict(gpus, numbers, u.message.terms)
            if verdict:  # «что брать: …?» is answered first; «чем отличаются» by the table
                lead = [verdict, *lead] if u.message.signals.pick else [*lead, verdict]
            lead += [x for x in [same_specs(gpus, numbers)] if x]
            if "offered" in fields and not any(g.offered for g in gpus):  # «есть у вас A100 …?»
                instead, extra = self._instead(gpus, numbers)
                lead, sheets = [*instead, *lead], sheets + extra
            lead += [
                with_marker(sheet_sentences(g)["overview"], n)
                for g, n in zip(gpus, numbers, strict=True)
            ]
            route = "comparison"
        else:
            rented = gpus[0].offered or "offered" not in fields  # else: what replaces it first
            disputed = u.reading.disputed and rented
            sparse = u.reading.sparse and rented and not disputed
            asked = searched.question.text
            peaks = self._sparsity(searched, asked) if disputed or sparse else None
            own = 2 if disputed and peaks else 1  # second after how peaks are stated
            lead = [with_marker(s, own) for s in fact_sentences(gpus[0], fields)]
            route = "term"
            if peaks is not None:  # «9 PFLOPS в презентации, а у вас 4500?»: how peaks are given
                entry, said = peaks
                said = [standalone(entry, said[0]), *said[1:]]
                # a dispute is settled by how peaks are stated first; a sparse peak asked for
                # is the sheet's figure, then how sparsity relates to it
                told = [with_marker(x, 1 if disputed else len(sheets) + 1) for x in said]
                sheets = (entry, *sheets) if disputed else (*sheets, entry)
                lead = [*told, *lead] if disputed else [*lead, *told]
            wanted = u.message.terms if u.reading.yes_no else {}  # not «там же не nvlink»
            if peaks is None:  # «4 RTX PRO 6000 с NVLink-мостами можно?»: «Нет» first (below)
                lacking, having = lacking_lead(gpus[0], wanted, self.catalog)
            if "offered" in fields and not gpus[0].offered:  # «можно у вас A100 на 80 гб?»
                lacking, having = [], []
                instead, extra = self._instead(gpus[:1], numbers[:1])
                facts = [f for f in fields if f != "offered"]  # «сколько памяти», if asked too
                said = fact_sentences(gpus[0], facts) if facts else []
                lead = [*instead, *(with_marker(s, 1) for s in said)]
                sheets += extra
        text, question = u.message.text, searched.question.text
        picked = self._about(gpus, searched, question, first=len(sheets) + 1)
        linked = [g.nvlink for g in gpus]
        if route == "comparison" and "interconnect" in fields and any(linked) and not all(linked):
            picked, links = self._links(u, picked, first=len(sheets) + 1)
            lead = [*lead[:1], *links, *lead[1:]]
        if route == "comparison" and re.search(FP64, u.message.tokens.folded):  # «CFD в double»
            picked, double = self._double(gpus, picked, first=len(sheets) + 1)
            lead = [*double, *lead]  # the share of FP64 a card keeps decides first
        if route == "comparison" and "cuda" in u.message.terms:  # «свои ядра на CUDA»
            picked, code = self._code(gpus, picked, first=len(sheets) + 1)
            lead = [*code, *lead]  # what their code runs on decides first
        if u.reading.generation:  # why the bandwidth, not the TFLOPS, sets the pace
            picked = self._why_bandwidth(picked, searched, question, first=len(sheets) + 1)
        # the cards that have what this one lacks are cited after the glossary's entries
        first = len(sheets) + len(picked) + 1
        if lacking:
            lead = self._lacking(gpus[0], fields, lacking, range(first, first + len(having)))
        others = tuple(self.entries[sheet_slug(g.id)] for g in having)
        ctx = AnswerContext(
            route=route,
            message=text,
            question=question,
            history=history,
            entries=sheets + tuple(p.entry for p in picked) + others,
            picked=picked,
            lead=tuple(lead),
        )
        meta = AnswerMeta(
            question=question,
            params=u.carried.stored(),
            slugs=[e.slug for e in ctx.entries],
            confidence="high",
        )
        meta.evidence = [evidence.evidence(p) for p in picked]
        # «какой TDP у B300», «boost clock у RTX 5090»: the catalogue has no such figure
        missing = route == "term" and unknown(gpus[0], fields)
        return self.finish(ctx, meta, refused=missing)

    def _double(
        self, gpus: Sequence[Gpu], picked: tuple[Picked, ...], first: int
    ) -> tuple[tuple[Picked, ...], list[str]]:
        """«CFD в double: RTX 5090 или H100?»: the data-centre card, and why — consumer and
        workstation cards (the RTX ones) keep a small share of their FP32 rate in FP64 (the
        FP64 entry). Nothing when both or neither are RTX cards."""
        desk = [g for g in gpus if "RTX" in g.name]
        rack = [g for g in gpus if "RTX" not in g.name]
        if not desk or not rack:
            return picked, []
        out = [f"Для расчётов в FP64 разумнее {short_name(rack[0])}, а не {short_name(desk[0])}."]
        for entry, sentence in causes.told(Cause.double_on_consumer, self.entries):
            picked, said = leads.cite(picked, entry, sentence, first=first)
            out.append(said)
        return picked, out

    def _code(
        self, gpus: Sequence[Gpu], picked: tuple[Picked, ...], first: int
    ) -> tuple[tuple[Picked, ...], list[str]]:
        """«MI355X или B200? у нас свои ядра на CUDA»: code on CUDA runs on the NVIDIA card; the
        AMD one runs ROCm, its entry says what that is. Nothing when both are one vendor's."""
        nvidia = [g for g in gpus if g.vendor == "nvidia"]
        amd = [g for g in gpus if g.vendor == "amd"]
        rocm = self.entries.get("rocm")
        if not nvidia or not amd or rocm is None:
            return picked, []
        verdict = (
            f"Для своего кода на CUDA разумнее {short_name(nvidia[0])}: {short_name(amd[0])} — "
            "GPU AMD, на нём работает ROCm."
        )
        picked, said = leads.cite(picked, rocm, self.bank.sentences[rocm.slug][0], first=first)
        return picked, [verdict, said]

    def _links(
        self, u: Understanding, picked: tuple[Picked, ...], first: int
    ) -> tuple[tuple[Picked, ...], list[str]]:
        """«под tensor parallel: RTX PRO 6000 или H100?»: why the link decides (the layers'
        results are combined on every layer) and how much slower PCIe is, in figures, cited."""
        out: list[str] = []
        why = causes.tensor_on_every_layer(self.entries)
        if why is not None and "tensor-parallelism" in u.message.terms:
            picked, layers = leads.cite(picked, *why, first=first)
            out.append(layers)
        picked, speeds = leads.link_speeds(self.entries, picked, first=first)
        return picked, [*out, *speeds]

    def _lacking(
        self, gpu: Gpu, fields: Sequence[str], lines: list[str], theirs: range
    ) -> list[str]:
        """«Нет: у … нет NVLink …» on the card's sheet [1], the cards that have it on theirs
        (`theirs`: their sheets' numbers), then what else was asked of the card («в аренде»)."""
        out = [with_marker(lines[0], 1)]
        marks = "".join(f"[{n}]" for n in theirs)
        out += [f"{line.removesuffix('.')} {marks}." for line in lines[1:]]
        rest = [f for f in fields if f not in ("interconnect", "fp4", "fp8")]
        return out + ([with_marker(x, 1) for x in fact_sentences(gpu, rest)] if rest else [])

    def _sparsity(self, searched: Searched, question: str) -> tuple[Entry, list[str]] | None:
        """The TFLOPS entry's sentences on peaks stated with and without sparsity, and on what
        real work reaches, in the entry's order."""
        entry = self.entries.get(PEAKS)
        if entry is None:
            return None
        found = evidence.mentioning(self.bank, entry, searched.retrieval, question, _SPARSITY)
        ordered = [s for s in self.bank.sentences[entry.slug] if s in found[:2]]
        return (entry, ordered) if ordered else None

    def _instead(self, gpus: list[Gpu], numbers: list[int]) -> tuple[list[str], tuple[Entry, ...]]:
        """Cards FullGPU does not rent out: «Нет: … не предлагает …» (their sheets' markers) and
        the offered card that replaces them (its sheet, numbered next), with that sheet."""
        others, family = alternatives(gpus[0], self.catalog)
        alt = others[:1]
        if len(gpus) == 1:
            lines = offered_lead(gpus[0], alt, family)
        else:
            names = " и ".join(short_name(g) for g in gpus)
            lines = [f"Нет: FullGPU не предлагает {names} в аренду."]
            lines += [f"Вместо них есть {short_name(alt[0])}."] if alt else []
        marks = ["".join(f"[{n}]" for n in numbers), f"[{len(numbers) + 1}]"]
        lead = [
            f"{line.removesuffix('.')} {mark}." for line, mark in zip(lines, marks, strict=False)
        ]
        return lead, tuple(self.entries[sheet_slug(g.id)] for g in alt)

    def provider(self, u: Understanding, searched: Searched, history: list[Turn]) -> Answer | None:
        """What FullGPU does, includes or does not: its own sentence first, yes or no before
        it; whether a card is rented out, from its sheet. None: no such sentence found."""
        gpus = [self.catalog.gpus[g] for g in u.message.gpus]
        # «а H200 у вас есть?» asks whether it is rented out; «арендую у вас H200 — на ней не
        # будут крутиться чужие задачи?» asks something else about it: FullGPU's sentences
        n = u.message.asked_words
        fields = u.reading.fields
        asked = (fields == ("offered",) and n <= OFFERED_WORDS) or (
            fields == () and n <= SHORT_WORDS
        )
        only_cards = not self._named(u, gpus) and asked
        if only_cards and (len(gpus) == 1 or (not gpus and u.reading.vendors)):
            return self._offered(u, gpus[:1], searched, history)
        if u.reading.listing and not gpus:  # «какие карты у вас можно взять?»: all of them
            return self._offered(u, [], searched, history)
        question = searched.question.text
        scored = provider_statements(self.bank, self.entries, searched.retrieval, question)
        found = provider_lead(scored, question, u.reading)
        if found is None:
            return None
        entry = found.entry
        own = self.bank.scores(entry, searched.retrieval.vector, question)
        rest = [
            s
            for s, _ in sorted(own, key=lambda x: -x[1])
            if s != found.sentence and not is_reference(s, entry)
        ][:PROVIDER_MORE]
        picked = [Picked(entry, 1, tuple(rest))] if rest else []
        lead = [with_marker(found.text, 1)]
        if "memory" in fields and gpus:  # «все 80 гигов будут мои?»: the card's memory, its sheet
            sheet = self.entries[sheet_slug(gpus[0].id)]
            picked.append(Picked(sheet, 2, ()))
            lead.append(with_marker(sheet_sentences(gpus[0])["memory"], 2))
        also = provider_also(self.bank, self.entries, scored, found)
        if also is not None:  # «MIG или time-slicing?»: FullGPU's word on each
            joined, number = leads.joined(tuple(picked), also.entry, first=2)
            picked = list(joined)
            lead += [with_marker(s, number) for s in split_sentences(also.text)]
        top = self.entries.get(searched.retrieval.hits[0].slug) if searched.retrieval.hits else None
        cited = {entry.slug, *(p.entry.slug for p in picked)}
        if top is not None and top.slug not in cited:  # the best entry stays cited, as support
            best = evidence.answering(
                self.bank, self.entries, [top.slug], searched.retrieval, question
            )
            if best is not None:
                after = max((p.number for p in picked), default=1)  # the lead's entry is [1]
                picked.append(Picked(top, after + 1, (best[1],)))
        ctx = AnswerContext(
            route="term",
            message=u.message.text,
            question=question,
            history=history,
            entries=(entry, *(p.entry for p in picked if p.entry.slug != entry.slug)),
            picked=tuple(picked),
            lead=tuple(lead),
        )
        meta = AnswerMeta(
            question=question,
            params=u.carried.stored(),
            slugs=[e.slug for e in ctx.entries],
            confidence=searched.scope.confidence,
        )
        meta.evidence = [evidence.evidence(p) for p in picked]
        return self.finish(ctx, meta)

    def _offered(
        self, u: Understanding, gpus: list[Gpu], searched: Searched, history: list[Turn]
    ) -> Answer:
        """«H100 PCIe у вас есть?»: yes or no from the card's sheet and what FullGPU rents out
        instead; «у вас AMD есть?»: the vendor's cards it rents out, from their sheets."""
        if gpus:
            others, family = alternatives(gpus[0], self.catalog)
            lines = offered_lead(gpus[0], others[:1], family)
            cards = [gpus[0], *others[:1]] if len(lines) > 1 else gpus[:1]
            lead = [with_marker(line, n) for n, line in enumerate(lines, 1)]
        else:
            vendors = u.reading.vendors
            cards = [
                g
                for g in self.catalog.gpus.values()
                if g.offered and (g.vendor in vendors or not vendors)
            ]
            marks = "".join(f"[{n}]" for n in range(1, len(cards) + 1))
            said = vendor_lead(cards) if vendors else listing_lead(cards)
            lead = [said.removesuffix(".") + f" {marks}."]
        sheets = tuple(self.entries[sheet_slug(g.id)] for g in cards)
        question = searched.question.text
        ctx = AnswerContext(
            route="term",
            message=u.message.text,
            question=question,
            history=history,
            entries=sheets,
            lead=tuple(lead),
        )
        meta = AnswerMeta(
            question=question,
            params=u.carried.stored(),
            slugs=[e.slug for e in sheets],
            confidence="high",
        )
        return self.finish(ctx, meta)

    def _named(self, u: Understanding, gpus: list[Gpu]) -> list[str]:
        """Glossary entries the customer wrote out, not implied by a card or part of its name
        («H100 PCIe» does not ask about PCIe Gen5)."""
        names = " ".join(f"{g.name} {' '.join(g.aliases)}" for g in gpus).lower()
        return [
            slug
            for slug, strength in u.message.terms.items()
            if strength >= 1.0
            and slug in self.entries
            and not any(n.lower() in names for n in self.entries[slug].names if len(n) >= 3)
        ]

    def slow_generation(
        self, u: Understanding, searched: Searched, slugs: list[str]
    ) -> SlowGeneration | None:
        """«генерит медленнее, чем ждали»: the memory bandwidth is the cause however the entries
        rank — its entry first, its sentence on generation the lead, and the named cards'
        bandwidth from their sheets second. None: not a slow-generation problem."""
        if not (u.reading.ask is Ask.problem and u.reading.generation):
            return None
        if BANDWIDTH not in self.entries:
            return None
        order = [BANDWIDTH, *(s for s in slugs if s != BANDWIDTH)][:3]
        why = self.why_slow(searched, searched.question.text)
        sheets = []
        for gpu_id in list(u.message.gpus)[:2]:
            sheet = self.entries.get(sheet_slug(gpu_id))
            if sheet is not None and gpu_id in self.catalog.gpus:
                said = fact_sentences(self.catalog.gpus[gpu_id], ["bandwidth"])[0]
                sheets.append(Picked(sheet, 0, (said,)))
        return SlowGeneration(order, (BANDWIDTH, why) if why else None, tuple(sheets))

    def why_slow(self, searched: Searched, question: str) -> str | None:
        """The memory-bandwidth entry's sentence on generation (why tokens come slowly), the
        best of them for this question; None: no such entry or sentence."""
        entry = self.entries.get(BANDWIDTH)
        if entry is None:
            return None
        scored = self.bank.scores(entry, searched.retrieval.vector, question)
        ranked = [s for s, _ in sorted(scored, key=lambda x: -x[1])]
        found = [s for s in ranked if _GENERATION.search(s) and not is_reference(s, entry)]
        return found[0] if found else None

    def _why_bandwidth(
        self, picked: tuple[Picked, ...], searched: Searched, question: str, first: int
    ) -> tuple[Picked, ...]:
        """The memory-bandwidth entry's sentence on generation first, the other entries after."""
        entry = self.entries.get(BANDWIDTH)
        found = self.why_slow(searched, question)
        if entry is None or found is None:
            return picked
        rest = [p for p in picked if p.entry.slug != BANDWIDTH][:1]
        own = Picked(entry, first, (standalone(entry, found),))
        return (own, *(Picked(p.entry, first + 1 + i, p.sentences) for i, p in enumerate(rest)))

    def _about(
        self, gpus: list[Gpu], searched: Searched, question: str, first: int
    ) -> tuple[Picked, ...]:
        """What the glossary's top entries say of these cards: one sentence each, only one
        that names a card (a general sentence about memory would not answer for a T4)."""
        names = [n for g in gpus for n in g.aliases]
        out: list[Picked] = []
        for hit in searched.retrieval.hits[:3]:
            entry = self.entries.get(hit.slug)
            if entry is None or len(out) >= 2:
                continue
            found = evidence.mentioning(self.bank, entry, searched.retrieval, question, names)
            if found:  # one sentence out of its entry: «Его используют…» needs «OAM: его…»
                out.append(Picked(entry, first + len(out), (standalone(entry, found[0]),)))
        return tuple(out)
