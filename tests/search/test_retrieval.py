"""Russian retrieval checks on the real glossary, real model, real FAISS and pymorphy3."""

from __future__ import annotations

import pytest

from assistant.corpus.glossary import load_glossary
from assistant.search.retrieval import AliasMatcher, HybridRetriever
from assistant.settings import ROOT

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    ("question", "slug"),
    [
        ("что такое nvlink", "nvlink"),
        ("почему при длинном контексте кончается видеопамять", "kv-cache"),
        ("как карты усредняют градиенты после каждого шага", "all-reduce"),
        ("можно ли арендовать сервер без гипервизора", "bare-metal"),
        ("чё за инфинибенд", "infiniband"),
        ("what is tensor parallelism", "tensor-parallelism"),
        ("сколько стоит час одного GPU если платить помесячно", "gpu-hour"),
    ],
)
def test_top1(retriever: HybridRetriever, question: str, slug: str) -> None:
    assert retriever.search(question, 3)[0].slug == slug


def test_comparison_finds_both_terms(retriever: HybridRetriever) -> None:
    top3 = {h.slug for h in retriever.search("чем NVLink отличается от PCIe", 3)}
    assert {"nvlink", "pcie-gen5"} <= top3


def test_hybrid_beats_a_wrong_single_leg(retriever: HybridRetriever) -> None:
    result = retriever.retrieve("нвлинк", 3)
    assert "nvlink" in result.alias and result.hits[0].slug == "nvlink"
    assert result.hits[0].title == "NVLink"


def test_scores_are_sorted_and_titles_russian(retriever: HybridRetriever) -> None:
    hits = retriever.search("кэш ключей и значений", 5)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert hits[0].title == "KV-кэш"


def test_alias_matcher_tolerates_one_typo_but_not_two() -> None:
    matcher = AliasMatcher(load_glossary(ROOT / "corpus"))
    assert "infiniband" in matcher.match("инфинибэнд")
    assert "nvlink" in matcher.match("что за nvlnk")
    assert matcher.match("рецепт борща") == {}
