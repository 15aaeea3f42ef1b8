"""Benchmark: a synthetic scale run to check the ANN threshold (Settings.ann_threshold) — passage
embedding throughput of the real model, exact IndexFlatIP and BM25 cost against corpus size,
exact against HNSW at N (build, memory, latency, recall) and an HNSW efSearch sweep, on random
unit vectors and Zipf-sampled real lemmas.

    .venv/bin/python eval/bench_scale.py [--scale 100000] [--sizes 10000,30000,50000,100000]
    .venv/bin/python eval/bench_scale.py --quick            # N = 20 000

The real model, chunks and fusion weights come from the index `assistant index build` made (on
its own) or the one eval/bench_retrieval.py has just built.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np
from benchlib import (
    Real,
    Report,
    ef_sweep,
    finish,
    load_text,
    log,
    measured,
    new_report,
    open_real,
    parse,
    questions,
    recall_at,
    summary,
    timed,
)


def rss_mb() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def synthetic_docs(
    vocab: list[str], probs: np.ndarray, n: int, mean_len: int, rng: np.random.Generator
) -> list[list[str]]:
    lengths = np.maximum(1, rng.poisson(mean_len, n))
    ids = rng.choice(len(vocab), size=int(lengths.sum()), p=probs)
    words = np.asarray(vocab, dtype=object)[ids]
    out, start = [], 0
    for ln in lengths:
        out.append(list(words[start : start + ln]))
        start += ln
    return out


def run(args: argparse.Namespace, rep: Report, real: Real, rng: np.random.Generator) -> None:
    """The scale run; `rng` (seeded by --seed) goes on to bench_e5like in the same run."""
    import faiss

    from assistant.search.bm25 import BM25Index
    from assistant.search.indexing import Chunk, SearchIndex, embed_chunks, make_faiss_index
    from assistant.search.retrieval import HybridRetriever
    from assistant.settings import Settings
    from assistant.text.tokens import lemmas

    retriever = real.retriever
    n = args.scale
    dim = retriever.embedder.dim
    depth = retriever.weights.depth
    k_app = depth * 8  # what HybridRetriever._dense asks FAISS for
    threshold = Settings().ann_threshold
    scale: dict[str, Any] = {"n": n, "dim": dim, "k_app": k_app, "ann_threshold": threshold}

    # passage-embedding throughput of the real model on real chunk texts (all cores, batch 64)
    texts = [c.full_text for c in retriever.index.chunks]
    sample = [texts[i % len(texts)] for i in range(args.sample)]
    embed_chunks(retriever.embedder, sample[:64], None)  # warm-up

    def throughput() -> float:
        return timed(lambda: embed_chunks(retriever.embedder, sample, None))[1]

    tp_ms, tp_load, _ = measured("passage throughput", throughput, args)
    rate = len(sample) / (tp_ms / 1000)
    scale["passage_throughput"] = {
        "sample": len(sample),
        "seconds": round(tp_ms / 1000, 2),
        "chunks_per_s": round(rate, 1),
        "mean_chars": round(statistics.fmean(len(t) for t in sample), 1),
        "load": tp_load.__dict__,
    }
    log(f"passage embedding: {rate:.1f} chunks/s ({tp_load.short()})")

    # synthetic corpus: random unit vectors + Zipf-sampled real lemmas
    sizes = sorted({s for s in args.sizes if s <= n} | {n})
    vectors = rng.standard_normal((n, dim), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    qsrc = rng.integers(0, n, args.queries)
    noise = rng.standard_normal((args.queries, dim), dtype=np.float32)
    noise *= args.noise / np.linalg.norm(noise, axis=1, keepdims=True)
    qvecs = vectors[qsrc] + noise
    qvecs /= np.linalg.norm(qvecs, axis=1, keepdims=True)
    qvecs = np.ascontiguousarray(qvecs, dtype=np.float32)

    counts: dict[str, int] = {}
    for c in retriever.index.chunks:
        for t in c.bm25_terms() or lemmas(c.full_text):
            counts[t] = counts.get(t, 0) + 1
    vocab = sorted(counts, key=lambda t: -counts[t])
    ranks = np.arange(1, len(vocab) + 1, dtype=np.float64)
    probs = ranks**-args.zipf
    probs /= probs.sum()
    t0 = time.perf_counter()
    docs = synthetic_docs(vocab, probs, n, args.doc_len, rng)
    scale["bm25_corpus"] = {
        "vocab": len(vocab),
        "zipf_s": args.zipf,
        "mean_tokens": round(statistics.fmean(len(d) for d in docs[:10_000]), 1),
        "generate_s": round(time.perf_counter() - t0, 2),
    }
    qs = questions(args.dataset)[: args.queries]
    qterms = [lemmas(q) for q in qs]
    log(f"synthetic corpus: {n} vectors, {len(vocab)}-lemma vocabulary")

    def lat_faiss(index: Any, k: int) -> list[float]:
        for q in qvecs[:10]:
            index.search(q.reshape(1, -1), k)
        return [timed(lambda q=q: index.search(q.reshape(1, -1), k))[1] for q in qvecs]

    def lat_bm25(bm: BM25Index) -> list[float]:
        def leg(terms: list[str]) -> None:
            s = bm.scores(terms)
            np.argpartition(-s, k_app - 1)[:k_app]

        for t in qterms[:10]:
            leg(t)
        return [timed(lambda t=t: leg(t))[1] for t in qterms]

    omp_default = faiss.omp_get_max_threads()
    scale["faiss_omp_default"] = omp_default
    # size sweep: exact search and BM25 cost vs corpus size
    sweep = []
    bm25_full: BM25Index | None = None
    bm25_ms = 0.0
    for size in sizes:
        flat = faiss.IndexFlatIP(dim)
        flat.add(vectors[:size])
        fl, fl_load, fl_att = measured(f"flat {size}", lambda f=flat: lat_faiss(f, k_app), args)
        faiss.omp_set_num_threads(1)
        fl1, fl1_load, _ = measured(
            f"flat {size} 1 thread", lambda f=flat: lat_faiss(f, k_app), args
        )
        faiss.omp_set_num_threads(omp_default)
        bm, bm_ms = timed(lambda size=size: BM25Index.build(docs[:size]))
        bl, bl_load, _ = measured(f"bm25 {size}", lambda b=bm: lat_bm25(b), args)
        row = {
            "n": size,
            "flat_ms": summary(fl),
            "flat_load": fl_load.__dict__,
            "flat_attempts": fl_att,
            "flat_1thread_ms": summary(fl1),
            "flat_1thread_load": fl1_load.__dict__,
            "bm25_ms": summary(bl),
            "bm25_load": bl_load.__dict__,
            "bm25_build_s": round(bm_ms / 1000, 2),
        }
        sweep.append(row)
        if size == n:
            bm25_full = bm
        log(
            f"  n={size}: flat p50 {row['flat_ms']['p50']:.2f} ms "
            f"(1 thread {row['flat_1thread_ms']['p50']:.2f}), "
            f"bm25 p50 {row['bm25_ms']['p50']:.2f} ms ({fl_load.short()})"
        )
        del flat, bm
        gc.collect()
    scale["sweep"] = sweep

    # full comparison at n: exact vs HNSW via the project's own make_faiss_index
    if bm25_full is None:
        bm25_full, bm25_ms = timed(lambda: BM25Index.build(docs))
    else:
        bm25_ms = sweep[-1]["bm25_build_s"] * 1000
    bm25_bytes = sum(
        a.nbytes
        for a in (bm25_full.weights.data, bm25_full.weights.indices, bm25_full.weights.indptr)
    )
    chunks = tuple(
        Chunk(slug=retriever._chunk_slugs[i % len(retriever._chunk_slugs)], kind="entry", text="")
        for i in range(n)
    )
    exact_ids: dict[int, np.ndarray] = {}
    results: dict[str, Any] = {}
    for kind, thr in (("flat", n), ("hnsw", n - 1)):
        gc.collect()
        r0 = rss_mb()
        (index, build_ms), b_load, _ = measured(
            f"{kind} build",
            lambda thr=thr, v=vectors: timed(lambda: make_faiss_index(v, thr)),
            args,
            retries=0,
        )
        rss_delta = rss_mb() - r0
        ser = len(faiss.serialize_index(index))
        fl, f_load, f_att = measured(
            f"{kind} search", lambda index=index: lat_faiss(index, k_app), args
        )
        f10 = lat_faiss(index, 10)
        _, ids10 = index.search(qvecs, 10)
        _, ids_app = index.search(qvecs, k_app)
        if kind == "flat":
            exact_ids = {10: ids10, k_app: ids_app}
        sidx = SearchIndex(retriever.index.manifest, chunks, index, bm25_full)
        hr = HybridRetriever(retriever.glossary, sidx, retriever.embedder, retriever.weights)
        for q, v in zip(qs[:10], qvecs[:10], strict=False):
            hr.retrieve(q, 5, vector=v)

        def both(hr: HybridRetriever = hr) -> list[float]:
            return [
                timed(lambda q=q, v=v: hr.retrieve(q, 5, vector=v))[1]
                for q, v in zip(qs, qvecs, strict=False)
            ]

        bt, bt_load, _ = measured(f"{kind} retrieve", both, args)
        results[kind] = {
            "index_class": type(index).__name__,
            "build_s": round(build_ms / 1000, 2),
            "build_load": b_load.__dict__,
            "rss_delta_mb": round(rss_delta, 1),
            "serialized_mb": round(ser / 2**20, 1),
            "faiss_ms_k_app": summary(fl),
            "faiss_ms_k10": summary(f10),
            "faiss_load": f_load.__dict__,
            "faiss_attempts": f_att,
            "retrieve_no_embed_ms": summary(bt),
            "retrieve_load": bt_load.__dict__,
            "recall_at_10_k10": 1.0
            if kind == "flat"
            else round(recall_at(exact_ids[10], ids10, 10), 4),
            "recall_at_10_k_app": 1.0
            if kind == "flat"
            else round(recall_at(exact_ids[k_app], ids_app, 10), 4),
            "recall_at_k_app": 1.0
            if kind == "flat"
            else round(recall_at(exact_ids[k_app], ids_app, k_app), 4),
            "recall_at_1": 1.0 if kind == "flat" else round(recall_at(exact_ids[10], ids10, 1), 4),
        }
        if kind == "hnsw":
            results[kind]["ef_sweep"] = ef_sweep(index, qvecs, exact_ids[10], k_app)
        log(
            f"  {kind}: build {build_ms / 1000:.1f} s, search p50 "
            f"{results[kind]['faiss_ms_k_app']['p50']:.2f} ms, retrieve p50 "
            f"{results[kind]['retrieve_no_embed_ms']['p50']:.2f} ms ({f_load.short()})"
        )
        del index, hr, sidx
    del vectors
    gc.collect()
    bl = lat_bm25(bm25_full)
    scale["bm25"] = {
        "build_s": round(bm25_ms / 1000, 2),
        "matrix_mb": round(bm25_bytes / 2**20, 1),
        "nnz": int(bm25_full.weights.nnz),
        "scores_ms": summary(bl),
    }
    scale["compare"] = results
    scale["extrapolated_build_s"] = {
        kind: round(n / rate + results[kind]["build_s"] + bm25_ms / 1000, 1)
        for kind in ("flat", "hnsw")
    }
    scale["embed_s_at_n"] = round(n / rate, 1)
    rep.put("scale", scale)


def render(rep: dict[str, Any]) -> list[str]:
    if "compare" not in rep.get("scale", {}):
        return []
    out: list[str] = []
    s = rep["scale"]
    tp = s["passage_throughput"]
    out.append("")
    out.append(
        f"Scale run: N={s['n']}, dim {s['dim']}, FAISS k={s['k_app']} (as HybridRetriever asks)"
    )
    out.append(
        f"  passage embedding: {tp['chunks_per_s']:.1f} chunks/s on {tp['sample']} real chunks "
        f"(mean {tp['mean_chars']:.0f} chars)  [{load_text(tp['load'])}]"
    )
    out.append(
        f"  → embedding {s['n']} chunks ≈ {s['embed_s_at_n'] / 60:.1f} min; "
        f"whole build ≈ {s['extrapolated_build_s']['flat'] / 60:.1f} min (flat), "
        f"{s['extrapolated_build_s']['hnsw'] / 60:.1f} min (HNSW)"
    )
    out.append("  size sweep (exact IndexFlatIP search k=160; BM25 scores+top-160):")
    out.append(
        f"    {'N':>8}{'flat p50':>10}{'flat p95':>10}{'1thr p50':>10}{'1thr p95':>10}"
        f"{'bm25 p50':>10}{'bm25 p95':>10}  load"
    )
    for r in s["sweep"]:
        out.append(
            f"    {r['n']:>8}{r['flat_ms']['p50']:10.2f}{r['flat_ms']['p95']:10.2f}"
            f"{r['flat_1thread_ms']['p50']:10.2f}{r['flat_1thread_ms']['p95']:10.2f}"
            f"{r['bm25_ms']['p50']:10.2f}{r['bm25_ms']['p95']:10.2f}"
            f"  {load_text(r['flat_load'])}"
        )
    bm = s["bm25"]
    out.append(
        f"  BM25 at N: build {bm['build_s']:.1f} s, matrix {bm['matrix_mb']:.1f} MB, "
        f"scores p50 {bm['scores_ms']['p50']:.2f} / p95 {bm['scores_ms']['p95']:.2f} ms"
    )
    out.append(
        f"    {'':6}{'build s':>9}{'RSS MB':>8}{'file MB':>8}{'k160 p50':>9}{'k160 p95':>9}"
        f"{'k10 p50':>8}{'both p50':>9}{'both p95':>9}{'R@10':>7}{'R@10/160':>9}{'R@160':>7}"
    )
    for kind, r in s["compare"].items():
        out.append(
            f"    {kind:6}{r['build_s']:9.2f}{r['rss_delta_mb']:8.1f}{r['serialized_mb']:8.1f}"
            f"{r['faiss_ms_k_app']['p50']:9.2f}{r['faiss_ms_k_app']['p95']:9.2f}"
            f"{r['faiss_ms_k10']['p50']:8.2f}"
            f"{r['retrieve_no_embed_ms']['p50']:9.2f}{r['retrieve_no_embed_ms']['p95']:9.2f}"
            f"{r['recall_at_10_k10']:7.3f}{r['recall_at_10_k_app']:9.3f}{r['recall_at_k_app']:7.3f}"
            f"   [{load_text(r['faiss_load'])}]"
        )
    h = s["compare"]["hnsw"]
    out.append("  HNSW efSearch sweep (random corpus; latency with k=160):")
    out.append(f"    {'efSearch':>8}{'R@1':>7}{'R@10':>7}{'p50 ms':>8}{'p95 ms':>8}{'load1':>7}")
    for r in h["ef_sweep"]:
        out.append(
            f"    {r['ef_search']:>8}{r['recall_at_1']:7.3f}{r['recall_at_10']:7.3f}"
            f"{r['ms']['p50']:8.2f}{r['ms']['p95']:8.2f}{r['load1']:7.2f}"
        )
    return out


def main() -> None:
    names = ("dataset", "queries", "scale", "sizes", "sample", "noise", "zipf", "doc-len", "seed")
    args = parse(__doc__, *names)
    rep = new_report(args)
    run(args, rep, open_real(), np.random.default_rng(args.seed))
    finish(rep, args, render(rep.data))


if __name__ == "__main__":
    main()
