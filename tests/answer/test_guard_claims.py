"""Guard.verify_draft on drafts over fixed sources: what an LLM draft states must be what its
cited sources state — names, numbers, comparisons, sentences."""

from __future__ import annotations

import pytest

from assistant.answer.generation import AnswerContext, EmbeddedGenerator
from assistant.answer.guard import Guard
from assistant.answer.specs import spec_entries
from assistant.corpus.catalog import Catalog
from assistant.corpus.glossary import Entry, Glossary
from assistant.settings import Settings


@pytest.fixture(scope="module")
def guard(settings: Settings, glossary: Glossary, catalog: Catalog) -> Guard:
    return Guard(settings, glossary, catalog, EmbeddedGenerator(settings.prompts_dir), None)


@pytest.fixture(scope="module")
def sources(glossary: Glossary, catalog: Catalog) -> dict[str, Entry]:
    return {**glossary.by_slug(), **spec_entries(catalog)}


def problems(guard: Guard, sources: dict[str, Entry], draft: str, *slugs: str) -> list[str]:
    entries = tuple(sources[s] for s in slugs)
    route = "comparison" if len(entries) > 1 else "term"
    ctx = AnswerContext(route=route, message="вопрос", question="вопрос", entries=entries)
    _, _, found = guard.verify_draft(draft, ctx, set())
    return [p.detail for p in found]


def test_a_generation_after_nvlink_is_a_name_not_a_number(
    guard: Guard, sources: dict[str, Entry]
) -> None:
    draft = "У H100 SXM TDP — 700 Вт [1]. Это Hopper в форм-факторе SXM с NVLink 4 [1]."
    assert problems(guard, sources, draft, "gpu-h100-sxm") == []
    assert problems(guard, sources, draft.replace("700", "900"), "gpu-h100-sxm")
