"""Years and calendar dates in normalised text; quantities that look like years are not years."""

from __future__ import annotations

import pytest

from assistant.text.numbers import normalise
from assistant.understanding.dates import dates


def found(text: str) -> list[tuple[int | None, int | None, int | None]]:
    return [(d.year, d.month, d.day) for d in dates(normalise(text))]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("сколько стоит H100 за 2024 год", [(2024, None, None)]),
        ("в 2024 году купили восемь H100", [(2024, None, None)]),
        ("к 2030-му", [(2030, None, None)]),
        ("с 2023 по 2025", [(2023, None, None), (2025, None, None)]),
        ("12.03.2025 арендовал сервер", [(2025, 3, 12)]),
        ("2025-03-12", [(2025, 3, 12)]),
        ("12 марта 2025", [(2025, 3, 12)]),
        ("с 1 января", [(None, 1, 1)]),
        ("в марте 2024", [(2024, 3, None)]),
        ("9 мая", [(None, 5, 9)]),
    ],
)
def test_years_and_dates(
    text: str, expected: list[tuple[int | None, int | None, int | None]]
) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "контекст 2048 токенов",
        "в 2048 токенов",
        "батч в 2048",
        "2000 $ в месяц",
        "на 2000 часов",
        "1999 GPU",
        "32.13.2025",  # no 13th month
        "llama 3 405b",
    ],
)
def test_quantities_are_not_years(text: str) -> None:
    assert found(text) == []
