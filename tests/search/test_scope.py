"""decide_scope on hand-made retrieval evidence: when a question is ours, and what it cites."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from assistant.corpus.glossary import Glossary
from assistant.schema import SearchHit
from assistant.search.retrieval import AliasMatcher, Retrieval
from assistant.search.scope import BM25_MIN, COS_MAYBE, Q_AGREE, Q_SURE, Scope, decide_scope
from assistant.understanding.reader import Reader
from assistant.understanding.vocabulary import Vocabulary
from tests.helpers import CATALOG


@pytest.fixture(scope="module")
def reader(glossary: Glossary) -> Reader:
    return Reader(CATALOG, terms=AliasMatcher(glossary))


@pytest.fixture(scope="module")
def vocabulary(glossary: Glossary) -> Vocabulary:
    return Vocabulary(glossary, CATALOG)


def evidence(text: str, ranked: list[str], reader: Reader, cos: float, bm25: float) -> Retrieval:
    """The retrieval the engine would pass: `ranked` fused in that order, 0.2 apart."""
    hits = [SearchHit(s, s, -0.2 * i) for i, s in enumerate(ranked)]
    dense = {s: cos - 0.01 * i for i, s in enumerate(ranked)}
    bm = {ranked[0]: bm25}
    alias = dict(reader.read(text).terms)
    return Retrieval(text, hits, dense, bm, alias, np.zeros(4, dtype=np.float32))


def scope_of(text: str, ranked: list[str], reader: Reader, vocabulary: Vocabulary, **kw) -> Scope:
    message = reader.read(text)
    retrieval = evidence(text, ranked, reader, kw.get("cos", 0.9), kw.get("bm25", 5.0))
    return decide_scope(message, message.tokens, retrieval, vocabulary)


def test_a_named_card_is_ours_when_the_glossary_agrees(
    reader: Reader, vocabulary: Vocabulary
) -> None:
    """«Какая память у H100?»: modest similarity, but the card is in the catalogue and the
    glossary's words match; without the card, or without the words, it is not covered."""
    weak = COS_MAYBE - 0.02
    card = "какая память была у H100 на старте продаж?"
    assert scope_of(card, ["hopper", "hbm3e"], reader, vocabulary, cos=weak, bm25=BM25_MIN).in_scope
    no_words = scope_of(card, ["hopper"], reader, vocabulary, cos=weak, bm25=BM25_MIN - 1)
    assert not no_words.in_scope
    no_card = "какая память была у неё на старте продаж?"
    assert not scope_of(no_card, ["hopper"], reader, vocabulary, cos=weak, bm25=BM25_MIN).in_scope


@pytest.mark.parametrize(
    ("text", "ranked", "compared"),
    [
        ("что лучше для файнтюна: LoRA или QLoRA?", ["qlora", "lora"], True),
        ("NVLink быстрее PCIe?", ["nvlink", "pcie-gen5"], True),
        ("H100 в FP8 быстрее, чем в BF16?", ["fp8", "bf16"], True),
        # «или» between two things that are not entries: the question is about TFLOPS
        ("989 у H100 SXM в bf16 — это с разреженностью 2:4 или без?", ["tflops", "bf16"], False),
        ("какая библиотека гоняет all-reduce и сама выбирает nvlink или сеть?", ["nccl"], False),
    ],
)
def test_a_weak_cue_compares_only_the_entries_it_stands_between(
    text: str, ranked: list[str], compared: bool, reader: Reader, vocabulary: Vocabulary
) -> None:
    scope = scope_of(text, ranked, reader, vocabulary)
    assert scope.comparison is compared
    assert reader.read(text).paired is compared
    if not compared:
        assert scope.slugs[0] == ranked[0]


def test_a_close_customer_question_alone_covers_the_message(
    reader: Reader, vocabulary: Vocabulary
) -> None:
    """«how do i serve llama 70b to lots of users…»: the entry text is far (an English question,
    Russian text), one of vLLM's customer questions is close; a message no question is close to
    still needs the text's evidence."""
    text = "how do i serve llama 70b to lots of users behind an openai-compatible api?"
    far = evidence(text, ["vllm", "egress"], reader, cos=COS_MAYBE - 0.01, bm25=0.0)
    close = dataclasses.replace(far, questions={"vllm": Q_SURE + 0.005, "egress": 0.85})
    message = reader.read(text)
    assert not decide_scope(message, message.tokens, far, vocabulary).in_scope
    scope = decide_scope(message, message.tokens, close, vocabulary)
    assert scope.in_scope and scope.slugs[0] == "vllm"
    below = dataclasses.replace(far, questions={"vllm": Q_SURE - 0.005})
    assert not decide_scope(message, message.tokens, below, vocabulary).in_scope


def test_a_close_customer_question_needs_its_entry_near_the_top_of_another_leg(
    reader: Reader, vocabulary: Vocabulary
) -> None:
    """«как выбрать тему диплома про нейросети» lands near some chat-register question of CUDA,
    while neither the entry texts nor BM25 lead to CUDA: not covered."""
    text = "как выбрать тему диплома про нейросети"
    ranked = [f"filler-{i}" for i in range(Q_AGREE)] + ["cuda"]
    far = evidence(text, ranked, reader, cos=COS_MAYBE - 0.01, bm25=0.0)
    lone = dataclasses.replace(far, questions={"cuda": Q_SURE + 0.01})
    message = reader.read(text)
    assert not decide_scope(message, message.tokens, lone, vocabulary).in_scope
    near = dataclasses.replace(lone, dense={**far.dense, "cuda": COS_MAYBE})  # now the text's best
    assert decide_scope(message, message.tokens, near, vocabulary).in_scope


def test_a_how_to_that_names_its_entry_in_full_is_ours_whatever_tool_it_runs_in(
    reader: Reader, vocabulary: Vocabulary
) -> None:
    """An unknown tool (Megatron) in a how-to about tensor parallelism: the entry says how to
    split; a how-to that names the entry by one word and leads elsewhere is still declined."""
    ours = (
        "в megatron выставили tensor parallel = 16 на 2 нодах, всё время уходит на "
        "коммуникацию. как правильно делить?"
    )
    assert scope_of(ours, ["tensor-parallelism", "fsdp"], reader, vocabulary).in_scope
    theirs = "wandb на 8 ранков плодит 8 ранов, как логировать только с rank0?"
    declined = scope_of(theirs, ["fp8", "hgx"], reader, vocabulary, cos=0.84, bm25=2.0)
    assert not declined.in_scope
