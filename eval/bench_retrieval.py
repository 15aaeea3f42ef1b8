"""Benchmark: retrieval latency (bare query embedding vs full hybrid search), index build/open,
CLI cold start, and a synthetic scale run (exact IndexFlatIP vs HNSW, BM25) to check the ANN
threshold (Settings.ann_threshold).

Runs the five retrieval benchmarks in one process, on one freshly built index:
  bench_index.py       embedder load, index build, save and open
  bench_latency.py     warm latency: bare embedding vs full search, non-embedding parts
  bench_cold_start.py  `assistant search` in a fresh process (--skip-cold skips it)
  bench_scale.py       synthetic scale run, exact vs HNSW (--skip-scale skips it and the next)
  bench_e5like.py      HNSW recall on an e5-like corpus with real question vectors

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
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import bench_cold_start
import bench_e5like
import bench_index
import bench_latency
import bench_scale
import numpy as np
from benchlib import ROOT, Report, machine

SECTIONS = (bench_index, bench_latency, bench_cold_start, bench_scale, bench_e5like)


def render(rep: dict[str, Any]) -> str:
    m = rep["machine"]
    out = [
        f"Machine: {m['nproc']} cores ({m['cpu']}), {m['ram_gib']} GiB RAM, Python {m['python']}, "
        + ", ".join(f"{k} {v}" for k, v in m["versions"].items())
    ]
    for section in SECTIONS:
        out += section.render(rep)
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
        real = bench_index.run(args, rep, Path(tmp) / "index")
        bench_latency.run(args, rep, real)
        if not args.skip_cold:
            bench_cold_start.run(args, rep, real.index_dir)
        if not args.skip_scale:
            rng = np.random.default_rng(args.seed)
            bench_scale.run(args, rep, real, rng)
            bench_e5like.run(args, rep, real, rng)  # the same generator, as one run before
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
