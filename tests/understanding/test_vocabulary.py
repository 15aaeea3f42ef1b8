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
