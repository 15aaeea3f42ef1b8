"""Question → ranked glossary entries: dense (FAISS: entry text and customer questions) + BM25
over lemmas + exact aliases, fused."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

import numpy as np

from assistant.corpus.glossary import Glossary
from assistant.corpus.slang import Slang
from assistant.schema import SearchHit
from assistant.search.indexing import SearchIndex
from assistant.search.slugs import BestPerSlug
from assistant.text.tokens import deletes, lemma, lemmas, normalize_phrase, transliterate, words
from assistant.understanding.reader import names_defined
from assistant.understanding.signals import defined_term

if TYPE_CHECKING:  # keeps torch out of import time
    from assistant.embedding.base import Embedder

Mode = Literal["hybrid", "dense", "bm25"]


@dataclass(frozen=True)
class FusionWeights:
    """How the legs are fused; learned on the dev split by `eval/tune_fusion.py` (grid search,
    scored by hit@1 + MRR on retrieval.jsonl and problems.jsonl dev rows; docs/benchmarks.md).

    "score": dense × (cosine − best cosine) + bm25 × (score / best score) + alias × strength
             + questions × (question cosine − best question cosine).
    "rrf":   Σ weight / (k + rank) — measured lower on our set (MRR@10 0.85 vs 0.91).
    The question leg is kept apart from the text leg: merged into it, it lifted problem phrasings
    but let off-topic questions pass the scope thresholds (docs/benchmarks.md).
    """

    method: Literal["score", "rrf"] = "score"
    dense: float = 5.0
    bm25: float = 0.5
    alias: float = 0.1
    questions: float = 10.0  # the customer-question chunks as a leg of their own
    # question chunks count as their entry's dense evidence (the better cosine of the two)
    merge_questions: bool = False
    # a definition («что такое X», «X что это») puts the entries X names first (a rule, not
    # learned: eval/tune_fusion.py re-fuses the other legs only)
    lead: float = 10.0
    named_top: int = 3  # entries named outright stay within the first hits (0: off)
    k: float = 10.0  # rrf only
    depth: int = 20  # candidates taken from each leg


@dataclass(frozen=True)
class Retrieval:
    """Everything one search learned, for the engine: fused hits and per-leg evidence."""

    query: str
    hits: list[SearchHit]
    dense: dict[str, float]  # best cosine per slug (absolute: used to detect "not in glossary")
    bm25: dict[str, float]
    alias: dict[str, float]  # slugs named in the question (exactly or within one typo)
    vector: np.ndarray = field(repr=False)
    questions: dict[str, float] = field(default_factory=dict)  # best cosine to its questions


class Searcher(Protocol):
    """Ranked hits by one mode (the retrieval evaluation compares the modes)."""

    def search(self, query: str, k: int = 5, mode: Mode = "hybrid") -> list[SearchHit]: ...


class Retriever(Protocol):
    """What the engine asks of search: evidence for a question, and whether it can answer."""

    def ready(self) -> bool:
        """The index holds vectors to search (readiness probes)."""
        ...

    def retrieve(
        self,
        query: str,
        k: int = 5,
        vector: np.ndarray | None = None,
        named: Mapping[str, float] | None = None,
        defined: Mapping[str, float] | None = None,
    ) -> Retrieval: ...


class AliasMatcher:
    """Finds glossary names inside a question: whole phrases by lemmas, names with one typo
    (single words of 5+ letters, 2–3-word names of 8+), names spelled in Cyrillic."""

    MIN_FUZZY = 5
    MIN_SPELLED = 4  # «мое» must not become MoE; «рдма» is RDMA
    # names that are also everyday Russian words («куда» = where, «миг» = moment): alone they
    # are weak evidence, like a typo; «куда тулкит», «MIG» stay names
    EVERYDAY = frozenset({"куда", "миг"})
    SEEN_MAX = 256  # the last messages' matches, kept for the stages that read them again

    def __init__(self, glossary: Glossary) -> None:
        self.phrases: dict[str, set[str]] = {}
        self.fuzzy: dict[str, set[str]] = {}
        # «тенсорные ядра», «cuda cors»: a 2–3-word name with one word wildcarded → the word
        self.fuzzy_phrases: dict[tuple[str, ...], set[tuple[str, str]]] = {}
        for entry in glossary.entries:
            for name in entry.names:
                tokens = words(name)
                for form in {normalize_phrase(name), " ".join(tokens)}:
                    if form:
                        self.phrases.setdefault(form, set()).add(entry.slug)
                if len(tokens) == 1 and len(tokens[0]) >= self.MIN_FUZZY:
                    for key in (tokens[0], *deletes(tokens[0])):
                        self.fuzzy.setdefault(key, set()).add(entry.slug)
                for form in {normalize_phrase(name), " ".join(tokens)}:
                    if _fuzzy_phrase(form):
                        self._index_phrase(tuple(form.split(" ")), entry.slug)
        self.longest = max((p.count(" ") + 1 for p in self.phrases), default=1)
        self._seen: dict[tuple[str, float], dict[str, float]] = {}

    def _index_phrase(self, tokens: tuple[str, ...], slug: str) -> None:
        for i, word in enumerate(tokens):
            key = (*tokens[:i], "*", *tokens[i + 1 :])
            self.fuzzy_phrases.setdefault(key, set()).add((slug, word))

    def _fuzzy_phrase_match(self, phrase: str) -> set[str]:
        """Slugs whose 2–3-word name is `phrase` with one word off by one letter."""
        if not _fuzzy_phrase(phrase):
            return set()
        tokens = tuple(phrase.split(" "))
        out = set()
        for i, word in enumerate(tokens):
            for slug, want in self.fuzzy_phrases.get((*tokens[:i], "*", *tokens[i + 1 :]), ()):
                if _one_edit(word, want):
                    out.add(slug)
        return out

    def match(self, query: str, everyday: float = 0.5) -> dict[str, float]:
        """slug → match strength (number of words in the longest matched name); `everyday`: the
        strength of a name that is an everyday word («что такое куда» defines it: 1.0)."""
        key = (query, everyday)
        found = self._seen.get(key)
        if found is None:  # reading a message and retrieving for it match the same text
            if len(self._seen) >= self.SEEN_MAX:
                self._seen.clear()
            found = self._seen[key] = self._match(query, everyday)
        return dict(found)  # the caller's own copy

    def _match(self, query: str, everyday: float) -> dict[str, float]:
        raw = words(query)
        found: dict[str, float] = {}
        # only the word as written is the everyday one: «куду», «на куде» are CUDA's own forms
        plain = self.EVERYDAY.intersection(raw)
        for tokens in (raw, [lemma(w) for w in raw]):
            for phrase in _ngrams(tokens, self.longest):
                strength = everyday if phrase in plain else float(phrase.count(" ") + 1)
                for slug in self.phrases.get(phrase, ()):
                    found[slug] = max(found.get(slug, 0.0), strength)
        for tokens in (raw, [lemma(w) for w in raw]):
            for phrase in _ngrams(tokens, FUZZY_PHRASE_WORDS, shortest=2):
                for slug in self._fuzzy_phrase_match(phrase):
                    found.setdefault(slug, phrase.count(" ") + 0.5)
        for w in raw:
            latin = transliterate(w) if len(w) >= self.MIN_SPELLED else ""
            for slug in self.phrases.get(latin, ()):  # a name spelled in Cyrillic is still named
                found[slug] = max(found.get(slug, 0.0), 1.0)
            for form in (w, latin):
                if len(form) >= self.MIN_FUZZY:
                    for key in (form, *deletes(form)):
                        for slug in self.fuzzy.get(key, ()):
                            found.setdefault(slug, 0.5)
        return found


FUZZY_PHRASE_WORDS = 3
_DIGIT = re.compile(r"\d")
FUZZY_PHRASE_CHARS = 8


def _fuzzy_phrase(form: str) -> bool:
    """Names of 2–3 words, 8+ letters, no digits take one typo: a digit is a different model
    (H100 vs H200), and short phrases are too easy to hit by chance."""
    n = form.count(" ") + 1
    return (
        2 <= n <= FUZZY_PHRASE_WORDS
        and len(form) >= FUZZY_PHRASE_CHARS
        and _DIGIT.search(form) is None
    )


def _one_edit(a: str, b: str) -> bool:
    """One letter inserted, dropped, replaced or two neighbours swapped («cors» ~ «cores»)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) != len(b):
        return (b in deletes(a)) if len(a) > len(b) else (a in deletes(b))
    return bool(deletes(a) & deletes(b))


def _ngrams(tokens: list[str], longest: int, shortest: int = 1) -> Iterable[str]:
    """Every run of `shortest`…`longest` consecutive tokens, space-joined (dictionary look-ups)."""
    for start in range(len(tokens)):
        for end in range(start + shortest, min(len(tokens), start + longest) + 1):
            yield " ".join(tokens[start:end])


def _best_per_slug(pairs: Iterable[tuple[str, float]]) -> dict[str, float]:
    best: dict[str, float] = {}
    for slug, score in pairs:
        if score > best.get(slug, -np.inf):
            best[slug] = score
    return best


def _ranked(scores: dict[str, float], depth: int) -> list[str]:
    return sorted(scores, key=lambda s: -scores[s])[:depth]


def _keep_named_near_top(fused: dict[str, float], alias: Mapping[str, float], top: int) -> None:
    """An entry the customer wrote out by name («чем NVSwitch отличается от NVLink») stays among
    the first `top` hits even when the other legs prefer its neighbours: it is never the wrong
    thing to show, only sometimes not the first. Order among the named is the fused one."""
    named = sorted((s for s, v in alias.items() if v >= 1.0), key=lambda s: -fused.get(s, -99))
    if not top or not named:
        return
    for slug in named[:top]:
        ranked = sorted(fused, key=lambda s: -fused[s])
        if slug in ranked[:top]:
            continue
        # just behind the hit before the last place: the hit it displaces stays right behind it
        fused[slug] = fused[ranked[top - 2]] - 1e-6 if top > 1 else fused[ranked[0]] + 1e-6


def _rrf(legs: Sequence[tuple[float, dict[str, float]]], k: float, depth: int) -> dict[str, float]:
    fused: dict[str, float] = {}
    for weight, scores in legs:
        for rank, slug in enumerate(_ranked(scores, depth)):
            fused[slug] = fused.get(slug, 0.0) + weight / (k + rank + 1)
    return fused


def merge(texts: dict[str, float], asked: dict[str, float]) -> dict[str, float]:
    """Per slug, the better cosine of its text chunks and its question chunks."""
    out = dict(texts)
    for slug, cos in asked.items():
        out[slug] = max(out.get(slug, -1.0), cos)
    return out


def fuse(
    w: FusionWeights,
    dense: dict[str, float],
    bm25: dict[str, float],
    alias: dict[str, float],
    asked: dict[str, float],
) -> dict[str, float]:
    """Per-leg evidence → one score per slug (higher is better), as `w` says."""
    if w.method == "rrf":
        legs = [(w.dense, dense), (w.bm25, bm25), (w.alias, alias), (w.questions, asked)]
        return _rrf(legs, w.k, w.depth)
    fused: dict[str, float] = {}
    missing = w.dense * -0.2  # a slug one leg did not return starts this far behind
    best_cos = max(dense.values(), default=0.0)
    best_bm25 = max(bm25.values(), default=0.0) or 1.0
    for slug, cos in dense.items():
        fused[slug] = w.dense * (cos - best_cos)
    for slug, score in bm25.items():
        fused[slug] = fused.get(slug, missing) + w.bm25 * score / best_bm25
    for slug, strength in alias.items():
        fused[slug] = fused.get(slug, missing) + w.alias * min(strength, 2.0)
    if w.questions:
        best_asked = max(asked.values(), default=0.0)
        for slug, cos in asked.items():
            fused[slug] = fused.get(slug, missing) + w.questions * (cos - best_asked)
    return fused


def _numpy_blas_single_threaded() -> None:
    """The dense leg's one matrix-vector product (~1 600 chunks × 384) takes 0.02–0.04 ms on one
    thread; on numpy's two OpenBLAS threads it waits for a core the embedding model's threads
    still spin on: 0.3 ms on average, up to 8 ms (docs/benchmarks.md). Only numpy's own BLAS is
    limited, not the embedding runtime's threads."""
    from threadpoolctl import ThreadpoolController

    for lib in ThreadpoolController().lib_controllers:
        if lib.internal_api == "openblas" and "numpy" in lib.filepath:
            lib.set_num_threads(1)


class HybridRetriever:
    SCORE_ALL = 4096

    def __init__(
        self,
        glossary: Glossary,
        index: SearchIndex,
        embedder: Embedder,
        weights: FusionWeights = FusionWeights(),
        slang: Slang | None = None,
    ) -> None:
        self.glossary = glossary
        self.slang = slang or Slang()
        self.index = index
        self.embedder = embedder
        self.weights = weights
        self.titles = {e.slug: e.title for e in glossary.entries}
        self.aliases = AliasMatcher(glossary)
        self._chunk_slugs = [c.slug for c in index.chunks]
        self._is_question = np.array([c.kind == "question" for c in index.chunks], dtype=bool)
        self._slugs = sorted(set(self._chunk_slugs))
        position = {slug: i for i, slug in enumerate(self._slugs)}
        self._slug_of = np.array([position[s] for s in self._chunk_slugs], dtype=np.int64)
        self._best_text = BestPerSlug(self._slugs, self._slug_of, ~self._is_question)
        self._best_asked = BestPerSlug(self._slugs, self._slug_of, self._is_question)
        # A glossary-sized index is scored in full with one matrix product (~800 chunks ×
        # 384: ~0.05 ms, cheaper than asking FAISS for every neighbour in order); a large one
        # goes through FAISS (HNSW above its threshold) for the top candidates only.
        total = index.vectors.ntotal
        self._matrix: np.ndarray | None = (
            np.ascontiguousarray(index.vectors.reconstruct_n(0, total), dtype=np.float32)
            if 0 < total <= self.SCORE_ALL
            else None
        )
        import faiss

        # One query at a time: FAISS's own threads fight torch's for 2 cores (16–24 ms vs 0.3 ms
        # per search when the other core is busy, docs/benchmarks.md).
        faiss.omp_set_num_threads(1)
        _numpy_blas_single_threaded()

    def ready(self) -> bool:
        return bool(self.index.vectors.ntotal > 0)

    def embed(self, query: str) -> np.ndarray:
        return np.asarray(self.embedder.embed_queries([query])[0], dtype=np.float32)

    def _dense(self, vector: np.ndarray, depth: int) -> tuple[dict[str, float], dict[str, float]]:
        """Best cosine per slug over entry/sentence chunks, and over question chunks."""
        if self._matrix is not None:  # every chunk: no entry fused with a "not returned" guess
            sims = self._matrix @ vector
            texts, asked = self._best_text.of(sims), self._best_asked.of(sims)
        else:
            total = self.index.vectors.ntotal
            found, at = self.index.vectors.search(vector.reshape(1, -1), min(total, depth * 16))
            keep = at[0] >= 0
            sims, ids = found[0][keep], at[0][keep]
            asked_mask = self._is_question[ids]
            texts = self._best_of(ids[~asked_mask], sims[~asked_mask])
            asked = self._best_of(ids[asked_mask], sims[asked_mask])
        return (merge(texts, asked) if self.weights.merge_questions else texts), asked

    def _best_of(self, ids: np.ndarray, sims: np.ndarray) -> dict[str, float]:
        """Chunk ids and cosines → best cosine per slug (vectorised: ~800 chunks per query)."""
        best = np.full(len(self._slugs), -np.inf, dtype=np.float32)
        np.maximum.at(best, self._slug_of[ids], sims)
        return {self._slugs[i]: float(best[i]) for i in np.flatnonzero(np.isfinite(best))}

    def _bm25(self, query: str, depth: int) -> dict[str, float]:
        scores = self.index.bm25.scores(self.slang.expand(lemmas(query)))
        n = min(len(scores), depth * 8)
        top: Iterable[int] = np.argpartition(-scores, n - 1)[:n] if n else []
        return _best_per_slug(
            (self._chunk_slugs[i], float(scores[i])) for i in top if scores[i] > 0
        )

    def fuse(
        self,
        dense: dict[str, float],
        bm25: dict[str, float],
        alias: dict[str, float],
        questions: dict[str, float] | None = None,
    ) -> dict[str, float]:
        return fuse(self.weights, dense, bm25, alias, questions or {})

    def retrieve(
        self,
        query: str,
        k: int = 5,
        vector: np.ndarray | None = None,
        named: Mapping[str, float] | None = None,
        defined: Mapping[str, float] | None = None,
    ) -> Retrieval:
        """`named`, `defined`: the aliases and the entries the defined term names («что такое X»
        → X's entries) already read from this very query (the parsed message has them); None:
        read them here."""
        w = self.weights
        vec = self.embed(query) if vector is None else vector
        (dense, asked), bm25 = self._dense(vec, w.depth), self._bm25(query, w.depth)
        alias = dict(named) if named is not None else self.aliases.match(query)
        fused = self.fuse(dense, bm25, alias, asked)
        if defined is None:
            defined = names_defined(self.aliases, defined_term(query))
        # «Что такое InfiniBand?» is answered by InfiniBand first, even when RoCE (which explains
        # itself through InfiniBand) scores higher; the longer name first («cuda cores» > «cuda»)
        for slug, strength in defined.items():
            fused[slug] = fused.get(slug, w.dense * -0.2) + w.lead * min(strength, 2.0)
        _keep_named_near_top(fused, alias, w.named_top)
        return Retrieval(query, self._hits(fused, k), dense, bm25, alias, vec, asked)

    def _hits(self, scores: dict[str, float], k: int) -> list[SearchHit]:
        return [
            SearchHit(s, self.titles.get(s, s), round(scores[s], 6)) for s in _ranked(scores, k)
        ]

    def search(self, query: str, k: int = 5, mode: Mode = "hybrid") -> list[SearchHit]:
        if mode == "dense":
            return self._hits(self._dense(self.embed(query), self.weights.depth)[0], k)
        if mode == "bm25":
            return self._hits(self._bm25(query, self.weights.depth), k)
        return self.retrieve(query, k).hits
