"""Benchmark: retrieval latency (bare query embedding vs full hybrid search), index build/open,
CLI cold start, and a synthetic scale run (exact IndexFlatIP vs HNSW, BM25) to check the ANN
threshold (Settings.ann_threshold).

Runs the five retrieval benchmarks in one process, on one freshly built index; each also runs
on its own (on the index `assistant index build` made) and takes the flags it reads:
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

import tempfile
from pathlib import Path

import bench_cold_start
import bench_e5like
import bench_index
import bench_latency
import bench_scale
import numpy as np
from benchlib import FLAGS, finish, new_report, parse

SECTIONS = (bench_index, bench_latency, bench_cold_start, bench_scale, bench_e5like)


def main() -> None:
    args = parse(__doc__, *FLAGS)
    rep = new_report(args)
    with tempfile.TemporaryDirectory(prefix="bench-retrieval-") as tmp:
        real = bench_index.run(args, rep, Path(tmp) / "index")
        bench_latency.run(args, rep, real)
        if not args.skip_cold:
            bench_cold_start.run(args, rep, real.index_dir)
        if not args.skip_scale:
            rng = np.random.default_rng(args.seed)
            bench_scale.run(args, rep, real, rng)
            bench_e5like.run(args, rep, real, rng)  # the same generator, as one run before
    finish(rep, args, [line for section in SECTIONS for line in section.render(rep.data)])


if __name__ == "__main__":
    main()
