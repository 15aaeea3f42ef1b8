"""What kind of answer a question wants (understanding/asks.py)."""

from __future__ import annotations

import pytest

from assistant.understanding.asks import Ask, classify
from tests.helpers import read


@pytest.mark.parametrize(
    "text",
    [
        "а можно пол-карты подешевле? нам столько памяти не надо",  # the reason negates, not
        "на моей гпушке будут крутиться чужие задачи, пока она простаивает?",  # the question
        "у вас можно взять L4?",
    ],
)
def test_a_yes_or_no_about_the_provider(text: str) -> None:
    reading = classify(read(text))
    assert reading.ask is Ask.provider and reading.yes_no


def test_a_negated_question_gets_no_yes_or_no() -> None:
    reading = classify(read("раз у вас анти-ддос, свой фаервол можно не настраивать?"))
    assert reading.ask is Ask.provider and not reading.yes_no


@pytest.mark.parametrize(
    "text",
    [
        "перевёл модель в int4, влезла, но отвечает заметно тупее — это нормально?",
        "на четырёх серверах обучение масштабируется отвратно, шаг дольше в разы",
        "в бенчмарке обещали 4000 tok/s, а у нас ответ ползёт. нас обманули?",
        "процесс на карте завис, nvidia-smi его не убивает",
    ],
)
def test_a_symptom_in_other_words_is_a_problem(text: str) -> None:
    assert classify(read(text)).ask is Ask.problem


def test_what_a_size_depends_on_is_no_hang() -> None:
    # «зависит» (depends) is not «завис» (hung)
    assert classify(read("от чего зависит размер KV-кэша?")).ask is not Ask.problem
