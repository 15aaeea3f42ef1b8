"""Which words of a question the glossary and catalogue never use (understanding/vocabulary.py)."""

from __future__ import annotations

import pytest

from assistant.corpus.glossary import Glossary
from assistant.text.tokens import tokenize
from assistant.understanding.vocabulary import Vocabulary
from tests.helpers import CATALOG


@pytest.fixture(scope="module")
def vocabulary(glossary: Glossary) -> Vocabulary:
    return Vocabulary(glossary, CATALOG)


def test_a_long_cyrillic_name_one_letter_short_is_that_name(vocabulary: Vocabulary) -> None:
    # «инфинибэнд» is an alias of InfiniBand; «инфинбэнд» drops one letter
    assert not vocabulary.unknown_term(tokenize("инфинбэнд"))
    assert vocabulary.unknown_term(tokenize("борщ"))  # short words are not guessed as typos
    assert vocabulary.unknown_term(tokenize("TPU"))


def test_a_consumer_card_the_catalogue_lists_no_sheet_for_is_unknown(
    vocabulary: Vocabulary,
) -> None:
    assert vocabulary.unknown_card(tokenize("сколько видеопамяти у RTX 4080 Super?"))
    assert not vocabulary.unknown_card(tokenize("сколько видеопамяти у RTX 4090?"))
    assert not vocabulary.unknown_card(tokenize("новая rtx 2025-го года"))  # a year, not a card


def test_another_makers_accelerator_named_without_a_number_is_unknown(
    vocabulary: Vocabulary,
) -> None:
    assert vocabulary.unknown_card(tokenize("а что по Intel Gaudi 3 — быстрее ли он H100?"))
    assert vocabulary.unknown_card(tokenize("сколько памяти у TPU v5p?"))
    assert not vocabulary.unknown_card(tokenize("сколько памяти у H100?"))


def test_a_card_the_glossary_names_but_no_sheet_has_is_without_a_sheet(
    vocabulary: Vocabulary,
) -> None:
    # «GB200 NVL72» is an alias of the NVL72 entry: a known word, but no catalogue card
    text = tokenize("GB200 NVL72 — сколько HBM на один GPU?")
    assert not vocabulary.unknown_card(text) and vocabulary.card_without_sheet(text)
    assert not vocabulary.card_without_sheet(tokenize("сколько памяти у GB300 NVL72?"))


def test_a_model_number_one_letter_off_a_listed_card_is_another_card(
    vocabulary: Vocabulary,
) -> None:
    # «v100» is one letter from «a100»/«h100»: a different card, not a typo
    assert vocabulary.unknown_card(tokenize("какая пропускная способность памяти у V100 32GB?"))
    assert vocabulary.unknown_card(tokenize("RTX A6000 или L40S?"))
    assert vocabulary.unknown_card(tokenize("сколько памяти у H20"))
    for listed in ("a100", "H100", "l40s", "MI300X", "b200"):
        assert not vocabulary.unknown_card(tokenize(f"сколько памяти у {listed}?"))
    # a latency percentile or a context size is no card
    assert not vocabulary.unknown_card(tokenize("p95 задержки на 8k контекста"))
    assert "v100" in vocabulary.unknown_words(tokenize("есть ли у вас v100"))
