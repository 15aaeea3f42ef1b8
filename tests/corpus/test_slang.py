"""Slang map: the real file is valid; editors' mistakes give clear problems; BM25 uses it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from assistant.corpus.glossary import Glossary, load_glossary
from assistant.corpus.slang import Slang, load_slang
from assistant.errors import CorpusError
from assistant.search.retrieval import HybridRetriever
from assistant.settings import ROOT
from assistant.text.tokens import lemmas

CORPUS = ROOT / "corpus"


@pytest.fixture(scope="module")
def real_glossary() -> Glossary:
    return load_glossary(CORPUS)


def _corpus_with(tmp_path: Path, slang_yaml: str) -> Path:
    shutil.copytree(CORPUS / "terms", tmp_path / "terms")
    (tmp_path / "slang.yaml").write_text(slang_yaml, encoding="utf-8")
    return tmp_path


def test_real_slang_maps_chat_words_to_glossary_words(real_glossary: Glossary) -> None:
    slang = load_slang(CORPUS, real_glossary)
    assert len(slang.to_glossary) >= 30
    assert slang.expand(lemmas("гпушка жрёт много")) == [
        *lemmas("гпушка жрёт много"),
        "gpu",
        "потреблять",
    ]
    assert slang.expand(["nvlink"]) == ["nvlink"]  # glossary words pass unchanged


def test_missing_file_is_no_slang(tmp_path: Path, real_glossary: Glossary) -> None:
    assert load_slang(tmp_path, real_glossary) == Slang()


@pytest.mark.parametrize(
    ("yaml_text", "message"),
    [
        ("words:\n  видюха: звездолёт\n", "слова «звездолёт» нет в глоссарии"),
        ("words:\n  видеокарта: gpu\n", "это слово уже есть в глоссарии"),
        ("words:\n  две видюхи: gpu\n", "ключ и значение — по одному слову"),
        ("words:\n  видюха: [gpu]\n", "значение — строка"),
        ("words: [видюха]\n", "ожидался словарь words"),
        ("words: {видюха: gpu\n", "файл не читается"),
    ],
)
def test_editor_mistakes_are_reported(
    tmp_path: Path, real_glossary: Glossary, yaml_text: str, message: str
) -> None:
    with pytest.raises(CorpusError) as err:
        load_slang(_corpus_with(tmp_path, yaml_text), real_glossary)
    assert message in str(err.value) and "slang.yaml" in str(err.value)


def test_bm25_finds_glossary_sentences_for_slang(fast_retriever: HybridRetriever) -> None:
    bare = HybridRetriever(fast_retriever.glossary, fast_retriever.index, fast_retriever.embedder)
    query = "на амдшных картах торч заведётся"
    with_slang = fast_retriever.search(query, k=3, mode="bm25")
    without = bare.search(query, k=3, mode="bm25")
    assert with_slang[0].slug == "rocm"
    assert with_slang[0].score > next((h.score for h in without if h.slug == "rocm"), 0.0)
