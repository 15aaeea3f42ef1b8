"""Shared test helpers: the real corpus's catalogue (read once per run), a chat, the report CLI.

read("а в FP8?") -> ParsedMessage        (catalogue names; no glossary terms)
TOOLBOX.solve("сколько памяти нужно 70B в FP8") / TOOLBOX.run(name, arguments)
conversation(pipeline, "вопрос", "уточнение", history=[]) -> [Answer, Answer]   (turns carried)
report(db, "--json", columns=200) -> stdout of `python -m assistant report --days 0` on SQLite db
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from assistant.corpus.catalog import load_catalog
from assistant.numeric import Calculations, NumericOutcome
from assistant.pipeline import Pipeline
from assistant.schema import Answer, Turn
from assistant.settings import ROOT
from assistant.understanding.reader import ParsedMessage

CATALOG = load_catalog(ROOT / "corpus")
TOOLBOX = Calculations(CATALOG)


def read(text: str) -> ParsedMessage:
    return TOOLBOX.reader.read(text)


def solve_chain(*questions: str) -> NumericOutcome:
    """The calculators' outcome for the last question, each one carrying the one before's."""
    outcomes: list[NumericOutcome] = []
    for q in questions:
        outcomes.append(TOOLBOX.solve(q, carried=outcomes[-1].params if outcomes else {}))
    return outcomes[-1]


def conversation(
    pipeline: Pipeline, *messages: str, history: list[Turn] | None = None
) -> list[Answer]:
    """Each message answered with the turns before it, as a chat would send them."""
    turns = list(history or [])
    answers = []
    for m in messages:
        a = pipeline.answer(m, turns)
        turns.extend(pipeline.turns_for(m, a))
        answers.append(a)
    return answers


def report(db: Path, *args: str, columns: int = 200) -> str:
    """The `assistant report` of the SQLite database `db`, run as a user runs it."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "ASSISTANT_DB_PATH": str(db),
        "ASSISTANT_DATABASE_URL": "",
        "COLUMNS": str(columns),
    }
    done = subprocess.run(
        [sys.executable, "-m", "assistant", "report", "--days", "0", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout
