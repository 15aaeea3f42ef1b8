"""The export of a period: CSV for people (Russian headers and labels, Excel-safe) and JSONL for
programs, one row per question, nothing deleted and nothing outside the period."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

from assistant.console.export import CSV_HEADER, export_chunks
from assistant.console.period import Period
from assistant.settings import ROOT
from assistant.storage.console import ConsoleRepository
from tests.console.seed import backdate
from tests.storage.test_facts import answer, store

ZONE = "Europe/Moscow"
TITLES = {"nvlink": "NVLink"}


def _export(repo: ConsoleRepository, fmt: str, days: int = 30) -> str:
    return "".join(export_chunks(repo, Period.last_days(days, ZONE), fmt, TITLES))  # type: ignore[arg-type]


def _conversation_of(repo: ConsoleRepository, message_id: str) -> str:
    with repo._tx() as cur:  # type: ignore[attr-defined]
        cur.execute("SELECT conversation_id FROM messages WHERE id = ?", (message_id,))
        return str(cur.fetchone()[0])


def _history(repo: ConsoleRepository) -> dict[str, str]:
    ids = {
        "liked": store(repo, "telegram", "что такое NVLink?", answer(latency_ms=12.0)),
        "formula": store(
            repo, "web", '=HYPERLINK("http://x")', answer("out_of_scope", refused=True)
        ),
        "old": store(repo, "web", "вопрос двухмесячной давности", answer()),
        "gone": store(repo, "openai", "удалённый вопрос", answer()),
    }
    repo.add_feedback(ids["liked"], 1, "спасибо, понятно")
    backdate(repo, _conversation_of(repo, ids["old"]), 60)
    failed = repo.get_or_create_conversation("web", None)
    repo.add_user_message(failed, "вопрос без ответа")
    repo.delete_conversation(_conversation_of(repo, ids["gone"]))
    return ids


def test_csv_reads_in_excel_with_russian_headers_and_labels(repo: ConsoleRepository) -> None:
    _history(repo)
    text = _export(repo, "csv")
    assert text.startswith("\ufeff")  # Excel opens UTF-8 with the byte-order mark
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert tuple(rows[0]) == CSV_HEADER
    body = {r[3]: dict(zip(CSV_HEADER, r, strict=True)) for r in rows[1:]}
    assert set(body) == {"что такое NVLink?", '\'=HYPERLINK("http://x")', "вопрос без ответа"}
    liked = body["что такое NVLink?"]
    assert liked["Канал"] == "Telegram" and liked["Исход"] == "Ответ"
    assert liked["Тип вопроса"] == "термин" and liked["Источники"] == "NVLink"
    assert liked["Оценка"] == "полезно" and liked["Комментарий"] == "спасибо, понятно"
    assert liked["Генератор"].startswith("Встроенный") and liked["Из них движок, мс"] == "12"
    assert body['\'=HYPERLINK("http://x")']["Исход"] == "Отказ"  # quoted: stays text in Excel
    assert body["вопрос без ответа"]["Исход"] == "без ответа"
    assert body["вопрос без ответа"]["Ответ"] == ""


def test_jsonl_has_codes_and_one_line_per_question(repo: ConsoleRepository) -> None:
    _history(repo)
    lines = [json.loads(line) for line in _export(repo, "jsonl").splitlines()]
    assert [row["question"] for row in lines] == [
        "что такое NVLink?",
        '=HYPERLINK("http://x")',
        "вопрос без ответа",
    ]
    liked = lines[0]
    assert (liked["channel"], liked["outcome"], liked["route"]) == ("telegram", "answered", "term")
    assert liked["cited"] == ["nvlink"] and liked["feedback"] == 1
    assert liked["asked_at"].endswith("+03:00") and liked["engine_ms"] == 12.0
    assert lines[2]["outcome"] is None and lines[2]["answer"] == ""
    assert len(_export(repo, "jsonl", days=90).splitlines()) == 4  # the old one, further back


def test_assistant_export_writes_the_same_rows(tmp_path: Path) -> None:
    from assistant.storage.sqlite import SqliteRepository

    db = tmp_path / "db.sqlite3"
    repo = SqliteRepository(db)
    _history(repo)
    expected = _export(repo, "jsonl")
    repo.close()
    out = tmp_path / "out.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ASSISTANT_DB_PATH": str(db)}
    env["ASSISTANT_DATABASE_URL"] = ""
    done = subprocess.run(
        [sys.executable, "-m", "assistant", "export", "--format", "jsonl", "-o", str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert out.read_text("utf-8") == expected and "Выгрузка за" in done.stderr
    csv_out = subprocess.run(
        [sys.executable, "-m", "assistant", "export", "--from", "2026-13-01"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert csv_out.returncode == 2 and "ГГГГ-ММ-ДД" in csv_out.stderr
    assert "Traceback" not in csv_out.stderr
