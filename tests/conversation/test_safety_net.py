"""The terminal channel on a question that overflows the number parser (issue 14): `assistant ask`
prints an answer or one Russian error line — never a traceback — and a batch carries on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.settings import Settings
from tests.cli.test_ask import ask

LONG_NUMBER = "сколько памяти нужно для " + "9" * 400 + "B в FP16?"


@pytest.fixture(scope="module")
def index_dir(settings: Settings, retriever) -> Path:
    return settings.index_dir  # built once by the session's retriever


def test_ask_never_prints_a_traceback(index_dir: Path) -> None:
    r = ask(index_dir, LONG_NUMBER)
    assert "Traceback" not in r.stderr + r.stdout and "Overflow" not in r.stderr + r.stdout
    if r.returncode:  # the engine could not answer: exit 2 with one Russian line
        assert r.returncode == 2 and r.stderr.startswith("Ошибка: "), r.stderr
    else:
        assert r.stdout.strip()


def test_a_json_batch_gives_one_line_per_question_and_carries_on(index_dir: Path) -> None:
    r = ask(index_dir, "--json", "-", stdin=f"{LONG_NUMBER}\nчто такое NVLink?\n")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    first, second = (json.loads(line) for line in r.stdout.splitlines())
    assert "answer" in first or first["error"]["code"] == "answer_failed"
    assert second["citations"][0]["slug"] == "nvlink"
