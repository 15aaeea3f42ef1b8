"""The corpus `questions:` copy no eval question (any split): exact or char-3-gram Jaccard ≥ 0.6."""

from __future__ import annotations

import json
from pathlib import Path

from assistant.corpus.glossary import load_glossary
from assistant.evaluation.leakage import eval_questions, find_leaks
from assistant.settings import ROOT


def test_no_corpus_question_copies_an_eval_question() -> None:
    leaks = find_leaks(ROOT / "corpus", ROOT / "eval" / "data")
    assert not leaks, [(x.slug, x.corpus_question, x.eval_id, x.jaccard) for x in leaks[:5]]


def test_the_check_catches_a_copy_a_near_copy_and_a_dialogue_turn(tmp_path: Path) -> None:
    asked = load_glossary(ROOT / "corpus").by_slug()["mig"].questions[0]
    rows = [
        {"id": "r1", "question": asked.upper() + "?!"},  # the same after normalisation
        {"id": "r2", "question": f"скажите, {asked}"},  # a near copy
        {"id": "d1", "turns": [{"user": "что такое kv-кэш"}, {"user": asked}]},
        {"id": "v1", "question": "а в FP8?", "after": [asked]},  # an earlier question
        {"id": "r3", "question": "какая погода завтра в москве"},
    ]
    (tmp_path / "set.jsonl").write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8"
    )
    assert len(eval_questions(tmp_path)) == 7
    found = {(x.slug, x.eval_id) for x in find_leaks(ROOT / "corpus", tmp_path)}
    assert found == {("mig", "set:r1"), ("mig", "set:r2"), ("mig", "set:d1"), ("mig", "set:v1")}
