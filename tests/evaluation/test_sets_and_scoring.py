"""Eval rows must name their split; columns, limits per split, means over applicable checks,
targets, and the decimal comma people read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.errors import CorpusError
from assistant.evaluation.rows import SET_ROWS, NumericRow, Row
from assistant.evaluation.scoring import (
    Item,
    Miss,
    TargetResult,
    fmt,
    section,
    summarise,
    target_text,
    targets,
)
from assistant.evaluation.sets import SplitChoice, columns, load, read_rows
from assistant.settings import ROOT


def test_every_row_of_every_eval_set_is_valid_and_has_a_unique_id() -> None:
    paths = sorted((ROOT / "eval" / "data").glob("*.jsonl"))
    assert {p.stem for p in paths} == set(SET_ROWS)
    for path in paths:
        rows = read_rows(path, SET_ROWS[path.stem])
        ids = [r.id for r in rows]
        assert rows and len(ids) == len(set(ids)), path.name


def test_a_row_without_split_is_a_corpus_error(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text('{"id": "a", "split": "dev"}\n{"id": "b"}\n', encoding="utf-8")
    with pytest.raises(CorpusError) as err:
        read_rows(path, Row)
    assert "«b»" in str(err.value) and "split" in str(err.value)


def test_a_bad_row_names_its_file_row_and_field(tmp_path: Path) -> None:
    path = tmp_path / "numeric.jsonl"
    rows = [
        {"id": "v1", "split": "dev", "question": "70B в FP8", "expect": {"tool": "gpu_fit"}},
        {"id": "v2", "split": "dev", "question": "а в FP4?", "after": [None], "expect": {}},
        {"id": "v3", "split": "test", "question": "а на H100?"},
        {"id": "v4", "split": "dev", "question": "8 H100", "expect": {"tol": "gpu_cost"}},
    ]
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    with pytest.raises(CorpusError) as err:
        read_rows(path, NumericRow)
    got = {(p.file, p.record, p.field) for p in err.value.problems}
    assert got == {
        ("numeric.jsonl", "v2", "after.0"),  # a question, not null
        ("numeric.jsonl", "v3", "expect"),  # missing
        ("numeric.jsonl", "v4", "expect.tol"),  # a misspelt key is not silently skipped
    }


def test_columns_and_limit_per_split(tmp_path: Path) -> None:
    rows = [{"id": f"r{i}", "split": "dev" if i % 3 else "test"} for i in range(9)]
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    assert columns(SplitChoice.both) == ("dev", "test")
    assert columns(SplitChoice.all) == ("all",)
    assert {r.split for r in load(path, Row, SplitChoice.test)} == {"test"}
    limited = load(path, Row, SplitChoice.both, limit=2)
    assert [r.split for r in limited].count("dev") == 2
    assert [r.split for r in limited].count("test") == 2


def test_a_metric_is_the_mean_over_rows_where_its_check_applies() -> None:
    b, c = Miss("b", "вопрос b", ("нет gold",)), Miss("c", "вопрос c", ("нет gold",))
    items = [
        Item("a", "dev", "x", {"hit": True, "all_of": None}),
        Item("b", "dev", "x", {"hit": False, "all_of": True}, b),
        Item("c", "test", "y", {"hit": True, "all_of": None}, c),
    ]
    dev = summarise(items, "dev")
    assert (dev.n, dev.value("hit"), dev.value("all_of"), dev.count("all_of")) == (2, 0.5, 1.0, 1)
    assert dev.as_json() == {"n": 2, "hit": 0.5, "all_of": 1.0, "all_of_n": 1}  # as --json prints
    assert summarise(items, "all").value("hit") == round(2 / 3, 4)
    data = section(items, ("dev", "test"), category_check="hit")
    assert data.misses == (b,)  # c is a test row
    assert data.as_json()["categories"] == {
        "dev": {"x": {"n": 2, "hit": 0.5}},
        "test": {"y": {"n": 1, "hit": 1.0}},
    }
    assert data.as_json()["misses"] == [{"id": "b", "q": "вопрос b", "problems": ["нет gold"]}]


def test_a_target_is_judged_on_its_test_figure() -> None:
    got = targets({"problems": {"citation_hit@3": 0.85}, "robustness": {"crashed": 0.0}})
    assert got == (TargetResult("problems", "citation_hit@3", 0.9, 0.85, False),)
    assert got[0].as_json() == {
        "section": "problems",
        "metric": "citation_hit@3",
        "minimum": 0.9,
        "test": 0.85,
        "met": False,
    }
    assert targets({"robustness": {"answered": 1.0}})[0].met is True


def test_figures_use_a_decimal_comma() -> None:
    assert fmt(0.91234) == "0,912"
    assert fmt(None) == "—"
    from assistant.evaluation.scoring import target_for

    assert target_text(target_for("numeric", "exact"), 0.97) == "≥ 0,95 ✓"
    assert target_text(target_for("numeric", "exact"), None) == "≥ 0,95"
