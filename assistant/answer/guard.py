"""Answer context → text that may leave the engine: generate, verify, regenerate, fall back.

Every answer passes the same checks whichever generator wrote it: citations only from the
retrieved context, every number supported by the same claim of a cited sentence, a tool result
or the user's own words (assistant/answer/support.py); a numeric LLM answer must state the
calculator's result; an LLM draft must also stand on its sources, must not echo its
instructions and must be plain text (assistant/answer/plain.py), and every answer is stripped
of markup and hidden characters before it leaves. All LLM drafts of one answer share one
deadline (ASSISTANT_LLM_TIMEOUT_S). A rejected draft is regenerated once if time allows, then
the embedded answer is used and the reason recorded: a code from a fixed set
(AnswerMeta.fallback_reason) plus a detail for logs.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Sequence
from dataclasses import replace

from assistant.answer import grounding, plain, relative
from assistant.answer.backing import Backing, unbacked
from assistant.answer.claims import Lexicon
from assistant.answer.generation import AnswerContext, EmbeddedGenerator, LLMGenerator, renumber
from assistant.answer.grounding import Problem
from assistant.answer.specs import spec_entries
from assistant.answer.support import ClaimSources
from assistant.corpus.catalog import Catalog
from assistant.corpus.glossary import Entry, Glossary
from assistant.errors import (
    AssistantError,
    Kind,
    LLMCircuitOpenError,
    LLMTimeoutError,
    LLMUnavailableError,
    first_match,
)
from assistant.schema import Answer, AnswerMeta, Citation, FallbackReason, Turn
from assistant.settings import Settings

log = logging.getLogger(__name__)
MIN_SUPPORT = 0.6  # share of an LLM draft's content words that must come from its sources
REDRAFT_SHARE = 0.25  # a second draft only if this share of the LLM deadline is left
_QUANTITY_NAME = re.compile(r"\d\s*(?:гб|gb|тб|tb)$", re.IGNORECASE)


class Guard:
    def __init__(
        self,
        settings: Settings,
        glossary: Glossary,
        catalog: Catalog,
        embedded: EmbeddedGenerator,
        llm: LLMGenerator | None,
    ) -> None:
        self.settings = settings
        self.embedded = embedded
        self.llm = llm
        self.known_names = known_names(glossary, catalog)
        self.name_phrases = name_phrases(catalog)
        self.glossary = {**glossary.by_slug(), **spec_entries(catalog)}  # what may be cited
        self.lexicon = Lexicon.build(glossary, catalog)
        for phrase in self.name_phrases:  # «Llama 3»: its digit is part of a name
            self.lexicon.add(phrase, f"name:{phrase.lower()}", overwrite=False)

    def produce(self, ctx: AnswerContext, meta: AnswerMeta) -> tuple[str, list[Citation], str]:
        """(text, citations, generator name) of an answer that passed every check, as plain
        text whichever generator wrote it (no markup, no control or bidi characters)."""
        text, citations, generator = self._generate(ctx, meta, self.sources(ctx))
        return plain.plain(text), citations, generator

    def sources(self, ctx: AnswerContext) -> grounding.Sources:
        sources = grounding.Sources(names=set(self.known_names), phrases=self.name_phrases)
        user = [ctx.message, ctx.question, *(t.content for t in ctx.history if t.role == "user")]
        sources.add(*user)
        for entry in ctx.entries:
            sources.add(entry.title, entry.text)
        results = [r.model_dump() for r in ctx.outcome.results] if ctx.outcome else []
        for result in results:
            sources.add_json(result)
        sources.add(ctx.tool_text)
        sources.claims = ClaimSources.build(
            self.lexicon, ctx.entries, results, user, [ctx.tool_text]
        )
        return sources

    def backing(self, ctx: AnswerContext) -> Backing:
        """The sentences an LLM draft may stand on: the entries', the calculator's text and
        notes, the customer's words."""
        results = ctx.outcome.results if ctx.outcome else []
        notes = [r.summary_ru for r in results] + [a for r in results for a in r.assumptions_ru]
        user = [ctx.message, ctx.question, *(t.content for t in ctx.history if t.role == "user")]
        entries = [(e.title, e.text, e.names) for e in ctx.entries]
        return Backing.build(self.lexicon, entries, [ctx.tool_text, *notes], user)

    def recheck(
        self, answer: Answer, history: Sequence[Turn] = (), message: str = ""
    ) -> list[Problem]:
        """Re-verify an answer from its public fields alone (citations, tool calls): what an
        auditor can check after the fact, with the same claim-level rules."""
        entries = [self.glossary[c.slug] for c in answer.citations if c.slug in self.glossary]
        sources = grounding.Sources(names=set(self.known_names), phrases=self.name_phrases)
        user = [message, answer.meta.question, *(t.content for t in history if t.role == "user")]
        sources.add(*user, *(f"{e.title} {e.text}" for e in entries))
        results = [call.result for call in answer.tool_calls]
        for result in results:
            sources.add_json(result)
        sources.claims = ClaimSources.build(self.lexicon, entries, results, user)
        order = list(range(len(entries)))
        context = answer.meta.slugs or [c.slug for c in answer.citations]
        return grounding.verify(answer.answer, answer.citations, context, sources, cited=order)

    def _generate(
        self, ctx: AnswerContext, meta: AnswerMeta, sources: grounding.Sources
    ) -> tuple[str, list[Citation], str]:
        llm = self.llm if self.llm is not None and ctx.route in self.llm.routes else None
        if llm is not None and llm.available:
            drafted = self._llm(llm, ctx, meta, sources)
            if drafted is not None:
                return drafted
        elif llm is not None:
            _fallback(meta, "llm_circuit_open", "circuit open")
        return self._embedded(ctx, meta, sources)

    def _llm(
        self, llm: LLMGenerator, ctx: AnswerContext, meta: AnswerMeta, sources: grounding.Sources
    ) -> tuple[str, list[Citation], str] | None:
        """Up to two drafts within one deadline; None → the embedded answer (reason recorded)."""
        budget = self.settings.llm_timeout_s
        deadline = time.monotonic() + budget
        for attempt in range(2):  # one regeneration, then the embedded answer
            left = deadline - time.monotonic()
            if attempt and left < REDRAFT_SHARE * budget:
                break  # no time for a second draft: the user's answer comes first
            try:
                draft = llm.generate(ctx, timeout_s=left)
            except AssistantError as e:
                _fallback(meta, _error_code(e), str(e))
                return None
            text, citations, problems = self.verify_draft(draft, ctx, llm.instructions, sources)
            if not problems:  # a redraft passed: no fallback (the caught problems still count)
                _fallback(meta, "", "")
                return text, citations, llm.name
            meta.grounding_violations += len(problems)
            _fallback(meta, problems[0].code, "; ".join(p.detail for p in problems[:3]))
            log.info("LLM draft rejected: %s", [p.detail for p in problems])
        return None

    def verify_draft(
        self,
        draft: str,
        ctx: AnswerContext,
        instructions: set[tuple[str, ...]],
        sources: grounding.Sources | None = None,
    ) -> tuple[str, list[Citation], list[Problem]]:
        """An LLM draft's text (markers renumbered), its citations and every problem found;
        `instructions`: the word n-grams of the prompts a draft must not echo."""
        sources = sources or self.sources(ctx)
        text, used = renumber(draft, len(ctx.entries))
        citations = [self.citation(ctx.entries[i]) for i in used]
        context = [e.slug for e in ctx.entries]
        numeric = ctx.route == "numeric"
        problems = grounding.verify(
            text, citations, context, sources, cited=used, headline=numeric, spelled=True
        )
        if ctx.entries and not citations and not numeric:
            problems.append(Problem("grounding_citations", "нет ссылок на источники"))
        problems += _form_problems(text, instructions, sources)
        if sources.claims is not None:  # comparisons: stated by a source or implied by figures
            found = relative.unsupported(text, used, sources.claims)
            problems += [Problem("grounding_numbers", p) for p in found]
        # every sentence on its cited source (after the cheaper checks: their codes come first)
        problems += [
            Problem("unsupported_text", p) for p in unbacked(text, used, self.backing(ctx))
        ]
        return text, citations, problems

    def _embedded(
        self, ctx: AnswerContext, meta: AnswerMeta, sources: grounding.Sources
    ) -> tuple[str, list[Citation], str]:
        text = self.embedded.generate(ctx)
        citations = [self.citation(e) for e in ctx.entries]
        context = [e.slug for e in ctx.entries]
        problems = grounding.verify(text, citations, context, sources)
        if problems:  # a composer bug: never let it out; the metric makes it visible
            log.error("embedded answer failed checks: %s", [p.detail for p in problems])
            meta.grounding_violations += len(problems)
            safe = replace(ctx, route="not_found", entries=ctx.entries[:2], defined_term="")
            text = self.embedded.generate(safe)
        return text, citations, self.embedded.name

    def citation(self, entry: Entry) -> Citation:
        return Citation(
            slug=entry.slug,
            title=entry.title,
            url=self.settings.public_base_url.rstrip("/") + entry.url,
        )


def _form_problems(
    text: str, instructions: set[tuple[str, ...]], sources: grounding.Sources
) -> list[Problem]:
    """What makes a draft no answer whatever it claims: length, a cut-off end, prose that
    stands on nothing, echoed instructions, foreign links, loops and lists, markup, hidden
    characters."""
    problems = []
    if not 20 <= len(text) <= 1500:
        problems.append(Problem("length", f"длина ответа {len(text)} вне 20…1500"))
    elif grounding.cut_off(text):
        problems.append(Problem("length", "ответ оборван на середине предложения"))
    if grounding.support_ratio(text, sources) < MIN_SUPPORT:
        problems.append(Problem("unsupported_text", "текст не опирается на источники"))
    if grounding.echoes(text, instructions):
        problems.append(Problem("echo", "черновик повторяет служебные инструкции"))
    problems += [
        Problem("foreign_link", f"ссылка не из источников: {u}")
        for u in grounding.foreign_links(text, sources)
    ]
    problems += [
        Problem("foreign_link", f"путь к статье в тексте: {p}")
        for p in grounding.glossary_paths(text)
    ]
    if grounding.degenerate(text):
        problems.append(Problem("degenerate", "повторы, список или разметка вместо текста"))
    problems += [Problem("degenerate", f"разметка в тексте: {m}") for m in plain.markup(text)]
    hidden = plain.controls(text)
    if hidden:
        problems.append(Problem("degenerate", f"скрытые символы: {', '.join(hidden[:4])}"))
    return problems


def _fallback(meta: AnswerMeta, code: FallbackReason, detail: str) -> None:
    meta.fallback_reason = code
    meta.fallback_detail = detail[:500]


_LLM_FAILURES: tuple[tuple[Kind, FallbackReason], ...] = (
    (LLMTimeoutError, "llm_timeout"),
    (LLMCircuitOpenError, "llm_circuit_open"),
    (LLMUnavailableError, "llm_unavailable"),
)


def _error_code(error: AssistantError) -> FallbackReason:
    return first_match(error, _LLM_FAILURES, "llm_error")


def known_names(glossary: Glossary, catalog: Catalog) -> set[str]:
    """Product names with digits (H100, FP8, 70B) known to the glossary and the catalogues.

    The catalogue files are read whole: their notes and sources name products too.
    """
    found: set[str] = set()
    for entry in glossary.entries:
        found |= grounding.name_tokens(" ".join((entry.text, *entry.names)))
    for name in ("gpus.yaml", "models.yaml"):
        found |= grounding.name_tokens((catalog.directory / name).read_text("utf-8"))
    return found


def name_phrases(catalog: Catalog) -> tuple[str, ...]:
    """Catalogue model and GPU names with digits, longest first (for number grounding); not a
    name ending in a quantity («h100 94 гб»): its number is a claim, not part of a name."""
    names = {
        n
        for n in catalog.all_names()
        if any(c.isdigit() for c in n) and " " in n and not _QUANTITY_NAME.search(n)
    }
    names |= {"Llama 3", "Llama 3.1", "Qwen 2.5", "Qwen 3", "RTX 5090", "PCIe Gen5"}
    names |= {f"NVLink {n}" for n in range(1, 7)}  # «NVLink 4, 900 ГБ/с»: a generation
    return tuple(sorted(names, key=lambda n: (-len(n), n)))
