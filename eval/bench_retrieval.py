"""Benchmark: retrieval latency (bare query embedding vs full hybrid search), index build/open,
CLI cold start, and a synthetic scale run (exact IndexFlatIP vs HNSW, BM25) to check the ANN
threshold (Settings.ann_threshold).

Usage:
  .venv/bin/python eval/bench_retrieval.py                 # full run (~5-10 min on 2 cores)
  .venv/bin/python eval/bench_retrieval.py --quick         # smaller scale run for development
  .venv/bin/python eval/bench_retrieval.py --json out.json # also write every number as JSON

Every measurement records the 1-minute load average and how many cores *other* processes kept
busy while it ran (from /proc/stat minus our own CPU time). Latency measurements taken while other
processes used more than --max-others cores are repeated (up to --retries times) and the least
disturbed attempt is kept.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from benchlib import (
    ROOT,
    Report,
    ef_sweep,
    load_text,
    log,
    machine,
    measured,
    percentile,
    questions,
    recall_at,
    summary,
    timed,
)


def rss_mb() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


# ---------------------------------------------------------------------------- 1-4: real glossary


def bench_real(args: argparse.Namespace, rep: Report, index_dir: Path) -> Any:
    from assistant.corpus.glossary import load_glossary
    from assistant.embedding.model import load_embedder
    from assistant.search.indexing import build_index, open_index, save_index
    from assistant.search.retrieval import HybridRetriever
    from assistant.settings import Settings

    settings = Settings(index_dir=index_dir, auto_rebuild_index=False)
    glossary = load_glossary(settings.corpus_dir)
    embedder, load_ms = timed(lambda: load_embedder(settings))
    log(f"embedder loaded in {load_ms / 1000:.1f} s ({embedder.model_id}, dim {embedder.dim})")

    # 4. index build (fresh temp dir, real embedder) and open of the saved index
    def build() -> tuple[Any, float, float]:
        idx, b_ms = timed(
            lambda: build_index(glossary, embedder, ann_threshold=settings.ann_threshold)
        )
        _, s_ms = timed(lambda: save_index(idx, index_dir))
        return idx, b_ms, s_ms

    (index, build_ms, save_ms), build_load, build_att = measured("build", build, args)
    opens: list[float] = []

    def open_many() -> list[float]:
        out = []
        for _ in range(5):
            _, ms = timed(lambda: open_index(glossary, embedder, index_dir, auto_rebuild=False))
            out.append(ms)
        return out

    opens, open_load, _ = measured("open", open_many, args)
    rep.put(
        "index",
        {
            "chunks": len(index.chunks),
            "index_type": index.manifest.index_type,
            "build_ms": round(build_ms, 1),
            "save_ms": round(save_ms, 1),
            "build_load": build_load.__dict__,
            "build_attempts": build_att,
            "open_ms_median_of_5": round(statistics.median(opens), 1),
            "open_load": open_load.__dict__,
            "embedder_load_ms": round(load_ms, 1),
        },
    )
    log(
        f"index: {len(index.chunks)} chunks built in {build_ms / 1000:.2f} s, "
        f"open {statistics.median(opens):.1f} ms ({build_load.short()})"
    )

    retriever = HybridRetriever(glossary, index, embedder)
    qs = questions(args.dataset)
    need = args.warmup + args.queries
    if len(qs) < need:
        qs = (qs * (need // len(qs) + 1))[:need]
    warm, meas = qs[: args.warmup], qs[args.warmup : need]

    # 1-3. bare embedding vs full search, interleaved per query so load drift hits both alike
    def latency() -> dict[str, list[float]]:
        from assistant.text.tokens import delatinize, lemma

        lemma.cache_clear()  # each attempt sees the questions' words for the first time
        delatinize.cache_clear()
        for q in warm:
            embedder.embed_queries([q])
            retriever.search(q, 5)
        bare: list[float] = []
        full: list[float] = []
        for i, q in enumerate(meas):
            order = (0, 1) if i % 2 == 0 else (1, 0)
            for which in order:
                if which == 0:
                    _, ms = timed(lambda q=q: embedder.embed_queries([q]))
                    bare.append(ms)
                else:
                    _, ms = timed(lambda q=q: retriever.search(q, 5))
                    full.append(ms)
        return {"bare": bare, "full": full}

    lat, lat_load, lat_att = measured("latency", latency, args)
    bare, full = summary(lat["bare"]), summary(lat["full"])

    # breakdown of the non-embedding part (second pass: lemma cache warm)
    vecs = [retriever.embed(q) for q in meas]
    depth = retriever.weights.depth

    def parts() -> dict[str, list[float]]:
        out: dict[str, list[float]] = {"dense": [], "bm25": [], "alias": [], "rest": []}
        for q, v in zip(meas, vecs, strict=True):
            out["dense"].append(timed(lambda v=v: retriever._dense(v, depth))[1])
            out["bm25"].append(timed(lambda q=q: retriever._bm25(q, depth))[1])
            out["alias"].append(timed(lambda q=q: retriever.aliases.match(q))[1])
            out["rest"].append(timed(lambda q=q, v=v: retriever.retrieve(q, 5, vector=v))[1])
        return out

    pts, pts_load, _ = measured("breakdown", parts, args)
    rep.put(
        "latency",
        {
            "queries": len(meas),
            "warmup": len(warm),
            "bare_embed_ms": bare,
            "full_search_ms": full,
            "ratio_p50": round(full["p50"] / bare["p50"], 3),
            "ratio_target": 1.3,
            "load": lat_load.__dict__,
            "attempts": lat_att,
            "breakdown_ms_p50": {k: round(statistics.median(v), 3) for k, v in pts.items()},
            "breakdown_ms_p95": {k: round(percentile(v, 95), 3) for k, v in pts.items()},
            "breakdown_load": pts_load.__dict__,
        },
    )
    log(
        f"bare embed p50 {bare['p50']:.1f} ms, full search p50 {full['p50']:.1f} ms, "
        f"ratio {full['p50'] / bare['p50']:.2f} ({lat_load.short()})"
    )
    retriever.bench_qvecs = np.vstack(vecs).astype(np.float32)  # real question embeddings
    return retriever


# ---------------------------------------------------------------------------- 5: cold start


def bench_cold(args: argparse.Namespace, rep: Report, index_dir: Path) -> None:
    exe = ROOT / ".venv" / "bin" / "assistant"
    env = {
        **os.environ,
        "ASSISTANT_INDEX_DIR": str(index_dir),
        "ASSISTANT_AUTO_REBUILD_INDEX": "false",  # a stale index fails loudly, never rebuilds
    }
    cmd = [str(exe), "search", "--json", "что такое nvlink"]

    def once() -> dict[str, Any]:
        t = time.perf_counter()
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        assert proc.stdout is not None
        first = proc.stdout.readline()
        t_first = time.perf_counter() - t
        _, err = proc.communicate()
        t_exit = time.perf_counter() - t
        if proc.returncode != 0 or not first.strip():
            raise RuntimeError(f"cold start failed ({proc.returncode}): {err.decode()[-500:]}")
        hits = json.loads(first)
        return {"first_s": t_first, "exit_s": t_exit, "top": hits[0]["slug"]}

    def runs() -> list[dict[str, Any]]:
        return [once() for _ in range(args.cold_runs)]

    out, load, att = measured("cold start", runs, args)
    firsts = [r["first_s"] for r in out]
    rep.put(
        "cold_start",
        {
            "command": " ".join(cmd[:3]) + ' "что такое nvlink"',
            "runs_s": [round(x, 2) for x in firsts],
            "first_result_median_s": round(statistics.median(firsts), 2),
            "exit_median_s": round(statistics.median(r["exit_s"] for r in out), 2),
            "top_hit": out[0]["top"],
            "load": load.__dict__,
            "attempts": att,
        },
    )
    log(f"cold start: median {statistics.median(firsts):.2f} s to first result ({load.short()})")


# ---------------------------------------------------------------------------- 6: scale


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


def e5like_recall(
    args: argparse.Namespace, retriever: Any, n: int, k_app: int, rng: np.random.Generator
) -> dict[str, Any]:
    """HNSW recall on a corpus shaped like real embeddings, queried with real question vectors.

    Each vector = normalise(Dirichlet(0.5)-weighted mix of 3 random real chunk embeddings +
    Gaussian noise of norm --e5-noise): it lives in the narrow cone real e5 vectors occupy,
    unlike uniform random vectors (the worst case for a graph index).
    """
    import faiss

    from assistant.search.indexing import make_faiss_index

    real = retriever.index.vectors.reconstruct_n(0, retriever.index.vectors.ntotal)
    dim = real.shape[1]
    vecs = np.empty((n, dim), dtype=np.float32)
    for start in range(0, n, 10_000):
        m = min(10_000, n - start)
        picks = rng.integers(0, len(real), (m, 3))
        w = rng.dirichlet([0.5] * 3, m).astype(np.float32)
        v = (real[picks] * w[..., None]).sum(axis=1)
        noise = rng.standard_normal((m, dim), dtype=np.float32)
        noise *= args.e5_noise / np.linalg.norm(noise, axis=1, keepdims=True)
        v += noise
        vecs[start : start + m] = v / np.linalg.norm(v, axis=1, keepdims=True)
    queries = retriever.bench_qvecs[: args.queries]
    flat = faiss.IndexFlatIP(dim)
    flat.add(vecs)
    sims, exact10 = flat.search(queries, 10)
    real_sims, _ = retriever.index.vectors.search(queries, 1)
    pair = vecs[rng.integers(0, n, 2000)] @ vecs[rng.integers(0, n, 2000)].T
    (hnsw, build_ms), load, _ = measured(
        "e5-like hnsw build", lambda: timed(lambda: make_faiss_index(vecs, n - 1)), args, retries=0
    )
    res = {
        "n": n,
        "noise": args.e5_noise,
        "queries": len(queries),
        "mean_pairwise_cos": round(float(pair.mean()), 3),
        "mean_top1_cos": round(float(sims[:, 0].mean()), 3),
        "mean_top1_cos_real_index": round(float(real_sims[:, 0].mean()), 3),
        "hnsw_build_s": round(build_ms / 1000, 2),
        "build_load": load.__dict__,
        "ef_sweep": ef_sweep(hnsw, queries, exact10, k_app),
    }
    log(
        f"  e5-like: HNSW build {build_ms / 1000:.1f} s, recall@10 (ef 64) "
        f"{res['ef_sweep'][0]['recall_at_10']:.3f}"
    )
    return res


def bench_scale(args: argparse.Namespace, rep: Report, retriever: Any) -> None:
    import faiss

    from assistant.search.bm25 import BM25Index
    from assistant.search.indexing import Chunk, SearchIndex, embed_chunks, make_faiss_index
    from assistant.search.retrieval import HybridRetriever
    from assistant.settings import Settings
    from assistant.text.tokens import lemmas

    rng = np.random.default_rng(args.seed)
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
    scale["e5like"] = e5like_recall(args, retriever, n, k_app, rng)
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


# ---------------------------------------------------------------------------- output


def render(rep: dict[str, Any]) -> str:
    out: list[str] = []
    m = rep["machine"]
    out.append(
        f"Machine: {m['nproc']} cores ({m['cpu']}), {m['ram_gib']} GiB RAM, Python {m['python']}, "
        + ", ".join(f"{k} {v}" for k, v in m["versions"].items())
    )
    if "index" in rep:
        ix = rep["index"]
        out.append("")
        out.append(f"Index (real glossary, {ix['chunks']} chunks, {ix['index_type']})")
        out.append(
            f"  build (embed+FAISS+BM25)   {ix['build_ms'] / 1000:8.2f} s   "
            f"[{load_text(ix['build_load'])}]"
        )
        out.append(f"  save                       {ix['save_ms']:8.1f} ms")
        out.append(
            f"  open saved (median of 5)   {ix['open_ms_median_of_5']:8.1f} ms   "
            f"[{load_text(ix['open_load'])}]"
        )
        out.append(f"  embedder load              {ix['embedder_load_ms'] / 1000:8.2f} s")
    if "latency" in rep:
        la = rep["latency"]
        b, f = la["bare_embed_ms"], la["full_search_ms"]
        out.append("")
        out.append(
            f"Warm latency, {la['queries']} questions after {la['warmup']} warm-up  "
            f"[{load_text(la['load'])}]"
        )
        out.append(f"  {'':28}{'p50 ms':>9}{'p95 ms':>9}")
        out.append(f"  {'bare embed_queries([q])':28}{b['p50']:9.2f}{b['p95']:9.2f}")
        out.append(f"  {'full search(q, 5)':28}{f['p50']:9.2f}{f['p95']:9.2f}")
        ok = "OK" if la["ratio_p50"] <= la["ratio_target"] else "ABOVE TARGET"
        out.append(
            f"  ratio full/bare p50: {la['ratio_p50']:.3f} (target ≤ {la['ratio_target']}) {ok}"
        )
        p50, p95 = la["breakdown_ms_p50"], la["breakdown_ms_p95"]
        out.append(
            f"  non-embedding parts (p50/p95 ms): dense {p50['dense']:.3f}/{p95['dense']:.3f}, "
            f"bm25 {p50['bm25']:.3f}/{p95['bm25']:.3f}, "
            f"alias {p50['alias']:.3f}/{p95['alias']:.3f}, "
            f"retrieve w/o embed {p50['rest']:.3f}/{p95['rest']:.3f}"
        )
    if "cold_start" in rep:
        c = rep["cold_start"]
        out.append("")
        out.append(
            f"Cold start `{c['command']}`: median {c['first_result_median_s']:.2f} s to first "
            f"result (runs {c['runs_s']}, exit {c['exit_median_s']:.2f} s, top {c['top_hit']})  "
            f"[{load_text(c['load'])}]"
        )
    if "scale" in rep:
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
    if "scale" in rep:
        s = rep["scale"]
        h = s["compare"]["hnsw"]
        out.append("  HNSW efSearch sweep (random corpus; latency with k=160):")
        out.append(
            f"    {'efSearch':>8}{'R@1':>7}{'R@10':>7}{'p50 ms':>8}{'p95 ms':>8}{'load1':>7}"
        )
        for r in h["ef_sweep"]:
            out.append(
                f"    {r['ef_search']:>8}{r['recall_at_1']:7.3f}{r['recall_at_10']:7.3f}"
                f"{r['ms']['p50']:8.2f}{r['ms']['p95']:8.2f}{r['load1']:7.2f}"
            )
        e = s["e5like"]
        out.append(
            f"  e5-like corpus (N={e['n']}, mean pairwise cos {e['mean_pairwise_cos']}, "
            f"real questions' top-1 cos {e['mean_top1_cos']} vs {e['mean_top1_cos_real_index']} "
            f"in the real index), HNSW build {e['hnsw_build_s']:.1f} s:"
        )
        out.append(
            f"    {'efSearch':>8}{'R@1':>7}{'R@10':>7}{'p50 ms':>8}{'p95 ms':>8}{'load1':>7}"
        )
        for r in e["ef_sweep"]:
            out.append(
                f"    {r['ef_search']:>8}{r['recall_at_1']:7.3f}{r['recall_at_10']:7.3f}"
                f"{r['ms']['p50']:8.2f}{r['ms']['p95']:8.2f}{r['load1']:7.2f}"
            )
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--dataset", type=Path, default=ROOT / "eval" / "data" / "retrieval.jsonl")
    ap.add_argument("--queries", type=int, default=200, help="measured queries (default 200)")
    ap.add_argument("--warmup", type=int, default=10, help="warm-up queries (default 10)")
    ap.add_argument("--cold-runs", type=int, default=3, help="CLI cold starts (median)")
    ap.add_argument("--scale", type=int, default=100_000, help="synthetic corpus size (chunks)")
    ap.add_argument(
        "--sizes",
        type=lambda s: [int(x) for x in s.split(",") if x],
        default=[10_000, 30_000, 50_000, 100_000],
        help="sizes for the exact-search sweep (comma-separated)",
    )
    ap.add_argument("--sample", type=int, default=256, help="real chunks for passage throughput")
    ap.add_argument("--noise", type=float, default=0.5, help="query noise norm (unit vectors)")
    ap.add_argument("--e5-noise", type=float, default=0.2, help="noise norm, e5-like corpus")
    ap.add_argument("--zipf", type=float, default=1.0, help="Zipf exponent for synthetic tokens")
    ap.add_argument("--doc-len", type=int, default=40, help="mean tokens per synthetic chunk")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--max-others",
        type=float,
        default=0.3,
        help="repeat a measurement if other processes used more cores than this",
    )
    ap.add_argument("--retries", type=int, default=2)
    ap.add_argument(
        "--quick", action="store_true", help="small run: 50 queries, N=20000, 1 cold start"
    )
    ap.add_argument("--skip-cold", action="store_true")
    ap.add_argument("--skip-scale", action="store_true")
    ap.add_argument(
        "--json", type=str, default=None, help="write all numbers as JSON ('-' = stdout)"
    )
    args = ap.parse_args()
    if args.quick:
        args.queries, args.cold_runs, args.scale = 50, 1, 20_000
        args.sizes = [5_000, 10_000, 20_000]
        args.retries = 0

    rep = Report()
    rep.put("machine", machine())
    rep.put("args", {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()})
    rep.put("started", time.strftime("%Y-%m-%d %H:%M:%S"))
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-retrieval-") as tmp:
        index_dir = Path(tmp) / "index"
        retriever = bench_real(args, rep, index_dir)
        if not args.skip_cold:
            bench_cold(args, rep, index_dir)
        if not args.skip_scale:
            bench_scale(args, rep, retriever)
    rep.put("total_s", round(time.perf_counter() - t0, 1))
    text = render(rep.data)
    print(text)
    print(f"\nTotal {rep.data['total_s']:.0f} s")
    if args.json == "-":
        print(json.dumps(rep.data, ensure_ascii=False, indent=2))
    elif args.json:
        Path(args.json).write_text(json.dumps(rep.data, ensure_ascii=False, indent=2), "utf-8")


if __name__ == "__main__":
    main()
