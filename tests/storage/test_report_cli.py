"""`assistant report` shows what users wrote after «Не помогло», each comment once, as typed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.storage.sqlite import SqliteRepository
from tests.helpers import report
from tests.storage.test_repository import exchange


def test_report_shows_feedback_comments(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    repo = SqliteRepository(db)
    cid = repo.get_or_create_conversation("web", None)
    short = "в ответе [1] про HBM4, а я спрашивал про HBM вообще"  # brackets are not markup
    long = "нужны цифры " + "пропускной способности " * 20
    repo.add_feedback(exchange(repo, cid, "что такое HBM?"), -1, short)
    repo.add_feedback(exchange(repo, cid, "что такое hbm"), -1, long)
    repo.add_feedback(exchange(repo, cid, "что такое NVLink?"), 1, "")
    repo.close()

    table = report(db, "--no-gaps")
    assert "— " + short in table
    assert "нужны цифры" in table and "…" in table  # a long comment is shortened in the table
    assert "термин ×2" in table and "term" not in table
    body = json.loads(report(db, "--json", "--no-gaps"))
    assert body["gaps"] == []  # --no-gaps: the model is not even loaded
    groups = body["questions"]
    assert groups[0]["comments"] == [short, long]  # JSON keeps the full text
    assert [g["question"] for g in groups] == ["что такое hbm"]  # 👍 answers are not reported


@pytest.mark.slow
def test_report_prints_the_consoles_gap_groups_inert(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    repo = SqliteRepository(db)
    for question in ("сколько стоит аренда TPU v5 в Google Cloud?", "почём TPU v5 у гугла в час"):
        cid = repo.get_or_create_conversation("web", None)
        exchange(repo, cid, question, refused=True, route="out_of_scope")
    cid = repo.get_or_create_conversation("web", None)
    exchange(
        repo, cid, "\x1b[31mкрасный\x1b[0m [bold]борщ[/bold]", refused=True, route="out_of_scope"
    )
    repo.close()

    text = report(db)
    assert text.startswith("Пробелы в глоссарии")
    first = text.split("\n\n")[1]  # the first group: the two TPU wordings, counted together
    assert first.startswith("1. «") and "— 2 раза, отказов 2" in first
    assert "TPU v5 в Google Cloud?»" in first and "«почём TPU v5 у гугла в час»" in first
    assert "Как ещё спрашивали: «" in first
    assert "Слов нет в глоссарии: tpu" in text and "→ Добавить статью" in text
    gap_part = text.split("Что добавить в глоссарий")[0]  # the table after it is the old report
    assert "\x1b" not in gap_part and "«␛[31mкрасный␛[0m [bold]борщ[/bold]»" in gap_part
    body = json.loads(report(db, "--json"))
    assert [g["count"] for g in body["gaps"]] == [2, 1]
    assert body["gaps"][0]["nearest"][0]["url"].startswith("/glossary/")
