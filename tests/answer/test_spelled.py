"""Numbers written in words are claims: read as digits (thousands, decimals, halves, spelled
units), then checked against the cited sentence like any figure."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.answer.claims import Lexicon
from assistant.answer.spelled import digits
from assistant.answer.support import ClaimSources, unsupported
from assistant.corpus.catalog import Catalog


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("около шестидесяти четырёх гигабайт в секунду", "около 64 ГБ/с"),
        ("тысячу двести гигабайт в секунду", "1200 ГБ/с"),
        ("одну целую восемь десятых терабайта в секунду", "1.8 ТБ/с"),
        ("две целых двадцать пять сотых PFLOPS", "2.25 PFLOPS"),
        ("полторы тысячи ватт", "1500 ватт"),
        ("три с половиной терабайта в секунду", "3.5 ТБ/с"),
        ("до четырёх тысяч девяноста шести бит", "до 4096 бит"),
        ("около половины байта на параметр", "около 0.5 байта на параметр"),
        ("Семьсот ватт, сорок восемь процессоров Grace", "700 ватт, 48 процессоров Grace"),
        ("на двух L40S, на трёх H100", "на 2 L40S, на 3 H100"),
        ("около двадцати семи миллиардов", "около 27 миллиардов"),
        ("полтора киловатта", "1.5 кВт"),
    ],
)
def test_numbers_in_words_read_as_digits(text: str, read: str) -> None:
    assert digits(text) == read


@pytest.mark.parametrize(
    "text",
    [
        "одна машина читает память другой",  # grammar, not a figure
        "один H100 за 2 190 $ в месяц, час работы одного GPU",  # «a», not a count
        "в двух вариантах, с тремя стадиями",
        "тысячи пользователей и сотни GPU",  # vague
        "вдвое больше",  # a relative claim: assistant/answer/relative.py
        "NVLink 5 и 900 ГБ/с",
    ],
)
def test_words_that_state_no_figure_stay_words(text: str) -> None:
    assert digits(text) == text


@pytest.fixture(scope="module")
def lexicon(glossary: Any, catalog: Catalog) -> Lexicon:
    return Lexicon.build(glossary, catalog)


def test_a_wrong_number_in_words_is_unsupported(lexicon: Lexicon, glossary: Any) -> None:
    nvlink = ClaimSources.build(lexicon, [glossary.by_slug()["nvlink"]])
    wrong = "NVLink четвёртого поколения в Hopper даёт тысячу двести гигабайт в секунду [1]."
    right = "NVLink четвёртого поколения в Hopper даёт девятьсот гигабайт в секунду на GPU [1]."
    assert unsupported(wrong, [0], nvlink, spelled=True)
    assert unsupported(right, [0], nvlink, spelled=True) == []
    assert unsupported(wrong, [0], nvlink) == []  # the embedded composer quotes digits only
