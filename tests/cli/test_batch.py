"""Every `--json -` batch: exactly one JSON object per question line, errors included, and the
batch carries on — `ask`, `calc` and `search`, run as a person runs them (a real process)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assistant.settings import Settings
from tests.cli.test_ask import LONG, ask, run

pytestmark = pytest.mark.slow

BIG = "1" * 400  # float() of it is infinity: once an OverflowError (HTTP 500, batch aborted)
LINES = [
    "Какая память была у H100 на старте продаж в 2023 году?",  # a year, not 2 023 years
    "сколько будет стоить H100 на 500 лет?",
    f"сколько памяти нужно модели на {BIG}B в BF16?",
    "сколько памяти нужно -13B в FP16?",
    LONG,
    "сколько стоит 8 H100 с 10 по 24 июня?",
]


@pytest.fixture(scope="module")
def index_dir(settings: Settings, retriever) -> Path:
    return settings.index_dir


def objects(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines()]


def test_ask_batch_answers_years_and_absurd_values_and_carries_on(index_dir: Path) -> None:
    r = ask(index_dir, "--json", "-", stdin="\n".join(LINES) + "\n")
    assert r.returncode == 0, r.stderr
    year, centuries, huge, negative, long, june = objects(r.stdout)
    assert not any(c["name"] == "gpu_cost" for c in year["tool_calls"])
    for limit in (centuries, huge, negative):
        assert limit["route"] == "clarify" and limit["tool_calls"] == []
        assert limit["answer"].startswith("Посчитать не получится")
    assert "десяти лет" in centuries["answer"]
    assert "минус" in negative["answer"]  # never computed as 13B
    assert long["error"]["code"] == "invalid_input"
    [call] = june["tool_calls"]  # the batch went on to the last line, and read the range
    assert call["result"]["values"]["hours"] == 360  # 15 days, both ends included


def test_calc_batch_one_object_per_line(index_dir: Path) -> None:
    r = run(index_dir, "calc", "--json", "-", stdin="\n".join(LINES) + "\n")
    assert r.returncode == 0, r.stderr
    out = objects(r.stdout)
    assert len(out) == len(LINES)
    assert out[0]["tool"] != "gpu_cost"
    assert out[1]["rejected"] and out[2]["rejected"] and out[3]["rejected"]
    assert "Infinity" not in r.stdout  # JSON has no infinity: the line stays parseable
    assert out[5]["results"][0]["values"]["gpu_hours"] == 8 * 360


def test_search_batch_reports_a_bad_line_and_carries_on(index_dir: Path) -> None:
    r = run(index_dir, "search", "--json", "-", stdin=f"что такое nvlink\n{LONG}\nчто такое hbm\n")
    assert r.returncode == 0, r.stderr
    first, error, last = objects(r.stdout)
    assert first["hits"][0]["slug"] == "nvlink"
    assert error["error"]["code"] == "invalid_input"
    assert last["hits"] and all(set(h) == {"slug", "title", "score"} for h in last["hits"])
