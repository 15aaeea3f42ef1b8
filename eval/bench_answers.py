"""Benchmark: embedded answer latency vs the bare query embedding (median, p95, per route).

    .venv/bin/python eval/bench_answers.py [--n 200] [--json] [--rules-scope]

`--rules-scope`: the scope decision by the rules even when the learned weights fit (the
before/after of search/coverage.py on one checkout).

Target (issue 4): embedded answer p50 ≤ 2 × bare query-embedding p50 on the 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "eval" / "data"


def _questions(n: int) -> list[str]:
    out: list[str] = []
    for name in ("retrieval.jsonl", "numeric.jsonl", "out_of_scope.jsonl"):
        rows = [json.loads(x) for x in (DATA / name).read_text("utf-8").splitlines() if x]
        out += [r["question"] for r in rows]
    step = max(1, len(out) // n)
    return out[::step][:n]


def _stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "n": len(values),
        "p50_ms": round(statistics.median(ordered) * 1e3, 2),
        "p95_ms": round(p95 * 1e3, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rules-scope", action="store_true", help="scope by the rules")
    args = parser.parse_args()
    from assistant.corpus.catalog import load_catalog
    from assistant.pipeline import Pipeline, build_engine, build_pipeline, build_retriever
    from assistant.search.coverage import RuleCoverage
    from assistant.settings import Settings

    settings = Settings()
    if args.rules_scope:  # the parts build_pipeline builds, the rules deciding scope
        catalog = load_catalog(settings.corpus_dir)
        engine = build_engine(settings, build_retriever(settings), catalog, coverage=RuleCoverage())
        pipeline = Pipeline(engine, settings)
    else:
        pipeline = build_pipeline(settings)
    embedder = pipeline.engine.retriever.embedder
    questions = _questions(args.n)
    for q in questions[:10]:  # warm-up
        pipeline.answer(q)
    embed, answer = [], []
    per_route: dict[str, list[float]] = defaultdict(list)
    for q in questions:
        t = time.perf_counter()
        embedder.embed_queries([q])
        embed.append(time.perf_counter() - t)
        t = time.perf_counter()
        a = pipeline.answer(q)
        answer.append(time.perf_counter() - t)
        per_route[a.route].append(answer[-1])
    report = {
        "scope": pipeline.engine.parts.lookup.coverage.name,
        "machine": {
            "cpus": os.cpu_count(),
            "loadavg": Path("/proc/loadavg").read_text().split()[:3],
        },
        "bare_embedding": _stats(embed),
        "answer": _stats(answer),
        "ratio_p50": round(statistics.median(answer) / statistics.median(embed), 2),
        "routes": {r: _stats(v) for r, v in sorted(per_route.items())},
    }
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return
    print(f"machine: {report['machine']}, scope decision: {report['scope']}")
    for name in ("bare_embedding", "answer"):
        s = report[name]
        print(f"{name:15s} p50 {s['p50_ms']:7.2f} ms   p95 {s['p95_ms']:7.2f} ms   n={s['n']}")
    print(f"ratio answer/embedding (p50): {report['ratio_p50']}  (target ≤ 2)")
    for route, s in report["routes"].items():
        print(f"  {route:13s} p50 {s['p50_ms']:7.2f} ms   p95 {s['p95_ms']:7.2f} ms   n={s['n']}")


if __name__ == "__main__":
    main()
