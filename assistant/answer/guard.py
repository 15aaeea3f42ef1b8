"""Answer context → text that may leave the engine: generate, verify, regenerate, fall back.

Every answer passes the same checks whichever generator wrote it: citations only from the
retrieved context, every number from a tool result, a cited entry or the user's own words; an
LLM draft must also stand on its sources and must not echo its instructions. A rejected draft is
regenerated once, then the embedded answer is used and the reason recorded.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from assistant.answer import grounding
from assistant.answer.generation import AnswerContext, EmbeddedGenerator, LLMGenerator, renumber
from assistant.corpus.catalog import Catalog
from assistant.corpus.glossary import Entry, Glossary
from assistant.errors import AssistantError, LLMUnavailableError
from assistant.schema import AnswerMeta, Citation
from assistant.settings import Settings

log = logging.getLogger(__name__)
MIN_SUPPORT = 0.6  # share of an LLM draft's content words that must come from its sources


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

    def produce(self, ctx: AnswerContext, meta: AnswerMeta) -> tuple[str, list[Citation], str]:
        """(text, citations, generator name) of an answer that passed every check."""
        return self._generate(ctx, meta, self.sources(ctx))

    def sources(self, ctx: AnswerContext) -> grounding.Sources:
        sources = grounding.Sources(names=set(self.known_names), phrases=self.name_phrases)
        sources.add(
            ctx.message, ctx.question, *(t.content for t in ctx.history if t.role == "user")
        )
        for entry in ctx.entries:
            sources.add(entry.title, entry.text)
        if ctx.outcome is not None:
            for result in ctx.outcome.results:
                sources.add_json(result.model_dump())
            sources.add(ctx.outcome.answer_ru)
        return sources

    def _generate(
        self, ctx: AnswerContext, meta: AnswerMeta, sources: grounding.Sources
    ) -> tuple[str, list[Citation], str]:
        llm = self.llm if self.llm is not None and ctx.route in self.llm.routes else None
        if llm is not None and llm.available:
            for _attempt in range(2):  # one regeneration, then the embedded answer
                try:
                    draft = llm.generate(ctx)
                except LLMUnavailableError as e:
                    meta.fallback_reason = f"llm_unavailable: {e.user_message}"
                    break
                except AssistantError as e:
                    meta.fallback_reason = f"llm_error: {type(e).__name__}"
                    break
                text, citations, problems = self._verify_llm(draft, llm, ctx, sources)
                if not problems:
                    return text, citations, llm.name
                meta.grounding_violations += len(problems)
                meta.fallback_reason = "grounding: " + "; ".join(problems[:3])
                log.info("LLM draft rejected: %s", problems)
        elif llm is not None:
            meta.fallback_reason = "llm_unavailable: circuit open"
        return self._embedded(ctx, meta, sources)

    def _verify_llm(
        self, draft: str, llm: LLMGenerator, ctx: AnswerContext, sources: grounding.Sources
    ) -> tuple[str, list[Citation], list[str]]:
        text, used = renumber(draft, len(ctx.entries))
        citations = [self.citation(ctx.entries[i]) for i in used]
        problems = grounding.check(text, citations, [e.slug for e in ctx.entries], sources)
        if not 20 <= len(text) <= 1500:
            problems.append("длина ответа вне допустимого")
        if ctx.entries and not citations and ctx.route != "numeric":
            problems.append("нет ссылок на источники")
        if grounding.support_ratio(text, sources) < MIN_SUPPORT:
            problems.append("текст не опирается на источники")
        if grounding.echoes(text, llm.instructions):
            problems.append("черновик повторяет служебные инструкции")
        problems += [
            f"ссылка не из источников: {u}" for u in grounding.foreign_links(text, sources)
        ]
        if grounding.degenerate(text):
            problems.append("повторы или список источников в тексте")
        return text, citations, problems

    def _embedded(
        self, ctx: AnswerContext, meta: AnswerMeta, sources: grounding.Sources
    ) -> tuple[str, list[Citation], str]:
        text = self.embedded.generate(ctx)
        citations = [self.citation(e) for e in ctx.entries]
        problems = grounding.check(text, citations, [e.slug for e in ctx.entries], sources)
        if problems:  # a composer bug: never let it out; the metric makes it visible
            log.error("embedded answer failed checks: %s", problems)
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
    """Catalogue model and GPU names with digits, longest first (for number grounding)."""
    names = {n for n in catalog.all_names() if any(c.isdigit() for c in n) and " " in n}
    names |= {"Llama 3", "Llama 3.1", "Qwen 2.5", "Qwen 3", "RTX 5090", "PCIe Gen5"}
    return tuple(sorted(names, key=len, reverse=True))
