"""Guard.verify_draft on drafts over fixed sources: what an LLM draft states must be what its
cited sources state — names, numbers, comparisons, sentences."""

from __future__ import annotations

import pytest

from assistant.answer.generation import AnswerContext, EmbeddedGenerator
from assistant.answer.guard import Guard
from assistant.answer.specs import spec_entries
from assistant.corpus.catalog import Catalog
from assistant.corpus.glossary import Entry, Glossary
from assistant.schema import Route
from assistant.settings import Settings


@pytest.fixture(scope="module")
def guard(settings: Settings, glossary: Glossary, catalog: Catalog) -> Guard:
    return Guard(settings, glossary, catalog, EmbeddedGenerator(settings.prompts_dir), None)


@pytest.fixture(scope="module")
def sources(glossary: Glossary, catalog: Catalog) -> dict[str, Entry]:
    return {**glossary.by_slug(), **spec_entries(catalog)}


def problems(guard: Guard, sources: dict[str, Entry], draft: str, *slugs: str) -> list[str]:
    entries = tuple(sources[s] for s in slugs)
    route: Route = "comparison" if len(entries) > 1 else "term"
    ctx = AnswerContext(route=route, message="вопрос", question="вопрос", entries=entries)
    _, _, found = guard.verify_draft(draft, ctx, set())
    return [p.detail for p in found]


def test_a_generation_after_nvlink_is_a_name_not_a_number(
    guard: Guard, sources: dict[str, Entry]
) -> None:
    draft = "У H100 SXM TDP — 700 Вт [1]. Это Hopper в форм-факторе SXM с NVLink 4 [1]."
    assert problems(guard, sources, draft, "gpu-h100-sxm") == []
    assert problems(guard, sources, draft.replace("700", "900"), "gpu-h100-sxm")


@pytest.mark.parametrize(
    ("draft", "slugs"),
    [
        (
            "У H200 141 ГБ HBM3e [1], почти вдвое больше, чем 80 ГБ у H100 SXM [2].",
            ("gpu-h200", "gpu-h100-sxm"),
        ),
        ("У H200 почти вдвое больше памяти, чем у H100 SXM [1][2].", ("gpu-h200", "gpu-h100-sxm")),
        (
            "Пропускная способность памяти у B200 более чем вдвое выше, чем у H100 SXM [1][2].",
            ("gpu-b200", "gpu-h100-sxm"),
        ),
        (
            "У MI355X памяти в полтора раза больше, чем у MI300X [1][2].",
            ("gpu-mi355x", "gpu-mi300x"),
        ),
        ("NVLink передаёт данные намного быстрее, чем PCIe [1].", ("nvlink",)),  # stated
        ("Канал PCIe Gen5 x16 вдвое быстрее Gen4 [1].", ("pcie-gen5",)),  # stated
        (
            "Да, вдвое: NVLink пятого поколения в Blackwell даёт 1,8 ТБ/с, а NVLink четвёртого "
            "поколения в Hopper — 900 ГБ/с на GPU [1].",
            ("nvlink",),
        ),
        (
            "Веса в FP4 занимают около половины байта на параметр [1]. В BF16 — около 2 байт "
            "[2]. Под веса в FP4 нужно примерно вчетверо меньше памяти [1][2].",
            ("fp4", "bf16"),
        ),
    ],
)
def test_a_comparison_stated_or_implied_by_the_sources_stands(
    guard: Guard, sources: dict[str, Entry], draft: str, slugs: tuple[str, ...]
) -> None:
    assert [p for p in problems(guard, sources, draft, *slugs) if "сравнение" in p] == []


@pytest.mark.parametrize(
    ("draft", "slugs"),
    [
        ("У H200 вдвое больше памяти, чем у B300 [1][2].", ("gpu-h200", "gpu-b300")),  # 141 < 288
        (
            "У H200 вдвое больше памяти, чем у H100 SXM [1][2].",
            ("gpu-h200", "gpu-h100-sxm"),
        ),  # 1,76
        (
            "У L40S пропускная способность памяти выше, чем у H100 SXM [1][2].",
            ("gpu-l40s", "gpu-h100-sxm"),
        ),
        ("Канал PCIe Gen5 вдвое медленнее Gen4 [1].", ("pcie-gen5",)),  # the source, reversed
        ("QLoRA работает быстрее, чем LoRA на весах в BF16 [1].", ("qlora",)),  # nothing says so
        ("NCCL ускоряет all-reduce в 8 раз по сравнению с PCIe [1].", ("nccl",)),
        ("FP8 точнее BF16 [1][2].", ("fp8", "bf16")),
    ],
)
def test_a_comparison_nothing_backs_is_rejected(
    guard: Guard, sources: dict[str, Entry], draft: str, slugs: tuple[str, ...]
) -> None:
    assert any("сравнение" in p for p in problems(guard, sources, draft, *slugs))
