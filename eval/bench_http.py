"""Bounded loopback load test: concurrency 1, 8, 32 × fixed request count → rps, p50/p95/p99.

    .venv/bin/python eval/bench_http.py                 # starts `assistant serve` on a free port
    .venv/bin/python eval/bench_http.py --url http://127.0.0.1:8000 --requests 300

The started server uses a temporary SQLite database and no rate limit; questions are the Russian
retrieval set (eval/data/retrieval.jsonl), each request a fresh conversation through POST /v1/chat.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from benchlib import percentile, questions

ROOT = Path(__file__).resolve().parent.parent


async def run_level(url: str, concurrency: int, total: int, qs: list[str]) -> dict[str, float]:
    latencies: list[float] = []
    errors = 0
    counter = iter(range(total))
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:

        async def worker() -> None:
            nonlocal errors
            for i in counter:
                start = time.perf_counter()
                try:
                    r = await client.post("/v1/chat", json={"message": qs[i % len(qs)]})
                    ok = r.status_code == 200 and bool(r.json().get("answer"))
                except httpx.HTTPError:
                    ok = False
                latencies.append(time.perf_counter() - start)
                errors += not ok

        began = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        wall = time.perf_counter() - began
    ms = [x * 1000 for x in latencies]
    return {
        "concurrency": concurrency,
        "requests": total,
        "rps": total / wall,
        "p50": statistics.median(ms),
        "p95": percentile(ms, 95),
        "p99": percentile(ms, 99),
        "errors": errors,
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {
        **os.environ,
        "ASSISTANT_DB_PATH": str(tmp / "bench.sqlite3"),
        "ASSISTANT_DATABASE_URL": "",
        "ASSISTANT_RATE_LIMIT_PER_MINUTE": "0",
        "ASSISTANT_LLM_BASE_URL": "",
    }
    cmd = [str(Path(sys.executable).parent / "assistant"), "serve", "--host", "127.0.0.1"]
    cmd += ["--port", str(port), "--log-level", "warning"]
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("server exited during start-up")
        try:
            if httpx.get(url + "/readyz", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.5)
    proc.terminate()
    raise SystemExit("server did not become ready")


async def bench(url: str, levels: list[int], total: int, warmup: int) -> list[dict[str, float]]:
    qs = questions()
    await run_level(url, 4, warmup, qs)
    return [await run_level(url, c, total, qs) for c in levels]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="benchmark a running server instead of starting one")
    parser.add_argument("--requests", type=int, default=400, help="requests per level")
    parser.add_argument("--levels", default="1,8,32")
    parser.add_argument("--warmup", type=int, default=40)
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    proc = None
    with tempfile.TemporaryDirectory() as tmp:
        url = args.url
        if not url:
            proc, url = start_server(Path(tmp))
        try:
            rows = asyncio.run(bench(url, levels, args.requests, args.warmup))
        finally:
            if proc:
                proc.terminate()
                proc.wait(timeout=30)
    head = ("conc", "reqs", "req/s", "p50 ms", "p95 ms", "p99 ms", "errors")
    print(" ".join(f"{h:>8}" for h in head))
    for r in rows:
        print(
            f"{r['concurrency']:>8} {r['requests']:>8} {r['rps']:>8.1f} {r['p50']:>8.1f}"
            f" {r['p95']:>8.1f} {r['p99']:>8.1f} {r['errors']:>8}"
        )


if __name__ == "__main__":
    main()
