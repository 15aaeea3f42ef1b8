"""Scope evidence of one question → does the glossary cover it: the rules' verdict, or a
logistic model trained on dev rows by eval/train_scope.py.

    coverage = load_coverage(settings.corpus_dir, retriever.index.manifest.model_id)
    coverage.covers(evidence)       # search/scope.py asks; True = answer from the glossary

The model reads the facts search/scope.py gathers (the rules' own verdict among them: cosines,
BM25, names, unknown words, how much of the question the leading entries' words cover), the
lemma of each word (a learned weight per lemma) and the query vector. Its weights
(corpus/scope_model.json) hold for the embedding model whose cosines and vectors they were
trained on: under another model, or without the file, the rules decide (RuleCoverage).
Loading reads one small JSON file; numpy only.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Protocol

import numpy as np

log = logging.getLogger(__name__)

WEIGHTS_FILE = "scope_model.json"
FORMAT = "scope-logistic-v1"


@dataclass(frozen=True)
class ScopeFacts:
    """What the in/out decision reads about one question, every field a number (the model's
    weights follow this order; eval/train_scope.py checks the names)."""

    rules: float  # the rules' verdict (search/scope.py): 1 covered, 0 not
    named: float  # entries named outright
    alias: float  # strongest alias match (words in the longest name; 0.5 a typo)
    dense: float  # best cosine to an entry's text
    dense_gap: float  # the best entry's cosine minus the second's
    asked: float  # best cosine to a customer question of an entry
    asked_agrees: float  # …and another leg puts that entry near its top
    bm25: float  # log(1 + best BM25 score)
    gpu: float  # a catalogue GPU named
    model: float  # a catalogue model named
    unknown_latin: float  # log(1 + Latin words the glossary and catalogue never use)
    unknown_russian: float  # log(1 + Russian content words no entry uses)
    unknown_term: float  # «что такое X» names nothing the glossary mentions
    domain: float  # GPU/AI words (signals.domain)
    defined: float  # a «что такое X» question
    comparison: float  # an explicit comparison cue
    words: float  # log(1 + words)
    # share of the question's content lemmas the first hit's text and names use; the first
    # three hits'; the same with the entries' customer questions; log(1 + lemmas left out)
    top_text: float
    top3_text: float
    top_asked: float
    top3_asked: float
    top_missing: float
    top3_missing: float
    latin: float  # share of Latin words (an English question, a pasted log)
    english: float  # more than half of the words Latin
    foreign: float  # log(1 + Latin words not spelled as any known word, typos included)

    def vector(self) -> np.ndarray:
        # getattr, not dataclasses.astuple: that deep-copies every field (~80 µs a question)
        return np.array([getattr(self, name) for name in FACT_NAMES], dtype=np.float64)


FACT_NAMES: tuple[str, ...] = tuple(f.name for f in fields(ScopeFacts))


@dataclass(frozen=True)
class ScopeEvidence:
    """One question as the decision sees it: the facts, the lemma of each of its words and
    the query vector the search embedded."""

    facts: ScopeFacts
    lemmas: tuple[str, ...]
    query: np.ndarray


class Coverage(Protocol):
    """Decides whether the glossary covers a question the search found evidence for."""

    @property
    def name(self) -> str:
        """«rules» or «learned»: which decision answers (benchmarks and logs say it)."""
        ...

    def covers(self, evidence: ScopeEvidence) -> bool: ...


class RuleCoverage:
    """The hand-calibrated thresholds of search/scope.py (their verdict is `facts.rules`)."""

    name = "rules"

    def covers(self, evidence: ScopeEvidence) -> bool:
        return evidence.facts.rules >= 0.5


@dataclass(frozen=True)
class LogisticCoverage:
    """P(covered) = σ(w·(facts − mean)/scale + Σ w[lemma] + e·query + b) ≥ threshold.

    Each distinct lemma of the question counts once; lemmas the training rows did not have
    weigh nothing. `embedding` is empty when the model does without the query vector."""

    weights: np.ndarray  # per fact
    mean: np.ndarray
    scale: np.ndarray
    lemma_weights: Mapping[str, float]
    embedding: np.ndarray
    bias: float
    threshold: float
    name: str = "learned"

    def logit(self, evidence: ScopeEvidence) -> float:
        z = float(((evidence.facts.vector() - self.mean) / self.scale) @ self.weights)
        z += sum(self.lemma_weights.get(m, 0.0) for m in set(evidence.lemmas))
        if self.embedding.size:
            z += float(np.asarray(evidence.query, dtype=np.float64) @ self.embedding)
        return z + self.bias

    def probability(self, evidence: ScopeEvidence) -> float:
        z = self.logit(evidence)
        return 1.0 / (1.0 + math.exp(-z)) if z > -60 else 0.0

    def covers(self, evidence: ScopeEvidence) -> bool:
        return self.probability(evidence) >= self.threshold


def from_json(raw: Mapping[str, Any]) -> LogisticCoverage:
    """The model as eval/train_scope.py writes it; ValueError if its shape does not fit."""
    if tuple(raw["facts"]) != FACT_NAMES:
        raise ValueError("trained on other facts")
    weights = np.asarray(raw["weights"], dtype=np.float64)
    mean = np.asarray(raw["mean"], dtype=np.float64)
    scale = np.asarray(raw["scale"], dtype=np.float64)
    if not weights.shape == mean.shape == scale.shape == (len(FACT_NAMES),):
        raise ValueError("fact weights of the wrong length")
    embedding = np.asarray(raw.get("embedding") or [], dtype=np.float64)
    return LogisticCoverage(
        weights=weights,
        mean=mean,
        scale=np.where(scale > 0, scale, 1.0),
        lemma_weights={str(k): float(v) for k, v in raw.get("lemmas", {}).items()},
        embedding=embedding,
        bias=float(raw["bias"]),
        threshold=float(raw["threshold"]),
    )


def read_weights(path: Path, model_id: str, dim: int) -> LogisticCoverage | None:
    """The model in `path` if it was trained under this embedding model; else None."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        log.warning("scope model %s unreadable (%s): the rules decide", path, e)
        return None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        log.warning("scope model %s has another format: the rules decide", path)
        return None
    if raw.get("model_id") != model_id:
        return None  # trained under another embedding model: its cosines mean other things
    try:
        model = from_json(raw)
    except (KeyError, TypeError, ValueError) as e:
        log.warning("scope model %s does not fit (%s): the rules decide", path, e)
        return None
    if model.embedding.size not in (0, dim):
        log.warning("scope model %s expects another vector size: the rules decide", path)
        return None
    return model


def load_coverage(corpus_dir: Path, model_id: str, dim: int) -> Coverage:
    """The learned decision when its weights fit this embedding model, else the rules."""
    learned = read_weights(corpus_dir / WEIGHTS_FILE, model_id, dim)
    return learned if learned is not None else RuleCoverage()
