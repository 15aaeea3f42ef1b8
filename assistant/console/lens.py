"""What the content-gap report needs from the answer pipeline, behind one Protocol and one
adapter: question vectors, the nearest glossary entries with their scores, unknown words.

    lens = lens_of(pipeline)                 # None if the pipeline has no search (a stand-in)
    vectors = lens.embed(["сколько стоит TPU"])          # L2-normalised, the engine's model
    lens.nearest(vectors, k=3)               # [[Nearest(slug, title, url, score=cosine)], …]
    lens.unknown_words("сколько стоит TPU")  # ["tpu"]: not a word or lemma of the glossary
    lens.content_words("почём TPU у гугла")  # {"tpu", "гугл"}: topical lemmas only

`PipelineLens` is the only place that reaches into the engine (`pipeline.engine.retriever`:
its embedder, its index's chunk vectors and slugs; `pipeline.engine.vocabulary`; the text
helpers `words`, `lemma`, `lemmas`, `STOPWORDS`); when the engine's layout changes, this file
is the one to re-point.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

import numpy as np

from assistant.text.tokens import STOPWORDS, lemma, lemmas, words


@dataclass(frozen=True)
class Nearest:
    slug: str
    title: str
    url: str
    score: float  # cosine similarity of the question to the entry's best chunk, 0…1


class GlossaryLens(Protocol):
    @property
    def model_id(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...

    def nearest(self, vectors: np.ndarray, k: int = 3) -> list[list[Nearest]]: ...

    def unknown_words(self, text: str) -> list[str]: ...

    def content_words(self, text: str) -> frozenset[str]: ...


class PipelineLens:
    """GlossaryLens over the running engine: the same model, index and vocabulary it answers
    with, so «nearest» means what the engine itself would have found."""

    def __init__(self, pipeline: Any, public_base_url: str = "") -> None:
        engine = pipeline.engine
        retriever = engine.retriever
        self._embedder = retriever.embedder
        self._vocabulary = engine.vocabulary
        self._titles = {e.slug: e.title for e in retriever.glossary.entries}
        self._base = public_base_url.rstrip("/")
        self._index = retriever.index
        self._matrix: np.ndarray | None = None
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return str(self._embedder.model_id)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, int(self._embedder.dim)), dtype=np.float32)
        return np.asarray(self._embedder.embed_queries(list(texts)), dtype=np.float32)

    def _chunks(self) -> tuple[np.ndarray, list[str], np.ndarray]:
        """Chunk vectors sorted by slug, the slugs, and where each slug's run starts."""
        with self._lock:
            if self._matrix is None:
                vectors = self._index.vectors
                matrix = np.asarray(vectors.reconstruct_n(0, vectors.ntotal), dtype=np.float32)
                slugs = [c.slug for c in self._index.chunks]
                order = np.argsort(np.asarray(slugs), kind="stable")
                self._matrix = matrix[order]
                self._sorted = [slugs[i] for i in order]
                self._unique, self._starts = np.unique(self._sorted, return_index=True)
            return self._matrix, list(self._unique), self._starts

    def nearest(self, vectors: np.ndarray, k: int = 3) -> list[list[Nearest]]:
        if len(vectors) == 0:
            return []
        matrix, slugs, starts = self._chunks()
        best = np.maximum.reduceat(vectors @ matrix.T, starts, axis=1)  # per entry: best chunk
        out = []
        for row in best:
            top = np.argsort(-row)[:k]
            out.append([self._nearest(slugs[i], float(row[i])) for i in top])
        return out

    def _nearest(self, slug: str, score: float) -> Nearest:
        url = f"{self._base}/glossary/{slug}"
        return Nearest(slug, self._titles.get(slug, slug), url, round(score, 3))

    def unknown_words(self, text: str) -> list[str]:
        """Names and things the glossary never mentions, in dictionary form («гугла» → «гугл»);
        verbs, adverbs and the like name no topic and are left out («стоит», «приготовить»)."""
        vocabulary = self._vocabulary
        out: list[str] = []
        for word in words(text):
            if len(word) < 3 or word.isdigit() or word in STOPWORDS:
                continue
            base = lemma(word)
            if word in vocabulary.words or base in vocabulary.lemmas or base in STOPWORDS:
                continue
            if _names_a_thing(word) and base not in out:
                out.append(base)
        return out

    def content_words(self, text: str) -> frozenset[str]:
        return _content_words(text)


# parts of speech that can name a topic: nouns, adjectives (and Latin or unknown tokens)
_TOPICAL = frozenset({"NOUN", "ADJF", "ADJS"})


@lru_cache(maxsize=1)
def _morph() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


@lru_cache(maxsize=16_384)
def _names_a_thing(word: str) -> bool:
    tag = _morph().parse(word)[0].tag
    return bool(tag.POS in _TOPICAL or "LATN" in tag or "UNKN" in tag)


def _content_words(text: str) -> frozenset[str]:
    """The lemmas that name a topic: «расскажи анекдот» and «расскажи про Gaudi» share a verb,
    not a subject."""
    return frozenset(
        w for w in lemmas(text) if len(w) > 1 and not w.isdigit() and _names_a_thing(w)
    )


def lens_of(pipeline: Any, public_base_url: str = "") -> GlossaryLens | None:
    """The lens of a real pipeline; None for an engine without search (tests' stand-ins): the
    console then reports that content gaps are unavailable instead of failing."""
    engine = getattr(pipeline, "engine", None)
    if engine is None or not hasattr(engine, "retriever") or not hasattr(engine, "vocabulary"):
        return None
    return PipelineLens(pipeline, public_base_url)
