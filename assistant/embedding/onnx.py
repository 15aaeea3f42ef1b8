"""A sentence-transformers folder → ONNX export (cached) → `OnnxEmbedder` (texts → vectors).

Why: for one short query, PyTorch eager spends most of its ~22 ms in per-operator overhead;
ONNX Runtime runs the same graph in ~9 ms on one core with identical vectors (cosine 1.0 to
float rounding, tests/test_onnx_embedding.py), and the service needs neither torch nor
transformers at run time once the export is cached. Optional int8 weights (dynamic
quantisation) cut that to ~4 ms at a small, measured cost in retrieval quality
(docs/benchmarks.md); they get their own model id, so an index is never mixed.

Supported: a Transformer → mean Pooling (→ Normalize) pipeline, which covers the e5 family.
Export is written to `<cache>/onnx/<key>/` through a temp folder and a rename (atomic).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import threading
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from assistant.embedding.base import PrefixedEmbedder, encode_in_length_order
from assistant.errors import EmbeddingError

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

log = logging.getLogger(__name__)

EXPORT_VERSION = 1
_BATCH_SIZE = 32
_export_lock = threading.Lock()


def export_dir(cache_dir: Path, model_id: str, *, int8: bool) -> Path:
    """Cache folder of one (model id, precision, exporter version)."""
    key = hashlib.sha256(f"{model_id}|int8={int8}|v{EXPORT_VERSION}".encode()).hexdigest()[:16]
    return Path(cache_dir).expanduser() / "onnx" / key


def is_complete(folder: Path) -> bool:
    return all((folder / name).is_file() for name in ("model.onnx", "tokenizer.json", "meta.json"))


def ensure_export(
    cache_dir: Path, model_id: str, load: Callable[[], SentenceTransformer], *, int8: bool = False
) -> Path:
    """The export folder for `model_id`, exporting (and quantising) it first if missing."""
    target = export_dir(cache_dir, model_id, int8=int8)
    if is_complete(target):
        return target
    with _export_lock:
        if is_complete(target):
            return target
        shutil.rmtree(target, ignore_errors=True)  # left over from an interrupted run
        log.info("exporting %s to ONNX → %s (one-off)", model_id, target)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".export-", dir=target.parent))
        try:
            _export(load(), model_id, tmp, int8=int8)
            _publish(tmp, target)
        except EmbeddingError:
            raise
        except Exception as e:  # torch.onnx / onnx / quantiser raise many types
            raise EmbeddingError(f"cannot export embedding model {model_id!r} to ONNX: {e}") from e
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def _publish(tmp: Path, target: Path) -> None:
    """Rename the finished export into place; another process's finished export wins."""
    for p in (tmp, *tmp.rglob("*")):  # mkdtemp makes an owner-only folder; the service may not
        p.chmod(0o755 if p.is_dir() else 0o644)  # run as the user who exported
    try:
        os.rename(tmp, target)
    except OSError:
        if not is_complete(target):
            raise


def _check_pipeline(model: SentenceTransformer) -> None:
    """Only Transformer → mean pooling (→ Normalize) is reproduced by OnnxEmbedder."""
    names = [type(m).__name__ for m in model]
    pooling = model[1] if len(names) > 1 else None
    mode = getattr(pooling, "pooling_mode", None)  # sentence-transformers ≥ 5: one string
    if mode is None:  # older releases: one flag per mode
        flags = ("cls_token", "max_tokens", "lasttoken", "weightedmean_tokens", "mean_tokens")
        on = [f for f in flags if getattr(pooling, f"pooling_mode_{f}", False)]
        mode = "mean" if on == ["mean_tokens"] else ",".join(on)
    mean = mode == "mean"
    if names[:2] != ["Transformer", "Pooling"] or not mean or len(names) > 3:
        raise EmbeddingError(
            f"the ONNX backend supports Transformer → mean Pooling models, not {names}; "
            "set ASSISTANT_EMBEDDING_BACKEND=torch"
        )


def _export(model: SentenceTransformer, model_id: str, out: Path, *, int8: bool) -> None:
    import torch

    _check_pipeline(model)
    encoder: Any = model[0].auto_model  # a transformers PreTrainedModel
    encoder.eval()

    class Encoder(torch.nn.Module):  # positional inputs, one tensor out
        def __init__(self) -> None:
            super().__init__()
            self.encoder = encoder

        def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
            hidden: torch.Tensor = self.encoder(input_ids=ids, attention_mask=mask)[0]
            return hidden

    sample = model.tokenizer(["query: пример"], return_tensors="pt")
    fp32 = out / ("model-fp32.onnx" if int8 else "model.onnx")
    axes = {0: "batch", 1: "tokens"}
    with torch.inference_mode(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracer warnings about shapes: expected, not actionable
        torch.onnx.export(
            Encoder(),
            (sample["input_ids"], sample["attention_mask"]),
            str(fp32),
            input_names=["input_ids", "attention_mask"],
            output_names=["last_hidden_state"],
            dynamic_axes={"input_ids": axes, "attention_mask": axes, "last_hidden_state": axes},
            opset_version=17,
            dynamo=False,
        )
    if int8:
        _quantize(fp32, out / "model.onnx")
        fp32.unlink()
    model.tokenizer.backend_tokenizer.save(str(out / "tokenizer.json"))
    meta = {
        "model_id": model_id,
        "int8": int8,
        "dim": int(model.get_embedding_dimension() or 0),
        "max_seq_length": int(model.max_seq_length or 512),
        "pad_token_id": int(model.tokenizer.pad_token_id or 0),
        "pad_token": str(model.tokenizer.pad_token or "<pad>"),
        "export_version": EXPORT_VERSION,
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")


def ffn_down_projections(model_path: Path) -> list[str]:
    """MatMul nodes whose weight maps a wider input to a narrower output (FFN 1536 → 384).

    Their input is the GELU output, whose rare large values a per-tensor int8 scale crushes:
    quantising them cost dense MRR and hybrid R@3, keeping them float cost 3 of 15 ms
    and kept every retrieval and answer figure (docs/benchmarks.md, "Embedding backends").
    """
    import onnx

    graph = onnx.load(str(model_path)).graph
    shapes = {init.name: tuple(init.dims) for init in graph.initializer}
    names = []
    for node in graph.node:
        dims = [shapes[i] for i in node.input if i in shapes and len(shapes[i]) == 2]
        if node.op_type == "MatMul" and dims and dims[0][0] > dims[0][1]:
            names.append(node.name)
    return names


def _quantize(fp32: Path, out: Path) -> None:
    """Dynamic int8 weights for every weight MatMul except the FFN down-projections."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # the quantiser logs a generic "consider pre-processing" hint
    try:
        quantize_dynamic(
            str(fp32),
            str(out),
            weight_type=QuantType.QInt8,
            nodes_to_exclude=ffn_down_projections(fp32),
        )
    finally:
        root.setLevel(level)


class OnnxEmbedder(PrefixedEmbedder):
    """An `Embedder` over an exported folder: tokenizers + ONNX Runtime, mean pooling, L2 norm.

    One session, one intra-op thread: a short query gains little from a second thread, and
    ONNX Runtime releases the GIL, so concurrent requests use the cores side by side. Large
    calls (index builds) split their batches over `workers` threads.
    """

    def __init__(
        self,
        folder: Path,
        query_prefix: str = "",
        passage_prefix: str = "",
        *,
        workers: int | None = None,
        batch_size: int = _BATCH_SIZE,
    ) -> None:
        meta = _read_meta(folder)
        self.model_id = str(meta["model_id"]) + (":int8" if meta["int8"] else "")
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self.batch_size = batch_size
        self.workers = workers or os.cpu_count() or 1
        self._tokenizer = _load_tokenizer(folder, meta)
        self._session = _session(folder / "model.onnx")
        self.dim = int(meta["dim"]) or int(self._encode(["dimension probe"]).shape[1])

    def _encode(self, texts: list[str]) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, getattr(self, "dim", 0)), dtype=np.float32)
        if len(texts) <= self.batch_size or self.workers == 1:
            return encode_in_length_order(texts, self.batch_size, self._forward)
        with ThreadPoolExecutor(self.workers, thread_name_prefix="onnx-embed") as pool:
            return encode_in_length_order(texts, self.batch_size, self._forward, pool.map)

    def _forward(self, batch: list[str]) -> npt.NDArray[np.float32]:
        encodings = self._tokenizer.encode_batch(batch)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        try:
            hidden = self._session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
        except Exception as e:  # onnxruntime raises its own untyped errors
            raise EmbeddingError(f"ONNX Runtime failed to embed a batch: {e}") from e
        weights = mask[..., None].astype(np.float32)
        pooled: npt.NDArray[np.float32] = (hidden * weights).sum(axis=1) / np.maximum(
            weights.sum(axis=1), 1e-9
        )
        return pooled


def _read_meta(folder: Path) -> dict[str, Any]:
    try:
        meta: dict[str, Any] = json.loads((folder / "meta.json").read_text("utf-8"))
    except (OSError, ValueError) as e:
        raise EmbeddingError(f"ONNX export in {folder} is unreadable: {e}") from e
    return meta


def _load_tokenizer(folder: Path, meta: dict[str, Any]) -> Any:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.enable_truncation(int(meta["max_seq_length"]))
    tokenizer.enable_padding(pad_id=int(meta["pad_token_id"]), pad_token=str(meta["pad_token"]))
    return tokenizer


def _session(path: Path) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as e:  # corrupt or foreign file
        raise EmbeddingError(f"cannot load ONNX model {path}: {e}") from e
