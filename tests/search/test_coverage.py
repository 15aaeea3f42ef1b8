"""search/coverage.py: the learned scope decision's arithmetic, its weights file and its
fallback to the rules; decide_scope follows whichever decision it is given."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from assistant.corpus.glossary import Glossary
from assistant.pipeline import Pipeline
from assistant.schema import SearchHit
from assistant.search.coverage import (
    FACT_NAMES,
    FORMAT,
    WEIGHTS_FILE,
    LogisticCoverage,
    RuleCoverage,
    ScopeEvidence,
    ScopeFacts,
    from_json,
    load_coverage,
)
from assistant.search.retrieval import AliasMatcher, Retrieval
from assistant.search.scope import decide_scope
from assistant.settings import ROOT
from assistant.understanding.reader import Reader
from assistant.understanding.vocabulary import Vocabulary
from tests.helpers import CATALOG

MODEL_ID = "test-model"
DIM = 4


def facts(**values: float) -> ScopeFacts:
    return ScopeFacts(**{name: values.get(name, 0.0) for name in FACT_NAMES})


def model_json(**over: Any) -> dict[str, Any]:
    """A weights file as eval/train_scope.py writes it: only `rules` and `dense` weigh."""
    n = len(FACT_NAMES)
    weights = [0.0] * n
    weights[FACT_NAMES.index("rules")] = 2.0
    weights[FACT_NAMES.index("dense")] = 1.0
    raw: dict[str, Any] = {
        "format": FORMAT,
        "model_id": MODEL_ID,
        "facts": list(FACT_NAMES),
        "mean": [0.0] * n,
        "scale": [1.0] * n,
        "weights": weights,
        "lemmas": {"настроить": -3.0, "nvlink": 0.5},
        "embedding": [0.0, 0.0, 0.0, 1.0],
        "bias": -1.0,
        "threshold": 0.5,
    }
    return raw | over


def evidence(lemmas: tuple[str, ...] = (), query: list[float] | None = None, **f: float):
    vector = np.array(query or [0.0] * DIM, dtype=np.float32)
    return ScopeEvidence(facts(**f), lemmas, vector)


def test_the_logit_adds_facts_each_distinct_lemma_once_and_the_query_vector() -> None:
    model = from_json(model_json())
    base = evidence(rules=1.0, dense=0.5)
    assert model.logit(base) == pytest.approx(2.0 + 0.5 - 1.0)
    twice = evidence(("настроить", "настроить", "nvlink"), rules=1.0, dense=0.5)
    assert model.logit(twice) == pytest.approx(1.5 - 3.0 + 0.5)
    assert model.logit(evidence(("незнакомое",), rules=1.0, dense=0.5)) == pytest.approx(1.5)
    pointed = evidence(query=[0.0, 0.0, 0.0, 2.0], rules=1.0, dense=0.5)
    assert model.logit(pointed) == pytest.approx(3.5)


def test_covered_is_the_probability_against_the_threshold() -> None:
    model = from_json(model_json())
    assert model.covers(evidence(rules=1.0))  # σ(1) ≈ 0.73
    assert not model.covers(evidence(("настроить",), rules=1.0))  # σ(−2)
    assert not model.covers(evidence())  # σ(−1) ≈ 0.27
    assert from_json(model_json(threshold=0.2)).covers(evidence())


def test_the_rules_decision_is_the_rules_fact() -> None:
    assert RuleCoverage().covers(evidence(rules=1.0))
    assert not RuleCoverage().covers(evidence(rules=0.0, dense=0.99))


def write(tmp_path: Path, raw: object) -> Path:
    (tmp_path / WEIGHTS_FILE).write_text(json.dumps(raw), encoding="utf-8")
    return tmp_path


def test_fitting_weights_are_loaded(tmp_path: Path) -> None:
    coverage = load_coverage(write(tmp_path, model_json()), MODEL_ID, DIM)
    assert isinstance(coverage, LogisticCoverage) and coverage.name == "learned"


@pytest.mark.parametrize(
    ("raw", "warns"),
    [
        (model_json(model_id="another-model"), False),  # cosines of another model
        (model_json(embedding=[0.0] * (DIM + 1)), True),  # vectors of another size
        (model_json(facts=list(FACT_NAMES[:-1])), True),  # trained on other facts
        (model_json(weights=[1.0]), True),
        (model_json(format="scope-tree-v9"), True),
        ({"format": FORMAT, "model_id": MODEL_ID}, True),
        ([1, 2, 3], True),
    ],
)
def test_weights_that_do_not_fit_leave_the_decision_to_the_rules(
    tmp_path: Path, raw: object, warns: bool, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="assistant.search.coverage"):
        coverage = load_coverage(write(tmp_path, raw), MODEL_ID, DIM)
    assert isinstance(coverage, RuleCoverage)
    assert bool(caplog.records) is warns


def test_a_missing_or_broken_file_leaves_the_decision_to_the_rules(tmp_path: Path) -> None:
    assert isinstance(load_coverage(tmp_path, MODEL_ID, DIM), RuleCoverage)
    (tmp_path / WEIGHTS_FILE).write_text("{not json", encoding="utf-8")
    assert isinstance(load_coverage(tmp_path, MODEL_ID, DIM), RuleCoverage)


def test_the_committed_weights_if_any_match_the_facts_scope_gathers() -> None:
    """A change to ScopeFacts without retraining (eval/train_scope.py) fails here, not in use.
    When the trainer found no candidate as good as the rules, it removed the file."""
    path = ROOT / "corpus" / WEIGHTS_FILE
    if not path.exists():
        assert isinstance(load_coverage(ROOT / "corpus", MODEL_ID, DIM), RuleCoverage)
        return
    raw = json.loads(path.read_text(encoding="utf-8"))
    model = from_json(raw)
    assert model.embedding.size in (0, raw["dim"])
    assert 0.0 < model.threshold < 1.0


def test_an_engine_under_another_embedding_model_decides_by_the_rules(
    fast_pipeline: Pipeline,
) -> None:
    """The fast tier's hash embedder is not the model the weights were trained under."""
    assert fast_pipeline.engine.parts.lookup.coverage.name == "rules"


@pytest.fixture(scope="module")
def reader(glossary: Glossary) -> Reader:
    return Reader(CATALOG, terms=AliasMatcher(glossary))


@pytest.fixture(scope="module")
def vocabulary(glossary: Glossary) -> Vocabulary:
    return Vocabulary(glossary, CATALOG)


def retrieval_for(text: str, reader: Reader, cos: float) -> Retrieval:
    ranked = ["dcgm", "cuda"]
    hits = [SearchHit(s, s, -0.2 * i) for i, s in enumerate(ranked)]
    dense = {s: cos - 0.01 * i for i, s in enumerate(ranked)}
    alias = dict(reader.read(text).terms)
    return Retrieval(text, hits, dense, {"dcgm": 6.0}, alias, np.zeros(DIM, dtype=np.float32))


@pytest.mark.parametrize("bias", [-20.0, 20.0])
def test_decide_scope_follows_the_decision_it_is_given(
    reader: Reader, vocabulary: Vocabulary, bias: float
) -> None:
    """The rules cover a question naming DCGM with a close cosine and refuse a far one; a
    decision that always declines, or always covers, overrides them either way — and a covered
    question still gets its entries from the rules' ranking."""
    text = "какие метрики dcgm отдаёт в prometheus"
    message = reader.read(text)
    always = from_json(model_json(bias=bias, embedding=[]))
    for cos in (0.95, 0.5):
        retrieval = retrieval_for(text, reader, cos)
        scope = decide_scope(message, message.tokens, retrieval, vocabulary, always)
        assert scope.in_scope is (bias > 0)
        if scope.in_scope:
            assert scope.slugs[0] == "dcgm"
    ruled = decide_scope(message, message.tokens, retrieval_for(text, reader, 0.95), vocabulary)
    assert ruled.in_scope


def test_the_facts_say_how_much_of_the_question_the_entries_words_cover(
    reader: Reader, vocabulary: Vocabulary
) -> None:
    """A how-to for tools DCGM only names (Prometheus rules) shares fewer of its words with the
    entry than a question in the entry's own words, and has more words no entry uses."""
    seen: list[ScopeEvidence] = []

    class Noting:
        name = "noting"

        def covers(self, ev: ScopeEvidence) -> bool:
            seen.append(ev)
            return True

    texts = (  # not a request for a rule or a config: the signals decline those before any facts
        "как собирать метрики dcgm-exporter в prometheus через kubernetes operator",
        "что показывает dcgm про температуру и энергопотребление gpu",
    )
    for text in texts:
        message = reader.read(text)
        retrieval = retrieval_for(text, reader, 0.9)
        decide_scope(message, message.tokens, retrieval, vocabulary, Noting())
    how_to, own_words = (e.facts for e in seen)
    assert how_to.top_text < own_words.top_text == 1.0
    assert how_to.top_missing > own_words.top_missing == 0.0
    assert how_to.foreign > own_words.foreign
    assert seen[0].lemmas == reader.read(texts[0]).tokens.word_lemmas
