"""Micro-batching: concurrent queries share forward passes and get the same vectors."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import pytest

from assistant.embedding.base import Embedder
from assistant.embedding.batching import BatchingEmbedder
from assistant.settings import Settings

pytestmark = pytest.mark.slow
QUESTIONS = [f"вопрос номер {i} про видеопамять и NVLink" for i in range(24)]


class Counting:
    """Counts forward passes of the real embedder."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.model_id, self.dim = inner, inner.model_id, inner.dim
        self.calls: list[int] = []

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(len(texts))
        return self.inner.embed_queries(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self.inner.embed_passages(texts)


@pytest.fixture(scope="module")
def embedder(settings: Settings) -> Embedder:
    """The torch backend, the one micro-batching is for. (int8 ONNX vectors depend slightly on
    the rest of the batch — the activation scale is per batch — so batching is off there.)"""
    from assistant.embedding.model import load_embedder

    return load_embedder(settings.model_copy(update={"embedding_backend": "torch"}))


def test_concurrent_queries_are_batched_and_exact(embedder: Embedder) -> None:
    counting = Counting(embedder)
    batcher = BatchingEmbedder(counting, max_batch=32, max_wait_ms=20)
    results: dict[int, np.ndarray] = {}
    barrier = threading.Barrier(len(QUESTIONS))

    def ask(i: int) -> None:
        barrier.wait()
        results[i] = batcher.embed_queries([QUESTIONS[i]])[0]

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(QUESTIONS))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(counting.calls) == len(QUESTIONS)
    assert len(counting.calls) < len(QUESTIONS) / 2  # shared forward passes
    for i, q in enumerate(QUESTIONS):
        alone = embedder.embed_queries([q])[0]
        assert float(alone @ results[i]) > 0.9999


def test_errors_reach_every_caller(embedder: Embedder) -> None:
    class Broken(Counting):
        def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
            raise RuntimeError("model crashed")

    batcher = BatchingEmbedder(Broken(embedder))
    with pytest.raises(RuntimeError, match="model crashed"):
        batcher.embed_queries(["что такое nvlink"])
    assert batcher.embed_passages(["текст"]).shape == (1, embedder.dim)
