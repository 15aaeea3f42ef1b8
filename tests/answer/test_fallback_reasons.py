"""Fallback reasons are codes from a fixed set: the metric label never carries draft text."""

from __future__ import annotations

import pytest
from prometheus_client import generate_latest
from pydantic import ValidationError

from assistant.answer.generation import VLLMGenerator
from assistant.api.metrics import Metrics, fallback_label
from assistant.corpus.catalog import Catalog
from assistant.llm.client import ChatClient
from assistant.pipeline import Pipeline, build_engine
from assistant.schema import FALLBACK_REASONS, Answer, AnswerMeta
from assistant.search.retrieval import HybridRetriever
from assistant.settings import Settings
from tests.openai_server import Reply, openai_server


def _labels(metrics: Metrics) -> set[str]:
    text = generate_latest(metrics.registry).decode()
    return {
        line.split('reason="')[1].split('"')[0]
        for line in text.splitlines()
        if line.startswith("assistant_fallbacks_total{")
    }


def test_free_text_never_becomes_a_label() -> None:
    with pytest.raises(ValidationError):
        AnswerMeta(fallback_reason="grounding: число «17» не из источников")  # type: ignore[arg-type]
    metrics = Metrics()
    for reason in ("grounding: число «17» не из источников", "llm_timeout", "x" * 300):
        meta = AnswerMeta.model_construct(fallback_reason=reason)  # unchecked, as a bug would
        metrics.observe_answer(Answer(answer="…", route="term", generator="embedded", meta=meta))
    assert _labels(metrics) == {"other", "llm_timeout"}
    assert fallback_label("echo") == "echo" and fallback_label("echo: 17") == "other"


def test_many_different_bad_drafts_give_a_bounded_label_set(
    settings: Settings, catalog: Catalog, fast_retriever: HybridRetriever
) -> None:
    drafts = iter(
        [f"NCCL ускоряет обучение в {n} раз [1]." for n in range(11, 41)]  # 30 invented numbers
        + ["Кошка пела у реки о луне и облаках, а ветер сочинял стихи [1]."] * 2
        + [Reply(status=500)] * 2
    )
    with openai_server(reply=lambda request: next(drafts)) as srv:
        s = settings.model_copy(update={"llm_base_url": srv.base_url, "llm_model": "t"})
        llm = VLLMGenerator(ChatClient(s), s.prompts_dir)
        engine = build_engine(s, fast_retriever, catalog, llm)
        pipeline = Pipeline(engine, s)
        metrics = Metrics()
        details = set()
        for _ in range(17):
            answer = pipeline.answer("зачем нужен NCCL?")
            metrics.observe_answer(answer)
            details.add(answer.meta.fallback_detail)
    labels = _labels(metrics)
    assert labels == {"grounding_numbers", "unsupported_text", "llm_error"}
    assert labels <= set(FALLBACK_REASONS)
    assert len(details) >= 15  # the detail keeps the specifics for logs
    assert all("«" not in label and not any(c.isdigit() for c in label) for label in labels)
