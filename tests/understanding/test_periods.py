"""Rental periods, durations in words, architecture and stated memory, read from the text."""

from __future__ import annotations

import pytest

from tests.helpers import read

HOURS = {"hours": 1, "days": 24, "weeks": 168, "months": 730, "years": 8760}


def hours(text: str) -> float | None:
    p = read(text).quantities.params.stored()
    duration, unit = p.get("duration"), str(p.get("duration_unit"))
    return float(duration) * HOURS[unit] if isinstance(duration, int | float) else None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("с 10 по 24 июня 8 H100", 15 * 24),  # both ends rented
        ("с 25 мая по 5 июня", 12 * 24),
        ("с 15.06 по 20.06", 6 * 24),
        ("с 20 декабря по 10 января", 22 * 24),  # into the next year
        ("с 28 февраля по 2 марта 2027 года", 3 * 24),  # 2027 is not a leap year
        ("с понедельника по пятницу", 5 * 24),
        ("10–24 июня", 15 * 24),
        ("с 10-го по 24-е июня", 15 * 24),
        ("в течение недели", 168),
        ("на пару дней", 48),
        ("полторы недели", 252),
        ("полмесяца", 365),
        ("полгода", 6 * 730),
        ("на квартал", 3 * 730),
        ("на неделю и два дня", 9 * 24),
        ("на весь 2026 год", 8760),
        ("сколько стоит неделя на 2 H100?", 168),  # the unit priced is one of it
        ("а сколько будет стоить месяц?", 730),
        ("во сколько обойдётся день?", 24),
        ("сколько стоит H100 в месяц?", None),  # a rate, not a period
        ("бюджет на 2026 год: 4 H100 на 3 месяца", 3 * 730),
        ("в 2023 году", None),
        ("за 2024 год", None),
        ("NVLink образца 2024 года", None),
        ("с 2020 по 2024 год", None),
        ("2024-06-10T10:31:00Z ERROR", None),
    ],
)
def test_periods_in_hours(text: str, expected: float | None) -> None:
    assert hours(text) == expected


@pytest.mark.parametrize(
    "text", ["с 10 по 9 июня 8 H100", "с 31 февраля по 3 марта", "с 15.13 по 20.13"]
)
def test_impossible_ranges_are_problems_not_durations(text: str) -> None:
    q = read(text).quantities
    assert q.problems and "duration" not in q.params.stored()


def test_negative_and_overflowing_numbers_keep_their_sign_and_size() -> None:
    assert read("сколько памяти нужно -13B в FP16?").quantities.params.params_b == -13
    assert (
        read("Qwen3-32B в FP8").quantities.params.stored()["model"] == "qwen3-32b"
    )  # a hyphen, not minus
    huge = read("модель на " + "7" * 400 + "B").quantities.params.stored()["params_b"]
    assert huge == float("inf")  # the limits answer it; no OverflowError


def test_architecture_stated_memory_and_unknown_gpus() -> None:
    kv = read("28 layers, 4 kv heads, head_dim 128, ctx 128k, fp16").quantities.params.stored()
    assert (kv["layers"], kv["kv_heads"], kv["head_dim"]) == (28, 4, 128)
    assert kv["kv_precision"] == "fp16" and "precision" not in kv  # no weights: the cache's
    a6000 = read("A6000 на 48 ГБ — влезет Llama 3 8B в FP16?").quantities.params.stored()
    assert a6000["gpu_label"] == "A6000" and a6000["gpu_memory_gb"] == 48 and "gpu" not in a6000
    a100 = read("Сколько A100 на 40 ГБ нужно для 70B?").quantities.params.stored()
    assert a100["gpu"] == "a100-40gb" and "gpu_memory_gb" not in a100
    p40 = read("поместится ли 13B в fp8 на Tesla P40?")
    assert p40.quantities.params.stored()["gpu_label"] == "Tesla P40" and not p40.signals.not_ours
