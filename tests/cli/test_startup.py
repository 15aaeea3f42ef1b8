"""A bad setting at start-up is one Russian line on stderr and exit code 2, never a traceback:
`assistant serve` checks the database and the port before it loads the model, so the line
comes at once."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.settings import ROOT

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def start(command: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    return subprocess.run(
        [sys.executable, "-m", "assistant", command, *args],
        cwd=ROOT / "tests",  # no .env picked up
        env={**clean, "PYTHONPATH": str(ROOT), "COLUMNS": "200", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def one_russian_line(r: subprocess.CompletedProcess[str], *words: str) -> str:
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert "Traceback" not in r.stderr + r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("Ошибка") and CYRILLIC.search(lines[0].split(":", 1)[1])
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "plain-file"
    path.write_text("not a directory")
    return path


def test_a_database_path_under_a_file(a_file: Path) -> None:
    db = str(a_file / "assistant.sqlite3")
    one_russian_line(start("serve", ASSISTANT_DB_PATH=db), "ASSISTANT_DB_PATH", db)
    one_russian_line(start("report", ASSISTANT_DB_PATH=db), "ASSISTANT_DB_PATH")


def test_a_database_path_that_is_a_directory_or_not_a_database(
    tmp_path: Path, a_file: Path
) -> None:
    one_russian_line(start("serve", ASSISTANT_DB_PATH=str(tmp_path)), str(tmp_path))
    url = f"sqlite:///{a_file}"
    one_russian_line(start("serve", ASSISTANT_DATABASE_URL=url), "ASSISTANT_DATABASE_URL")


def test_bad_settings_and_a_busy_port() -> None:
    one_russian_line(start("serve", ASSISTANT_PORT="восемь"), "ASSISTANT_PORT")
    one_russian_line(start("serve", ASSISTANT_DATABASE_URL="mysql://x"), "ASSISTANT_DATABASE_URL")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        one_russian_line(start("serve", "--port", port), port)
