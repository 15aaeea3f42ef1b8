"""The real engine on the real embedding model (integration tier): what depends on retrieval —
which entries are cited, which sentences are chosen, what is refused. Routing, numbers,
follow-ups and the guard are tested fast in tests/test_engine.py and tests/answer/test_guard.py.
"""

from __future__ import annotations

import pytest

from assistant.answer.grounding import numbers
from tests.helpers import conversation

pytestmark = pytest.mark.slow


def test_term_answer_cites_the_entry_with_markers(pipeline) -> None:
    a = pipeline.answer("зачем нужен NCCL?")
    assert a.route == "term" and a.generator == "embedded" and not a.refused
    assert a.citations[0].slug == "nccl" and a.citations[0].url == "/glossary/nccl"
    assert "[1]" in a.answer and "RCCL" in a.answer
    assert set(a.model_dump()) == {
        "answer",
        "citations",
        "tool_calls",
        "refused",
        "route",
        "generator",
    }


def test_comparison_cites_both_entries(pipeline) -> None:
    a = pipeline.answer("NVLink или PCIe — в чём разница для нескольких карт?")
    assert a.route == "comparison"
    assert {c.slug for c in a.citations} == {"nvlink", "pcie-gen5"}
    assert "[1]" in a.answer and "[2]" in a.answer


def test_pronoun_follow_up_is_condensed_with_the_previous_topic(pipeline) -> None:
    first, second = conversation(pipeline, "что такое kv-кэш?", "а от чего зависит его размер?")
    assert second.meta.question.endswith("(KV-кэш)")
    assert second.citations[0].slug == "kv-cache"
    assert "длиной контекста" in second.answer
    assert first.answer.split("[1]")[0] not in second.answer  # the definition is not repeated


def test_out_of_scope_is_refused_politely(pipeline) -> None:
    a = pipeline.answer("посоветуй ноутбук для учёбы")
    assert a.refused and a.route == "out_of_scope" and not a.citations
    assert "GPU" in a.answer and "ноутбук" not in a.answer


def test_term_not_in_glossary_says_so_and_offers_nearest(pipeline) -> None:
    a = pipeline.answer("Что такое TPU?")
    assert a.route == "not_found" and a.refused
    assert "нет статьи о «TPU»" in a.answer and a.citations
    assert a.meta.handoff


def test_a_name_spelled_in_mixed_case_is_not_a_typo_of_a_known_one(pipeline) -> None:
    # «DoRA» is one letter from «lora», but capitals inside the word mark a deliberate name
    a = pipeline.answer("что такое DoRA?")
    assert a.route == "not_found" and "нет статьи о «DoRA»" in a.answer
    typo = pipeline.answer("что такое Qlroa?")
    assert typo.route == "term" and typo.citations[0].slug == "qlora"


def test_unknown_defined_term_beside_a_named_entry_says_which_is_missing(pipeline) -> None:
    a = pipeline.answer("что такое DoRA — это разновидность лоры?")
    assert a.route == "term" and a.refused and a.citations[0].slug == "lora"
    assert a.answer.startswith("В нашем глоссарии нет статьи о «DoRA»")
    assert "LoRA" in a.answer.split("\n\n", 1)[1]
    for text in ("что такое LoRA?", "тенсорные ядра что это"):  # a typo still names the entry
        plain = pipeline.answer(text)
        assert not plain.refused and not plain.answer.startswith("В нашем глоссарии нет"), text


def test_every_number_in_a_term_answer_comes_from_a_cited_entry(pipeline) -> None:
    a = pipeline.answer("какая пропускная способность у NVLink в Blackwell")
    cited = " ".join(pipeline.engine.entries[c.slug].text for c in a.citations)
    source_values = {n.value for n in numbers(cited)}
    assert numbers(a.answer) and all(n.value in source_values for n in numbers(a.answer))
