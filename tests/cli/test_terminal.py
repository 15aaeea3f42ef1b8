"""The terminal is not the user's to drive: text someone typed (a question stored before the
input edge cleaned it, a comment, an answer that repeats a term) reaches `assistant report`,
`ask` and `chat` output with its ESC/BEL/C1 sequences and bidi overrides made visible, never
written raw — in the table and in `--json` alike."""

from __future__ import annotations

import json
import re
from pathlib import Path

from assistant.storage.sqlite import SqliteRepository
from tests.helpers import report
from tests.storage.test_repository import exchange

# what must never reach a terminal raw: C0 but tab and line feed, DEL, C1, bidi controls
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
TITLE = "\x1b]0;взломано\x07"  # sets the terminal window's title
CLEAR = "\x1b[2J\x1b[H"  # clears the screen
QUESTION = f"что такое {TITLE}квазитрон{CLEAR}\u202e?"
COMMENT = "\x9b31mкрасный\u2066 текст\x07"


def _db(tmp_path: Path) -> Path:
    db = tmp_path / "db.sqlite3"
    repo = SqliteRepository(db)  # rows as an older version stored them, before cleaning
    cid = repo.get_or_create_conversation("web", None)
    repo.add_feedback(exchange(repo, cid, QUESTION, refused=True), -1, COMMENT)
    repo.close()
    return db


def test_report_table_shows_escape_sequences_without_running_them(tmp_path: Path) -> None:
    table = report(_db(tmp_path))
    assert "квазитрон" in table and "красный" in table
    assert not RAW.search(table), repr(RAW.findall(table))
    assert "␛]0;взломано␇" in table  # visible, so the editor sees what was sent


def test_report_json_escapes_them_and_keeps_the_text(tmp_path: Path) -> None:
    out = report(_db(tmp_path), "--json")
    assert not RAW.search(out), repr(RAW.findall(out))
    groups = json.loads(out)["questions"]
    assert groups[0]["question"] == QUESTION and groups[0]["comments"] == [COMMENT]


def test_terminal_safe_marks_each_control_once() -> None:
    from assistant.cli.terminal import terminal_safe

    assert terminal_safe("ok\tтаб\nстрока") == "ok\tтаб\nстрока"
    assert terminal_safe("\x1b[31m\x07\x00\x7f") == "␛[31m␇␀␡"
    assert terminal_safe("a\x9bb\u202ec") == "a⟨U+009B⟩b⟨U+202E⟩c"
    assert terminal_safe("\r") == "␍"
