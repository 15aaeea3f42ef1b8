"""Odd characters cost what ordinary text of the same length costs: no pattern reads a long run
again from each of its characters (eval/bench_parsing.py measures the figures).

Not a speed test: each compares two CPU times of this thread taken in turns, so the machine's
speed and load cancel out; what fails is the shape of the cost (before: 72 × and 45–55 ×, against
bounds of 4 × and 32 ×; now 1.1–1.5 × and 11–15 × on a loaded 2-core box).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from assistant.corpus.catalog import norm
from assistant.text.tokens import tokenize
from assistant.understanding.periods import masked
from assistant.understanding.quantities import _named
from assistant.understanding.signals import signals
from tests.helpers import CATALOG, read

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


def cpu_ms(
    parse: Callable[[str], object], text: str, other: str, repeats: int = 3
) -> tuple[float, float]:
    """The least CPU time of `repeats` parses of `text` and of `other`, taken in turns."""
    best = {text: float("inf"), other: float("inf")}
    for _ in range(repeats):
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


def growth(parse: Callable[[str], object], unit: str) -> float:
    """CPU time of `parse` on `unit` repeated to 2 000 characters over its time on 125: ~16 for
    work in proportion to the length, up to 256 for work that grows as its square."""
    long = fill(unit)
    slow, fast = cpu_ms(parse, long, long[:125], repeats=7)
    return slow / fast


def gpu_names(text: str) -> tuple[str, ...]:
    return _named(f" {norm(text)} ", CATALOG.gpu_aliases)  # as extract_normalised pads them


@pytest.mark.parametrize(
    ("name", "parse", "unit"),
    [
        # every year after a preposition searched the whole text before it for «контекст …»
        # and was checked against every date read before it (~50 × for 16 × the length)
        ("years and dates", masked, "в 2024 "),
        # every name found was checked against every name kept (~50 ×)
        ("GPU names", gpu_names, "h100 a100 "),
    ],
)
def test_many_mentions_cost_in_proportion_to_their_number(
    name: str, parse: Callable[[str], object], unit: str
) -> None:
    assert growth(parse, unit) < 32, name
