"""The energy calculator: power at TDP × GPUs and energy over a period, asked in words.

Hand-computed from corpus/gpus.yaml: H100 SXM 700 W, MI355X 1 400 W, B300 TDP not published.
  8 × 700 W = 5 600 W = 5,6 kW; a week 168 h → 5,6 × 168 = 940,8 kWh; a month 730 h → 4 088 kWh.
"""

from __future__ import annotations

import pytest

from tests.helpers import TOOLBOX, solve_chain


def test_power_and_energy_of_eight_cards_for_a_week() -> None:
    out = TOOLBOX.solve("сколько электроэнергии потребляют 8 H100 за неделю?")
    assert out.tool == "gpu_power" and not out.missing and not out.rejected
    values = out.results[0].values
    assert values["power_kw"] == pytest.approx(5.6)
    assert values["energy_kwh"] == pytest.approx(940.8)
    assert "5,6\u00a0кВт" in out.answer_ru and "941\u00a0кВт·ч" in out.answer_ru
    assert out.related_slugs == ["tdp"]


def test_a_follow_up_keeps_the_energy_question() -> None:
    month = solve_chain("сколько электроэнергии потребляют 8 H100 за неделю?", "а за месяц?")
    assert month.tool == "gpu_power"
    assert month.results[0].values["energy_kwh"] == pytest.approx(4088)


def test_a_card_without_a_published_tdp_is_refused_not_guessed() -> None:
    out = TOOLBOX.solve("сколько электричества жрёт B300 за сутки?")
    assert out.rejected and "не публикует TDP" in out.answer_ru and not out.results


def test_the_card_is_asked_for_when_missing() -> None:
    out = TOOLBOX.solve("сколько квт·ч уйдёт за неделю?")
    assert out.tool == "gpu_power" and out.missing == ["gpu"]


@pytest.mark.parametrize(
    "question",
    [
        "сколько ватт должна отводить система охлаждения у MI355X",  # the TDP entry answers
        "сколько памяти потребляет Llama 3 8B в FP16?",  # «потребляет» is about memory
        "что такое TDP?",
    ],
)
def test_watts_of_one_card_and_memory_are_not_energy_questions(question: str) -> None:
    assert TOOLBOX.solve(question).tool != "gpu_power"
