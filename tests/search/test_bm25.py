"""BM25 over lemmas: ranking behaviour and save/load round trip."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from assistant.search.bm25 import BM25Index

DOCS = [
    ["kv", "кэш", "память", "контекст", "контекст"],
    ["nvlink", "интерконнект", "gpu"],
    ["память", "gpu", "hbm"],
]


def test_rare_terms_outweigh_common_ones() -> None:
    index = BM25Index.build(DOCS)
    scores = index.scores(["контекст", "gpu"])
    assert scores.argmax() == 0  # "контекст" appears once in the corpus, "gpu" twice


def test_unknown_query_scores_zero() -> None:
    index = BM25Index.build(DOCS)
    assert not index.scores(["погода"]).any()
    assert index.scores([]).shape == (3,)


def test_term_frequency_saturates_but_still_helps() -> None:
    index = BM25Index.build([["a", "x"], ["a", "a", "a", "x"], ["b"]])
    s = index.scores(["a"])
    assert s[1] > s[0] > 0
    assert s[1] < 3 * s[0]


def test_save_load_round_trip(tmp_path: Path) -> None:
    index = BM25Index.build(DOCS)
    path = tmp_path / "bm25.npz"
    index.save(str(path))
    loaded = BM25Index.load(str(path))
    assert loaded.vocab == index.vocab
    query = ["память", "kv", "nvlink"]
    np.testing.assert_allclose(loaded.scores(query), index.scores(query))
