"""The engine against real vLLM (Gemma 3 270M base): its prose is nonsense, so every draft must
be caught by the checks — garbage never reaches the user, and a dead server costs nothing."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from assistant.answer.generation import VLLMGenerator
from assistant.answer.grounding import Sources, echoes, support_ratio
from assistant.corpus.catalog import load_catalog
from assistant.evaluation.answers import Recorder
from assistant.llm.client import ChatClient
from assistant.pipeline import Pipeline, build_engine

pytestmark = pytest.mark.vllm
QUESTIONS = [
    "зачем нужен NCCL?",
    "что такое KV-кэш?",
    "чем NVLink отличается от PCIe",
    "сколько памяти нужно 70B в FP8",
    "какая пропускная способность у HBM3e в H200",
]


def _pipeline(vllm_server: Any, retriever: Any, **overrides: Any) -> Pipeline:
    s = vllm_server.settings(**overrides)
    llm = VLLMGenerator(ChatClient(s), s.prompts_dir, max_tokens=overrides.pop("max_tokens", 120))
    catalog = load_catalog(s.corpus_dir)
    return Pipeline(build_engine(s, retriever, catalog, llm), s)


def test_base_model_garbage_never_reaches_the_user(vllm_server: Any, retriever: Any) -> None:
    pipeline = _pipeline(vllm_server, retriever, llm_timeout_s=60.0)
    rec = Recorder(pipeline)
    for q in QUESTIONS:
        answer = rec.ask(q)
        assert rec.audit(q, answer, []) == [], (q, answer.answer)
        if answer.generator == "vllm":  # a draft that passed must stand on its sources
            sources = Sources()
            sources.add(*(pipeline.engine.entries[c.slug].text for c in answer.citations))
            for call in answer.tool_calls:
                sources.add_json(call.result)
                sources.add(str(call.result.get("summary_ru", "")))
            assert support_ratio(answer.answer, sources) >= 0.6
            assert not echoes(answer.answer, pipeline.engine.llm.instructions)  # type: ignore[union-attr]
        else:
            assert answer.meta.fallback_reason, "embedded answer must say why the LLM did not"
    assert rec.leaked == []
    assert rec.generators["embedded"] + rec.generators["vllm"] == len(QUESTIONS)


def test_llm_condensation_and_tool_filling_cannot_derail(vllm_server: Any, retriever: Any) -> None:
    pipeline = _pipeline(vllm_server, retriever, llm_timeout_s=60.0)
    first = pipeline.answer("что такое kv-кэш?")
    history = list(pipeline.turns_for("что такое kv-кэш?", first))
    follow = pipeline.answer("а от чего зависит его размер?", history)
    assert "kv-cache" in [c.slug for c in follow.citations]
    ask = pipeline.answer("сколько видеопамяти нужно для 70B?")
    assert ask.route == "clarify"  # an LLM-invented precision is never taken as the user's


@pytest.mark.vllm_destructive
def test_server_killed_mid_answer_gives_embedded_answer_and_opens_breaker(
    vllm_server: Any, retriever: Any
) -> None:
    if vllm_server.proc is None:
        pytest.skip("external server: not ours to kill")
    pipeline = _pipeline(
        vllm_server, retriever, llm_timeout_s=60.0, llm_breaker_failures=1, max_tokens=400
    )
    result: dict[str, Any] = {}
    worker = threading.Thread(target=lambda: result.update(a=pipeline.answer("зачем нужен NCCL?")))
    worker.start()
    time.sleep(3.0)  # the draft is being streamed (hundreds of tokens at ~20 tokens/s)
    vllm_server.kill()
    worker.join(timeout=60)
    try:
        _check_fallback(pipeline, result)
    finally:
        vllm_server.restart()  # later destructive tests need a live server to kill again


def _check_fallback(pipeline: Pipeline, result: dict[str, Any]) -> None:
    answer = result["a"]
    assert answer.generator == "embedded" and answer.citations[0].slug == "nccl"
    assert answer.meta.fallback_reason == "llm_unavailable"
    start = time.perf_counter()
    again = pipeline.answer("зачем нужен NCCL?")
    assert time.perf_counter() - start < 1.0
    assert again.meta.fallback_reason == "llm_circuit_open"
