"""The fakes keep their protocols' promises: the hash embedder is deterministic, unit-length and
puts texts sharing words close; the scripted LLM answers in script order and raises what it is
given."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.answer.generation import AnswerContext, LLMGenerator
from assistant.embedding.base import Embedder
from assistant.errors import LLMUnavailableError
from tests.fakes import HashEmbedder, ScriptedLLM, unavailable


def test_hash_embedder_is_a_deterministic_unit_embedder() -> None:
    embedder: Embedder = HashEmbedder()
    a = embedder.embed_queries(["пропускная способность NVLink", "пропускная способность NVLink"])
    assert a.shape == (2, embedder.dim) and a.dtype == np.float32
    assert np.allclose(a[0], a[1]) and np.isclose(np.linalg.norm(a[0]), 1.0)
    assert np.allclose(HashEmbedder().embed_passages(["пропускная способность NVLink"])[0], a[0])


def test_hash_embedder_puts_texts_sharing_words_close() -> None:
    q, near, far = HashEmbedder().embed_queries(
        ["пропускная способность NVLink", "NVLink: пропускная способность 900 ГБ/с", "погода"]
    )
    assert float(q @ near) > float(q @ far)


def test_scripted_llm_answers_in_order_and_raises_what_it_is_given() -> None:
    llm: LLMGenerator = ScriptedLLM(drafts=["первый", unavailable()])
    ctx = AnswerContext(route="term", message="q", question="q")
    assert llm.generate(ctx) == "первый"
    with pytest.raises(LLMUnavailableError):
        llm.generate(ctx)
    with pytest.raises(AssertionError, match="no scripted draft"):
        llm.generate(ctx)
    assert not ScriptedLLM().down().available
