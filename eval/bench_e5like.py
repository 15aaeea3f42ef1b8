"""Benchmark: HNSW recall on a synthetic corpus shaped like real embeddings, queried with the
real question vectors (the --queries questions the latency benchmark measures), for a few
efSearch values. N is --scale, k as HybridRetriever asks FAISS.

Each vector = normalise(Dirichlet(0.5)-weighted mix of 3 random real chunk embeddings +
Gaussian noise of norm --e5-noise): it lives in the narrow cone real e5 vectors occupy,
unlike uniform random vectors (the worst case for a graph index, bench_scale.py).

    .venv/bin/python eval/bench_e5like.py [--scale 100000] [--e5-noise 0.2] [--json out.json]

On its own it reads the index `assistant index build` made; eval/bench_retrieval.py runs it after
the scale run, with the same random generator. The figures are under `scale.e5like` in the JSON.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from benchlib import (
    Real,
    Report,
    ef_sweep,
    finish,
    log,
    measured,
    measured_questions,
    new_report,
    open_real,
    parse,
    timed,
)


def run(args: argparse.Namespace, rep: Report, real: Real, rng: np.random.Generator) -> None:
    import faiss

    from assistant.search.indexing import make_faiss_index

    retriever = real.retriever
    n = args.scale
    k_app = retriever.weights.depth * 8  # what HybridRetriever._dense asks FAISS for
    real_vecs = retriever.index.vectors.reconstruct_n(0, retriever.index.vectors.ntotal)
    dim = real_vecs.shape[1]
    vecs = np.empty((n, dim), dtype=np.float32)
    for start in range(0, n, 10_000):
        m = min(10_000, n - start)
        picks = rng.integers(0, len(real_vecs), (m, 3))
        w = rng.dirichlet([0.5] * 3, m).astype(np.float32)
        v = (real_vecs[picks] * w[..., None]).sum(axis=1)
        noise = rng.standard_normal((m, dim), dtype=np.float32)
        noise *= args.e5_noise / np.linalg.norm(noise, axis=1, keepdims=True)
        v += noise
        vecs[start : start + m] = v / np.linalg.norm(v, axis=1, keepdims=True)
    _, meas = measured_questions(args)
    queries = np.vstack([retriever.embed(q) for q in meas]).astype(np.float32)
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
    rep.data.setdefault("scale", {})["e5like"] = res


def render(rep: dict[str, Any]) -> list[str]:
    e = rep.get("scale", {}).get("e5like")
    if e is None:
        return []
    alone = "compare" not in rep["scale"]  # not right under the scale run's lines
    out = [""] if alone else []
    out += [
        f"  e5-like corpus (N={e['n']}, mean pairwise cos {e['mean_pairwise_cos']}, "
        f"real questions' top-1 cos {e['mean_top1_cos']} vs {e['mean_top1_cos_real_index']} "
        f"in the real index), HNSW build {e['hnsw_build_s']:.1f} s:",
        f"    {'efSearch':>8}{'R@1':>7}{'R@10':>7}{'p50 ms':>8}{'p95 ms':>8}{'load1':>7}",
    ]
    for r in e["ef_sweep"]:
        out.append(
            f"    {r['ef_search']:>8}{r['recall_at_1']:7.3f}{r['recall_at_10']:7.3f}"
            f"{r['ms']['p50']:8.2f}{r['ms']['p95']:8.2f}{r['load1']:7.2f}"
        )
    return out


def main() -> None:
    args = parse(__doc__, "dataset", "queries", "warmup", "scale", "e5-noise", "seed")
    rep = new_report(args)
    run(args, rep, open_real(), np.random.default_rng(args.seed))
    finish(rep, args, render(rep.data))


if __name__ == "__main__":
    main()
