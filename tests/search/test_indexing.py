"""Index persistence: round trip, manifest, stale detection, corruption, approximate index."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from assistant.corpus.glossary import load_glossary
from assistant.embedding.base import Embedder
from assistant.errors import StaleIndexError
from assistant.search.indexing import (
    bm25_documents,
    build_index,
    make_chunks,
    open_index,
    read_manifest,
    save_index,
)
from assistant.settings import ROOT
from assistant.text.sentences import split_sentences
from assistant.text.tokens import lemmas

pytestmark = pytest.mark.slow
SLUGS = ["nvlink", "kv-cache", "gpu-hour", "fp8"]


@pytest.fixture()
def small_corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    (corpus / "terms").mkdir(parents=True)
    for slug in SLUGS:
        data = (ROOT / "corpus/terms" / f"{slug}.yaml").read_text("utf-8")
        # keep only related links inside the small corpus
        data = "\n".join(line for line in data.splitlines() if not line.startswith("related:"))
        (corpus / "terms" / f"{slug}.yaml").write_text(data + "\n", "utf-8")
    return corpus


class RenamedEmbedder:
    """The same model under another id, as if the deployment switched models."""

    def __init__(self, inner: Embedder, model_id: str) -> None:
        self.inner, self.model_id, self.dim = inner, model_id, inner.dim

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self.inner.embed_queries(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self.inner.embed_passages(texts)


def test_chunks_cover_every_sentence_and_name() -> None:
    g = load_glossary(ROOT / "corpus")
    chunks = make_chunks(g.entries)
    entry_chunks = [c for c in chunks if c.kind == "entry"]
    assert len(entry_chunks) == 54
    nvlink = next(c for c in entry_chunks if c.slug == "nvlink")
    assert "нвлинк" in nvlink.full_text.lower()
    assert sum(c.slug == "nvlink" and c.kind == "sentence" for c in chunks) >= 4


def test_questions_are_chunks_of_their_entry_and_expand_its_bm25_document() -> None:
    g = load_glossary(ROOT / "corpus")
    chunks = make_chunks(g.entries)
    for entry in g.entries:
        asked = [c.text for c in chunks if c.slug == entry.slug and c.kind == "question"]
        assert asked == list(entry.questions) and asked
    docs = bm25_documents(chunks)
    mig = next(i for i, c in enumerate(chunks) if c.slug == "mig" and c.kind == "entry")
    own = set(chunks[mig].bm25_terms())
    only_asked = {t for q in g.by_slug()["mig"].questions for t in lemmas(q)} - own
    assert only_asked and only_asked <= set(docs[mig])  # customers' words reach the entry
    assert all(not docs[i] for i, c in enumerate(chunks) if c.kind != "entry")


def test_round_trip_gives_identical_results(
    small_corpus: Path, tmp_path: Path, embedder: Embedder
) -> None:
    g = load_glossary(small_corpus)
    built = build_index(g, embedder)
    save_index(built, tmp_path / "idx")
    loaded, rebuilt = open_index(g, embedder, tmp_path / "idx", auto_rebuild=False)
    assert not rebuilt
    q = embedder.embed_queries(["сколько стоит час GPU"])
    s1, i1 = built.vectors.search(q, 5)
    s2, i2 = loaded.vectors.search(q, 5)
    np.testing.assert_array_equal(i1, i2)
    np.testing.assert_allclose(s1, s2)
    assert loaded.chunks == built.chunks
    manifest = json.loads((tmp_path / "idx/manifest.json").read_text("utf-8"))
    assert manifest["corpus_digest"] == g.digest
    assert manifest["model_id"] == embedder.model_id and manifest["dim"] == embedder.dim
    assert "faiss-cpu" in manifest["versions"] and "torch" in manifest["versions"]


def test_changed_corpus_is_rebuilt_or_refused(
    small_corpus: Path, tmp_path: Path, embedder: Embedder
) -> None:
    directory = tmp_path / "idx"
    open_index(load_glossary(small_corpus), embedder, directory)
    path = small_corpus / "terms/fp8.yaml"
    path.write_text(
        path.read_text("utf-8").replace('title: "FP8"', 'title: "FP8 (8 бит)"'), "utf-8"
    )
    changed = load_glossary(small_corpus)
    with pytest.raises(StaleIndexError) as info:
        open_index(changed, embedder, directory, auto_rebuild=False)
    assert "corpus_digest" in str(info.value) and "assistant index build" in str(info.value)
    calls: list[tuple[int, int]] = []
    _, rebuilt = open_index(
        changed, embedder, directory, progress=lambda d, t: calls.append((d, t))
    )
    assert rebuilt and calls and calls[-1][0] == calls[-1][1]
    assert read_manifest(directory).corpus_digest == changed.digest  # type: ignore[union-attr]


def test_other_model_triggers_rebuild(
    small_corpus: Path, tmp_path: Path, embedder: Embedder
) -> None:
    g = load_glossary(small_corpus)
    open_index(g, embedder, tmp_path / "idx")
    other = RenamedEmbedder(embedder, "another-model")
    with pytest.raises(StaleIndexError, match="model_id"):
        open_index(g, other, tmp_path / "idx", auto_rebuild=False)


def test_corrupt_index_is_rebuilt(small_corpus: Path, tmp_path: Path, embedder: Embedder) -> None:
    g = load_glossary(small_corpus)
    open_index(g, embedder, tmp_path / "idx")
    (tmp_path / "idx/vectors.faiss").write_bytes(b"garbage")
    index, rebuilt = open_index(g, embedder, tmp_path / "idx")
    assert rebuilt and index.vectors.ntotal == len(index.chunks)


def test_large_index_switches_to_hnsw(small_corpus: Path, embedder: Embedder) -> None:
    g = load_glossary(small_corpus)
    index = build_index(g, embedder, ann_threshold=5)
    assert index.manifest.index_type == "hnsw"
    q = embedder.embed_queries(["что такое nvlink"])
    _, ids = index.vectors.search(q, 3)
    assert index.chunks[ids[0][0]].slug == "nvlink"


def test_missing_index_dir_is_created(
    small_corpus: Path, tmp_path: Path, embedder: Embedder
) -> None:
    target = tmp_path / "deep/nested/idx"
    _, rebuilt = open_index(load_glossary(small_corpus), embedder, target)
    assert rebuilt and (target / "manifest.json").exists()
    shutil.rmtree(target)


def test_a_see_also_reference_stays_one_sentence() -> None:
    """«См. GPU для дообучения.» split after «См.» gave a stray «GPU для дообучения.» that answers
    showed as text (the reference itself becomes a link, never text)."""
    text = "LoRA требует меньше видеопамяти. См. GPU для дообучения. Аналог у AMD — ROCm."
    assert split_sentences(text) == [
        "LoRA требует меньше видеопамяти.",
        "См. GPU для дообучения.",
        "Аналог у AMD — ROCm.",
    ]


def test_every_see_also_sentence_of_the_glossary_is_split_whole(glossary) -> None:
    for entry in glossary.entries:
        sentences = split_sentences(entry.text)
        assert "См." not in sentences, entry.slug
        for ref in entry.see_also:
            assert any(ref.sentence in s for s in sentences), (entry.slug, ref.sentence)
