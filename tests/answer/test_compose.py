"""Extracted sentences read on their own: no dangling «Он …», the general entry leads for «HBM»."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.answer.compose import (
    Picked,
    general_first,
    paragraph,
    resolve_pronoun,
    standalone,
)
from assistant.text.sentences import split_sentences
from tests.helpers import read


def test_pronoun_after_the_definition_names_the_term(glossary: Any) -> None:
    nvlink = glossary.get("nvlink")
    own = split_sentences(nvlink.text)
    assert own[1].startswith("Он передаёт")
    fixed = resolve_pronoun(nvlink, own[1], own)
    assert fixed.startswith("NVLink передаёт данные намного быстрее, чем PCIe")
    assert fixed[len("NVLink") :] == own[1][len("Он") :]  # only the pronoun changed


@pytest.mark.parametrize(
    ("slug", "start"),
    [("mig", "MIG позволяет"), ("vgpu", "vGPU подходит"), ("bf16", "BF16 сохраняет")],
)
def test_feminine_and_lowercase_names(glossary: Any, slug: str, start: str) -> None:
    entry = glossary.get(slug)
    own = split_sentences(entry.text)
    assert resolve_pronoun(entry, own[1], own).startswith(start)


def test_conservative_cases_stay_as_written(glossary: Any) -> None:
    # an oblique pronoun («Её реализуют…») and a pronoun further down the text are not touched
    all_reduce = glossary.get("all-reduce")
    own = split_sentences(all_reduce.text)
    her = next(s for s in own if s.startswith("Её"))
    assert resolve_pronoun(all_reduce, her, own) == her
    fabric = glossary.get("infinity-fabric")
    own = split_sentences(fabric.text)
    she = next(s for s in own if s.startswith("Она"))
    assert own.index(she) > 1 and resolve_pronoun(fabric, she, own) == she
    # a sentence that is not the entry's own is never rewritten
    assert resolve_pronoun(all_reduce, "Он пришёл.", own) == "Он пришёл."


@pytest.mark.parametrize(
    ("slug", "opening", "start"),
    [
        ("ai-tops", "Обычно его измеряют", "Обычно AI TOPS измеряют при низкой точности"),
        ("oam", "Его используют", "OAM используют GPU AMD Instinct"),
        ("all-reduce", "Её реализуют", "All-reduce реализуют такие библиотеки"),
    ],
)
def test_an_object_pronoun_opening_an_answer_names_the_term(
    glossary: Any, slug: str, opening: str, start: str
) -> None:
    entry = glossary.get(slug)
    sentence = next(s for s in split_sentences(entry.text) if s.startswith(opening))
    assert standalone(entry, sentence).replace("\u00a0", " ").startswith(start)


def test_a_possessive_pronoun_is_left_alone(glossary: Any) -> None:
    # «его память» is the term's memory, not the term: the name goes in front instead
    entry = glossary.get("oam")
    assert (
        standalone(entry, "Его память распаяна на модуле.") == "OAM: его память распаяна на модуле."
    )


def test_paragraph_uses_the_resolved_sentence(glossary: Any) -> None:
    nvlink = glossary.get("nvlink")
    own = split_sentences(nvlink.text)
    text = paragraph(Picked(nvlink, 1, (own[1],)))  # a follow-up that skipped the definition
    assert text.startswith("NVLink передаёт") and text.endswith("[1].")


def test_general_entry_first_for_a_family_name(glossary: Any) -> None:
    entries = glossary.by_slug()
    assert general_first(["hbm4", "hbm3e", "vram"], entries, read("что такое HBM?").families) == [
        "hbm3e",
        "hbm4",
        "vram",
    ]
    # a named generation, or a single match, keeps the retrieval order
    assert general_first(["hbm4", "hbm3e"], entries, read("что такое HBM4?").families) == [
        "hbm4",
        "hbm3e",
    ]
    assert general_first(["gddr7", "vram"], entries, read("что такое GDDR?").families) == [
        "gddr7",
        "vram",
    ]
    # only the newest generation in the scope: the explaining entry joins from the top hits
    nearby = ["hbm4", "vram", "hbm3e"]
    assert general_first(["hbm4", "vram"], entries, read("что такое HBM?").families, nearby) == [
        "hbm3e",
        "hbm4",
        "vram",
    ]
    # a family absent from the answer does not join it
    assert general_first(
        ["vram"], entries, read("что такое HBM?").families, ["vram", "hbm4", "hbm3e"]
    ) == ["vram"]


def test_what_is_hbm_leads_with_the_general_entry(pipeline: Any) -> None:
    a = pipeline.answer("что такое HBM?")
    assert a.route == "term" and a.citations[0].slug == "hbm3e"
    text = a.answer.replace("\u00a0", " ")
    assert text.startswith("HBM3e") and "В HBM кристаллы DRAM уложены" in text
    assert pipeline.answer("что такое HBM4?").citations[0].slug == "hbm4"


def test_nvlink_answer_has_no_dangling_pronoun(pipeline: Any) -> None:
    a = pipeline.answer("что такое NVLink?")
    text = a.answer.replace("\u00a0", " ")
    assert "Он передаёт" not in text and "NVLink передаёт данные" in text
    # the agent's evidence stays the glossary's exact words
    evidence = {s for e in a.meta.evidence for s in e.sentences}
    assert any(s.startswith("Он передаёт") for s in evidence)


def test_a_supporting_entry_gives_the_sentence_that_answers(pipeline: Any) -> None:
    # BF16 supports an answer about mixed precision: what it adds is why it needs no loss
    # scaling (its third sentence), not its definition (bits of exponent and mantissa)
    a = pipeline.answer("нам для обучения советуют bf16 вместо fp16, это из-за loss scaling?")
    assert "bf16" in [c.slug for c in a.citations]
    text = a.answer.replace("\u00a0", " ").lower()
    assert "loss scaling" in text and "без масштабирования" in text
    assert "7 битами мантиссы" not in text
