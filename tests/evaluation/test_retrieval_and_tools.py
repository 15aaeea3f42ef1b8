"""`assistant eval retrieval` on a scripted retriever; `assistant eval tools` splits, durations
compared in hours, dev-only failures; the CLI restricts to one split."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import JsonValue
from typer.testing import CliRunner

from assistant.cli import _register_all, app
from assistant.evaluation.retrieval import evaluate_sets
from assistant.evaluation.rows import NumericRow
from assistant.evaluation.sets import SplitChoice, read_rows
from assistant.evaluation.tools import CaseResult, Report, in_hours
from assistant.settings import ROOT
from tests.evaluation.stand_in import BrokenToolbox, ScriptedRetriever


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    return path


def _row(id_: str, split: str, question: str, gold: list[str], category: str) -> dict[str, object]:
    """One retrieval-set line."""
    return {"id": id_, "split": split, "question": question, "gold": gold, "category": category}


def test_retrieval_hit_at_k_targets_and_misses(tmp_path: Path) -> None:
    retrieval = _write(
        tmp_path / "retrieval.jsonl",
        [
            _row("r1", "test", "q1", ["a"], "direct"),
            _row("r2", "test", "q2", ["b"], "direct"),
            _row("r3", "dev", "q3", ["a", "c"], "comparison"),
        ],
    )
    problems = _write(tmp_path / "problems.jsonl", [_row("p1", "dev", "q4", ["x", "c"], "symptom")])
    retriever = ScriptedRetriever(
        {"q1": ["a", "z"], "q2": ["z", "y", "b"], "q3": ["a", "z", "y", "c"], "q4": ["y", "z", "c"]}
    )
    report = evaluate_sets(retriever, [retrieval, problems])
    test = report.sets["retrieval"].by_column["test"].overall["hybrid"]
    assert (test.hit1, test.hit3) == (0.5, 1.0)
    dev = report.sets["retrieval"].by_column["dev"].overall["hybrid"]
    assert dev.recall3 == 0.5 and dev.hit3 == 1.0  # one of two compared entries
    assert [m.id for m in report.sets["retrieval"].misses] == ["r3"]
    assert report.sets["problems"].misses == ()  # any gold entry in the top 3 is enough
    got = {(t.metric, t.met) for t in report.targets}
    assert got == {("hit@1", False), ("hit@3", True)}
    printed = json.loads(json.dumps(report.as_json()))  # what `--json` prints
    assert printed["sets"]["retrieval"]["misses"] == [
        {"id": "r3", "question": "q3", "gold": ["a", "c"], "top3": ["a", "z", "y"]}
    ]
    direct = printed["sets"]["retrieval"]["by_column"]["test"]["categories"]["direct"]
    assert list(direct) == ["n", "dense", "bm25", "hybrid"] and direct["n"] == 2
    assert list(direct["hybrid"]) == [
        "hit@1",
        "hit@3",
        "recall@1",
        "recall@3",
        "recall@5",
        "mrr@10",
    ]


def test_durations_compare_in_hours() -> None:
    days: dict[str, JsonValue] = {"gpu": "h100-sxm", "duration": 15, "duration_unit": "days"}
    assert in_hours(days) == in_hours({"gpu": "h100-sxm", "duration": 360})
    assert in_hours({"duration": 1, "duration_unit": "months"})["duration_hours"] == 730
    assert in_hours({"gpus": 8}) == {"gpus": 8}


def test_tools_report_columns_and_dev_failures_only() -> None:
    cases = (
        CaseResult("a", "q", True, True, (), "dev"),
        CaseResult("b", "q", False, None, ("tool",), "dev"),
        CaseResult("c", "q", False, None, ("tool",), "test"),
    )
    report = Report(cases, ("dev", "test"))
    assert report.column("dev").figures().extraction_exact == 0.5
    assert report.column("test").figures().extraction_exact == 0.0
    assert [f.id for f in report.failures] == ["b"]
    printed = json.loads(json.dumps(report.as_json()))  # what `--json` prints
    assert list(printed) == [
        "cases",
        "extraction_exact",
        "results_checked",
        "results_correct",
        "columns",
        "by_column",
        "failures",
    ]
    assert printed["failures"] == [{"id": "b", "question": "q", "problems": ["tool"]}]


def test_cli_eval_tools_keeps_to_the_split_asked_for() -> None:
    _register_all()
    result = CliRunner().invoke(app, ["eval", "tools", "--split", "dev", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    rows = read_rows(ROOT / "eval" / "data" / "numeric.jsonl", NumericRow)
    dev_rows = [r for r in rows if r.split == "dev"]
    assert list(report["by_column"]) == ["dev"] and report["cases"] == len(dev_rows)


def test_a_question_that_raises_is_a_failed_case_not_the_end(tmp_path: Path) -> None:
    from assistant.evaluation.tools import evaluate

    path = _write(
        tmp_path / "numeric.jsonl",
        [
            {
                "id": "v1",
                "split": "dev",
                "question": "сколько памяти нужно 70B в FP8",
                "expect": {
                    "tool": "vram_inference",
                    "arguments": {"params_b": 70, "precision": "fp8"},
                    "missing": [],
                },
                "values": {"weights_gb": 70},
            },
            {
                "id": "v2",
                "split": "dev",
                "question": "а в FP4?",
                "after": ["сколько памяти нужно 70B в FP8?"],
                "expect": {"tool": "vram_inference"},
            },
        ],
    )
    toolbox = BrokenToolbox(broken="сколько памяти нужно 70B в FP8?")
    report = evaluate(path, toolbox, SplitChoice.dev)
    assert report.figures().cases == 2 and report.figures().results_correct == 1.0
    assert [f.id for f in report.failures] == ["v2"]
    assert report.failures[0].problems[0].startswith("исключение OverflowError")
