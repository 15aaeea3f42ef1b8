"""Russian lemmatisation and token normalisation used by BM25 and alias matching."""

from __future__ import annotations

import pytest

from assistant.text.tokens import lemmas, normalize_phrase, transliterate, words


def test_russian_inflections_collapse_to_one_lemma() -> None:
    assert lemmas("видеопамяти")[0] == lemmas("видеопамятью")[0] == "видеопамять"
    assert lemmas("кончается") == ["кончаться"]
    assert lemmas("тензорного параллелизма") == ["тензорный", "параллелизм"]


def test_latin_acronyms_and_model_names_stay_intact() -> None:
    assert lemmas("NVLink и H100 SXM, FP8") == ["nvlink", "h100", "sxm", "fp8"]


def test_cyrillic_lookalike_letters_inside_latin_words_are_fixed() -> None:
    # «hbm3е» typed with a Cyrillic «е», «Н100» with a Cyrillic «Н»
    assert words("hbm3\u0435") == ["hbm3e"]
    assert words("\u041d100") == ["h100"]


def test_stop_words_dropped_for_bm25_but_kept_for_phrases() -> None:
    assert lemmas("что такое параллелизм по данным") == ["параллелизм", "данные"]
    assert normalize_phrase("Параллелизмом по данным") == "параллелизм по данные"


def test_yo_is_folded() -> None:
    assert words("объём") == ["объем"]


@pytest.mark.parametrize(
    ("word", "latin"),
    [("хбм3е", "hbm3e"), ("рдма", "rdma"), ("нвлинк", "nvlink"), ("щука", "schuka")],
)
def test_transliterate_spells_cyrillic_by_sound(word: str, latin: str) -> None:
    assert transliterate(word) == latin


@pytest.mark.parametrize("word", ["h100", "hbm3е", "123"])
def test_transliterate_leaves_latin_and_mixed_tokens(word: str) -> None:
    """Mixed tokens are look-alike typing (handled by `words`), digits alone are no name."""
    assert transliterate(word) == ""
