"""The embedding seam: texts → L2-normalised vectors (`Embedder`), and what both backends
(sentence-transformers in model.py, ONNX Runtime in onnx.py) share: prefixes and batching in
length order."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt


class Embedder(Protocol):
    model_id: str  # stable id for index manifests
    dim: int

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...


Forward = Callable[[list[str]], npt.NDArray[np.float32]]
Mapper = Callable[[Forward, list[list[str]]], Iterable[npt.NDArray[np.float32]]]


class PrefixedEmbedder:
    """The `Embedder` methods both backends share: prefixes, then `_encode` (theirs)."""

    query_prefix: str
    passage_prefix: str

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self._encode([self.query_prefix + t for t in _as_list(texts)])

    def embed_passages(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self._encode([self.passage_prefix + t for t in _as_list(texts)])

    def _encode(self, texts: list[str]) -> npt.NDArray[np.float32]:
        raise NotImplementedError


def encode_in_length_order(
    texts: list[str], batch_size: int, forward: Forward, mapper: Mapper = map
) -> npt.NDArray[np.float32]:
    """Batches of similar length (little padding) → `forward` per batch → vectors in the
    callers' order, L2-normalised. `mapper` may run the batches in parallel."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]), reverse=True)
    batches = [
        [texts[i] for i in order[start : start + batch_size]]
        for start in range(0, len(order), batch_size)
    ]
    chunks = list(mapper(forward, batches))
    out = np.empty((len(texts), chunks[0].shape[1]), dtype=np.float32)
    out[np.asarray(order)] = np.concatenate(chunks)
    out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
    return out


def _as_list(texts: Sequence[str]) -> list[str]:
    if isinstance(texts, str):  # a bare string is a common mistake: treat as one text
        return [texts]
    return list(texts)
