"""Odd characters cost what ordinary text of the same length costs: no pattern reads a long run
again from each of its characters (eval/bench_parsing.py measures the figures)."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from assistant.text.tokens import tokenize
from assistant.understanding.signals import signals
from tests.helpers import read

LIMIT = 2000  # ASSISTANT_MAX_MESSAGE_CHARS


def fill(unit: str) -> str:
    return (unit * (LIMIT // len(unit) + 1))[:LIMIT]


ORDINARY = fill(
    "Сколько памяти нужно Llama 3 70B в FP8 с контекстом 32k на двух H100? "
    "Что такое NVLink и зачем он нужен? Сколько стоит аренда 8 H100 на неделю за 2 190 $ в "
    "месяц? Чем HBM отличается от GDDR7? Влезет ли Qwen 2.5 72B на 4 карты по 48 ГБ? "
)
# Each cost ~0,5 s before (ordinary text of the same length: ~6 ms): every quantity pattern
# tried each digit of the run as the start of a number and read the rest of the run from it.
HOSTILE = {
    "2 000 digits": "7" * LIMIT,
    "digits, then «гб»": "1" * (LIMIT - 3) + " гб",
    "«$», then digits": "$" + "1" * (LIMIT - 1),
    "«сто сто …», one number once normalised": fill("сто "),
    "«1 000 000 …», one number once normalised": "1" + fill(" 000")[: LIMIT - 1],
    "full-width digits": "１" * LIMIT,
    "«1 гб » again and again": fill("1 гб "),
}


def cpu_ms(parse: Callable[[str], object], text: str, other: str) -> tuple[float, float]:
    """The least CPU time of three parses of `text` and of `other`, taken in turns."""
    best = {text: float("inf"), other: float("inf")}
    for _ in range(3):
        for t in (text, other):
            start = time.thread_time()
            parse(t)
            best[t] = min(best[t], (time.thread_time() - start) * 1000)
    return best[text], best[other]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_message_costs_what_ordinary_text_of_its_length_does(name: str) -> None:
    hostile, ordinary = cpu_ms(read, HOSTILE[name], ORDINARY)
    assert hostile < 4 * ordinary, f"{name}: {hostile:.1f} ms, ordinary text {ordinary:.1f} ms"


def test_a_run_of_commas_costs_the_signals_what_ordinary_text_does() -> None:
    """«а,,,,…,а»: the «простыми словами» ending was tried from each comma (~28 ms against ~1)."""
    commas = "а" + "," * (LIMIT - 2) + "а"
    hostile, ordinary = cpu_ms(lambda t: signals(t, tokenize(t)), commas, ORDINARY)
    assert hostile < 4 * ordinary, f"{hostile:.1f} ms, ordinary text {ordinary:.1f} ms"
