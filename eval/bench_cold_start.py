"""Benchmark: CLI cold start — `assistant search --json "что такое nvlink"` in a fresh process on
a built index, from process start to the first result and to exit (median of --cold-runs).

    .venv/bin/python eval/bench_cold_start.py [--cold-runs 3] [--json out.json]

On its own it starts on the index `assistant index build` made; eval/bench_retrieval.py runs it
on the index it has just built.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from benchlib import ROOT, Report, finish, load_text, log, measured, new_report, parse


def run(args: argparse.Namespace, rep: Report, index_dir: Path) -> None:
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


def render(rep: dict[str, Any]) -> list[str]:
    if "cold_start" not in rep:
        return []
    c = rep["cold_start"]
    return [
        "",
        f"Cold start `{c['command']}`: median {c['first_result_median_s']:.2f} s to first "
        f"result (runs {c['runs_s']}, exit {c['exit_median_s']:.2f} s, top {c['top_hit']})  "
        f"[{load_text(c['load'])}]",
    ]


def main() -> None:
    from assistant.settings import Settings

    args = parse(__doc__, "cold-runs")
    rep = new_report(args)
    run(args, rep, Settings().index_dir)
    finish(rep, args, render(rep.data))


if __name__ == "__main__":
    main()
