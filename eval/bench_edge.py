"""The HTTP edge under hostile clients, on a real `assistant serve` (real model, temp SQLite):

    .venv/bin/python eval/bench_edge.py                      # all four scenarios
    .venv/bin/python eval/bench_edge.py --only slow-headers abandoned
    PYTHONPATH=/path/to/other/checkout .venv/bin/python eval/bench_edge.py   # another version

slow-headers  50 connections send their headers at 1 byte/s for up to 20 s; when does the server
              close them, and what do ordinary questions get meanwhile (one per second)?
big-headers   20 connections each send 8 MB of one unfinished header; the server's RSS growth
fd-limit      the server started with 256 open files allowed; 300 slow connections, then 20
              ordinary questions: their statuses (or transport errors)
abandoned     200 questions sent whole and their connections closed at once, then one more:
              how long does the next user wait, how many of the 200 were answered?
"""

from __future__ import annotations

import argparse
import collections
import os
import socket
import statistics
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from benchlib import QUESTION, server


def open_slow(port: int, n: int) -> list[socket.socket]:
    out = []
    for _ in range(n):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            s.sendall(b"POST /v1/chat HTTP/1.1\r\nHost: x\r\n")
            s.setblocking(False)
            out.append(s)
        except OSError:
            pass
    return out


def closed(s: socket.socket) -> bool:
    try:
        while True:
            if not s.recv(65536):
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def ask(base: str) -> tuple[str, float]:
    start = time.perf_counter()
    try:
        r = httpx.post(f"{base}/v1/chat", json=QUESTION, timeout=10)
        return str(r.status_code), time.perf_counter() - start
    except httpx.HTTPError as e:
        return type(e).__name__, time.perf_counter() - start


def slow_headers() -> None:
    with server() as (_, base):
        port = int(base.rsplit(":", 1)[1])
        slow = open_slow(port, 50)
        start = time.monotonic()
        closed_at: dict[int, float] = {}
        asked: list[tuple[str, float]] = []
        while time.monotonic() - start < 20 and len(closed_at) < len(slow):
            for i, s in enumerate(slow):
                if i in closed_at:
                    continue
                if closed(s):
                    closed_at[i] = time.monotonic() - start
                    continue
                try:
                    s.send(b"a")
                except OSError:
                    closed_at[i] = time.monotonic() - start
            asked.append(ask(base))
            time.sleep(max(0.0, 1 - (time.monotonic() - start) % 1))
        for s in slow:
            s.close()
    times = sorted(closed_at.values())
    print(f"slow-headers: {len(times)}/{len(slow)} closed by the server within 20 s", end="")
    print(f" (median {statistics.median(times):.1f} s)" if times else "")
    statuses = collections.Counter(status for status, _ in asked)
    p50 = statistics.median(t for _, t in asked) * 1000
    print(f"  ordinary questions meanwhile: {dict(statuses)}, p50 {p50:.0f} ms")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def big_headers() -> None:
    with server() as (process, base):
        port = int(base.rsplit(":", 1)[1])
        before = rss_mb(process.pid)
        chunk = b"a" * 65536
        conns, answers = [], collections.Counter[str]()

        def feed(s: socket.socket) -> None:
            try:
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
                for _ in range(128):  # 8 MB
                    s.sendall(chunk)
            except OSError:
                pass

        threads = []
        for _ in range(20):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            conns.append(s)
            threads.append(threading.Thread(target=feed, args=(s,)))
            threads[-1].start()
        for t in threads:
            t.join(60)
        time.sleep(1)
        after = rss_mb(process.pid)
        for s in conns:
            try:
                s.settimeout(0.5)
                head = s.recv(64).split(b"\r\n", 1)[0].decode("latin-1") or "closed"
            except OSError as e:
                head = type(e).__name__
            answers[head] += 1
            s.close()
    print(f"big-headers: RSS {before:.0f} → {after:.0f} MB (+{after - before:.0f} MB);", end="")
    print(f" the server answered: {dict(answers)}")


def fd_limit() -> None:
    with server(nofile=256) as (process, base):
        held = len(os.listdir(f"/proc/{process.pid}/fd"))
        slow = open_slow(int(base.rsplit(":", 1)[1]), 300)
        time.sleep(0.5)
        statuses = collections.Counter(ask(base)[0] for _ in range(20))
        for s in slow:
            s.close()
        time.sleep(1)
        recovered = ask(base)[0]
    print(f"fd-limit: 256 files allowed, {held} held after start; 300 slow connections →")
    print(f"  20 ordinary questions: {dict(statuses)}; after they left: {recovered}")


def abandoned() -> None:
    with server() as (_, base):
        port = int(base.rsplit(":", 1)[1])
        body = b'{"message": "%d: what is HBM"}'
        for i in range(200):
            payload = body % i
            with socket.create_connection(("127.0.0.1", port)) as s:
                s.sendall(
                    b"POST /v1/chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    b"Content-Length: %d\r\n\r\n%s" % (len(payload), payload)
                )
        status, waited = ask(base)
        time.sleep(3)
        metrics = httpx.get(f"{base}/metrics").text
    answered = sum(
        float(line.rsplit(" ", 1)[1])
        for line in metrics.splitlines()
        if line.startswith("assistant_answers_total{")
    )
    print(f"abandoned: the next user waited {waited * 1000:.0f} ms ({status});", end="")
    print(f" answers computed in all: {answered:.0f} (1 warm-up + 1 + the dropped ones answered)")


SCENARIOS: dict[str, Callable[[], None]] = {
    "slow-headers": slow_headers,
    "big-headers": big_headers,
    "fd-limit": fd_limit,
    "abandoned": abandoned,
}

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=list(SCENARIOS), default=list(SCENARIOS))
    for name in parser.parse_args().only:
        SCENARIOS[name]()
