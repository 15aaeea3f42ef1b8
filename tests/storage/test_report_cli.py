"""`assistant report` shows what users wrote after «Не помогло», each comment once, as typed."""

from __future__ import annotations

import json
from pathlib import Path

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

    table = report(db)
    assert "— " + short in table
    assert "нужны цифры" in table and "…" in table  # a long comment is shortened in the table
    assert "термин ×2" in table and "term" not in table
    groups = json.loads(report(db, "--json"))
    assert groups[0]["comments"] == [short, long]  # JSON keeps the full text
    assert [g["question"] for g in groups] == ["что такое hbm"]  # 👍 answers are not reported
