"""Benchmark: warm retrieval latency on the real index — the bare query embedding against the
full hybrid search, timed back to back in alternating order, and the non-embedding parts of a
search (dense leg, BM25 leg, alias matcher, fusion) with the lemma cache warm. Target: full p50
at most 1.3 × bare p50.

    .venv/bin/python eval/bench_latency.py [--queries 200] [--warmup 10] [--json out.json]

On its own it measures the index `assistant index build` made; eval/bench_retrieval.py runs it
on the index it has just built.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from benchlib import (
    Real,
    Report,
    finish,
    load_text,
    log,
    measured,
    measured_questions,
    new_report,
    open_real,
    parse,
    percentile,
    summary,
    timed,
)


def run(args: argparse.Namespace, rep: Report, real: Real) -> None:
    embedder, retriever = real.embedder, real.retriever
    warm, meas = measured_questions(args)

    # bare embedding vs full search, interleaved per query so load drift hits both alike
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


def render(rep: dict[str, Any]) -> list[str]:
    if "latency" not in rep:
        return []
    la = rep["latency"]
    b, f = la["bare_embed_ms"], la["full_search_ms"]
    ok = "OK" if la["ratio_p50"] <= la["ratio_target"] else "ABOVE TARGET"
    p50, p95 = la["breakdown_ms_p50"], la["breakdown_ms_p95"]
    return [
        "",
        f"Warm latency, {la['queries']} questions after {la['warmup']} warm-up  "
        f"[{load_text(la['load'])}]",
        f"  {'':28}{'p50 ms':>9}{'p95 ms':>9}",
        f"  {'bare embed_queries([q])':28}{b['p50']:9.2f}{b['p95']:9.2f}",
        f"  {'full search(q, 5)':28}{f['p50']:9.2f}{f['p95']:9.2f}",
        f"  ratio full/bare p50: {la['ratio_p50']:.3f} (target ≤ {la['ratio_target']}) {ok}",
        f"  non-embedding parts (p50/p95 ms): dense {p50['dense']:.3f}/{p95['dense']:.3f}, "
        f"bm25 {p50['bm25']:.3f}/{p95['bm25']:.3f}, "
        f"alias {p50['alias']:.3f}/{p95['alias']:.3f}, "
        f"retrieve w/o embed {p50['rest']:.3f}/{p95['rest']:.3f}",
    ]


def main() -> None:
    args = parse(__doc__, "dataset", "queries", "warmup")
    rep = new_report(args)
    run(args, rep, open_real())
    finish(rep, args, render(rep.data))


if __name__ == "__main__":
    main()
