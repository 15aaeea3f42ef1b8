"""The guard's blind draft set: rows read into their model, each draft judged by the guard's
own verification over its listed sources, dev and test counted apart; the slow test holds the
dev half to ceilings so a weaker guard fails."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from assistant.answer.generation import EmbeddedGenerator, instruction_shingles
from assistant.answer.guard import Guard
from assistant.corpus.catalog import Catalog
from assistant.corpus.glossary import Glossary
from assistant.evaluation.guard import context, evaluate, render
from assistant.evaluation.leakage import eval_questions
from assistant.evaluation.rows import GuardDraftRow
from assistant.evaluation.sets import SplitChoice, load
from assistant.settings import ROOT, Settings

# the dev half as measured when the checks last changed (docs/benchmarks.md): no class may get
# worse. Bad classes: drafts delivered; good classes: drafts rejected; "bad"/"good": the totals.
DEV_CEILINGS = {
    "bad": 0,
    "good": 12,
    **dict.fromkeys(
        ("alias_number", "arithmetic", "attribution_swap", "control_chars", "entity_swap"), 0
    ),
    **dict.fromkeys(("markup", "negation", "number_words", "overgeneralization"), 0),
    **dict.fromkeys(("provider_policy", "qualifier_swap", "relative", "uncited", "unit"), 0),
    "wrong_citation": 0,
    "hedge": 0,
    "provider_ok": 0,
    "number_words_ok": 1,
    "paraphrase": 3,
    "relative_ok": 2,
    "reorder": 2,
    "summary": 2,
    "unit_ok": 2,  # a figure a thousand apart (ГБ/с ↔ ТБ/с, Вт ↔ кВт) is the same figure
}


def _row(**extra: Any) -> GuardDraftRow:
    base: dict[str, Any] = {
        "id": "t1",
        "split": "dev",
        "category": "paraphrase",
        "verdict": "good",
        "question": "что такое NCCL?",
        "sources": [{"entry": "nccl"}],
        "draft": "NCCL — библиотека NVIDIA для коллективных операций между GPU [1].",
    }
    return GuardDraftRow.model_validate(base | extra)


@pytest.fixture(scope="module")
def guard(settings: Settings, glossary: Glossary, catalog: Catalog) -> Guard:
    return Guard(settings, glossary, catalog, EmbeddedGenerator(settings.prompts_dir), None)


def test_a_source_names_exactly_one_of_entry_gpu_model() -> None:
    with pytest.raises(ValidationError):
        _row(sources=[{"entry": "nccl", "gpu": "h100-sxm"}])
    with pytest.raises(ValidationError):
        _row(sources=[{}])
    assert _row(sources=[{"model": "llama-3-70b"}]).sources[0].model == "llama-3-70b"


def test_the_context_holds_the_listed_sources_in_marker_order(
    glossary: Glossary, catalog: Catalog
) -> None:
    row = _row(sources=[{"gpu": "h200"}, {"entry": "hbm3e"}, {"model": "llama-3-70b"}])
    ctx = context(row, glossary, catalog)
    assert [e.slug for e in ctx.entries] == ["gpu-h200", "hbm3e", "model-llama-3-70b"]
    assert "141" in ctx.entries[0].text and "70,6 млрд" in ctx.entries[2].text
    assert ctx.route == "comparison" and ctx.message == row.question


def test_a_wrong_verdict_is_counted_per_class_and_split(
    settings: Settings, guard: Guard, glossary: Glossary, catalog: Catalog
) -> None:
    invented = "NCCL ускоряет обучение в 17 раз [1]."
    rows = [
        _row(),  # good, delivered
        _row(id="t2", verdict="bad", category="invented", draft=invented),  # rejected
        _row(id="t3", split="test", draft=invented),  # good by its label, rejected
    ]
    report = evaluate(rows, guard, instruction_shingles(settings.prompts_dir), glossary, catalog)
    assert report.wrong("dev", "paraphrase") == 0 and report.wrong("dev", "invented") == 0
    assert report.wrong("test", "paraphrase") == 1 and report.wrong("test", "good") == 1
    assert report.misses == []  # a test row's miss is never listed
    table = render(report)
    assert "paraphrase" in table and "1/1" in table and "Ошибки на dev" not in table
    assert "Проверка одного черновика: медиана" in table and report.timing()["p95_ms"]


@pytest.mark.slow
def test_the_dev_half_stays_under_its_ceilings(
    settings: Settings, guard: Guard, glossary: Glossary, catalog: Catalog
) -> None:
    rows = load(ROOT / "eval" / "data" / "guard_drafts.jsonl", GuardDraftRow, SplitChoice.dev)
    assert len(rows) > 100
    report = evaluate(rows, guard, instruction_shingles(settings.prompts_dir), glossary, catalog)
    assert set(report.verdicts) | {"bad", "good"} == set(DEV_CEILINGS)
    got = {key: report.wrong("dev", key) for key in DEV_CEILINGS}
    over = {k: (v, DEV_CEILINGS[k]) for k, v in got.items() if v > DEV_CEILINGS[k]}
    assert not over, render(report)


def test_a_draft_s_question_is_no_eval_question_for_the_leakage_check(tmp_path: Path) -> None:
    row = {"id": "g1", "split": "dev", "question": "что такое NVLink?", "draft": "…"}
    (tmp_path / "guard_drafts.jsonl").write_text(json.dumps(row, ensure_ascii=False) + "\n")
    (tmp_path / "retrieval.jsonl").write_text(json.dumps(row, ensure_ascii=False) + "\n")
    assert eval_questions(tmp_path) == [("retrieval:g1", "что такое NVLink?")]
