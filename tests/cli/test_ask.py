"""`assistant ask` as a person runs it: the real pipeline in a real process, output read as text."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.settings import ROOT, Settings

LONG = "очень длинный вопрос " * 150  # > max_message_chars
FIT = "поместится ли Llama 3 70B в FP8 на H100?"
COST = "сколько стоит аренда 8 H100 на неделю?"
# what a person must never see in a terminal
DUMPS = re.compile(r"\{'|\['|_gb\b|_pct\b|h100-sxm|gb300-nvl72|\d\.\d{3,}|\[object|Traceback")


@pytest.fixture(scope="module")
def index_dir(settings: Settings, retriever) -> Path:
    return settings.index_dir  # built once by the session's retriever


def ask(
    index_dir: Path, *args: str, stdin: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    return run(index_dir, "ask", *args, stdin=stdin, **env)


def run(
    index_dir: Path, command: str, *args: str, stdin: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    """`python -m assistant <command>` with the test index and no .env or ASSISTANT_* leaks."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    env = {
        "ASSISTANT_INDEX_DIR": str(index_dir),
        "ASSISTANT_CORPUS_DIR": str(ROOT / "corpus"),
        **env,
    }
    return subprocess.run(
        [sys.executable, "-m", "assistant", command, *args],
        cwd=ROOT / "tests",  # no .env picked up
        env={**clean, **env, "COLUMNS": "100", "PYTHONPATH": str(ROOT)},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_batch_text_reads_like_an_answer(index_dir: Path) -> None:
    base = "https://fullgpu.example"
    lines = "\n".join([FIT, LONG, COST, "что такое NVLink?"]) + "\n"
    r = ask(index_dir, "-", stdin=lines, ASSISTANT_PUBLIC_BASE_URL=base)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert not DUMPS.search(out), out
    # the calculations are the display tables, under captions people understand
    assert "Подбор GPU" in out and "Варианты GPU" in out and "Стоимость аренды" in out
    assert re.search(r"H100 SXM\s+80 ГБ\s+2\s+впритык", out.replace("\u00a0", " "))
    assert re.search(r"Итого\s+4 032 \$", out.replace("\u00a0", " "))
    # citations open from a terminal; no developer line without --verbose
    assert f"{base}/glossary/nvlink" in out and "/glossary/gpu-hour" in out
    assert "маршрут:" not in out and "генератор:" not in out
    # the too-long line is reported once, and the batch carries on to the next questions
    assert r.stderr.count("Сообщение слишком длинное") == 1, r.stderr
    assert out.index("Подбор GPU") < out.index("Стоимость аренды") < out.index("NVLink —")


def test_batch_json_one_object_per_line_errors_included(index_dir: Path) -> None:
    r = ask(index_dir, "--json", "-", stdin=f"{FIT}\n{LONG}\n\nчто такое NVLink?\n")
    assert r.returncode == 0, r.stderr
    objects = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(objects) == 3  # the blank line is skipped, every other line answered
    fit, error, term = objects
    assert error == {"error": {"code": "invalid_input", "message": error["error"]["message"]}}
    assert error["error"]["message"].startswith("Сообщение слишком длинное")
    call, *remedies = fit["tool_calls"]  # «впритык»: a lighter precision is computed too,
    helps = [(r["arguments"]["precision"], r["arguments"]["gpu"]) for r in remedies]
    assert helps == [("int4", "h100-sxm"), ("fp8", "h200")]  # …and the next larger card
    assert call["name"] == "gpu_fit" and call["result"]["values"]["gpu"] == "h100-sxm"  # raw kept
    assert call["display"]["title"] == "Подбор GPU"
    assert call["display"]["table"]["columns"] == ["GPU", "Память", "Нужно GPU", "На одну карту?"]
    assert term["route"] == "term" and term["citations"][0]["slug"] == "nvlink"


def test_verbose_route_line_and_slug_title_citations(index_dir: Path) -> None:
    r = ask(index_dir, "--verbose", "что такое NVLink?")
    assert r.returncode == 0, r.stderr
    assert "[1] nvlink — NVLink" in r.stdout
    assert "маршрут: term · генератор: embedded" in r.stdout


def test_an_error_is_printed_once(index_dir: Path) -> None:
    r = ask(index_dir, "   ")
    assert r.returncode == 2
    assert r.stderr.count("Пустое сообщение") == 1, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


def test_chat_follow_up_renders_its_calculation(index_dir: Path) -> None:
    turns = "сколько памяти нужно 70B в BF16?\nа в FP8?\n"
    r = run(index_dir, "chat", stdin=turns)
    assert r.returncode == 0, r.stderr
    out = r.stdout.replace("\u00a0", " ")
    second = out.split("вы>")[2]  # the follow-up kept the model size from the first turn
    assert "Память для инференса" in second and "Размер модели: 70 млрд параметров" in second
    assert re.search(r"Веса\s+70 ГБ\s+70 млрд × 1 байт \(FP8\)", second)
    assert not DUMPS.search(out) and "маршрут:" not in out
    assert out.rstrip().endswith("До встречи!")
