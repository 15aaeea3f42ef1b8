"""A database that cannot write is not ready, and says so: /readyz writes to find out, a failed
write is a 503 `unavailable` in Russian (a load balancer understands it, the client knows its
question was not taken), and the service recovers by itself once the disk has room again.

The full disk is real to the process: the server runs on its own, and its file-size limit
(RLIMIT_FSIZE) is lowered to the size its SQLite files have, so every write past them fails the
way ENOSPC makes them fail (SQLite's «disk I/O error» / «database or disk is full»)."""

from __future__ import annotations

import resource
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import httpx
import pytest

from assistant.settings import ROOT
from assistant.storage import Repository
from tests.api.live import free_port

UNAVAILABLE = "unavailable"


@contextmanager
def server(db: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.api.fast_server", str(db), str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{base}/healthz", timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        yield process, base
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.mark.slow  # a server process of its own (~4 s)
def test_a_full_disk_is_unready_and_a_503_then_recovers(tmp_path: Path) -> None:
    db = tmp_path / "full.sqlite3"
    with server(db) as (process, base), httpx.Client(base_url=base, timeout=10) as c:
        ok = c.post("/v1/chat", json={"message": "что такое NVLink"})
        assert ok.status_code == 200 and c.get("/readyz").status_code == 200
        sid = ok.json()["session_id"]
        size = max(p.stat().st_size for p in tmp_path.iterdir() if p.name.startswith("full"))
        unlimited = resource.prlimit(process.pid, resource.RLIMIT_FSIZE)
        resource.prlimit(process.pid, resource.RLIMIT_FSIZE, (size, unlimited[1]))
        try:
            ready = c.get("/readyz")
            assert ready.status_code == 503 and ready.json()["database"] is False, ready.text
            for path, body in (
                ("/v1/chat", {"message": "что такое HBM", "session_id": sid}),
                (
                    "/v1/chat/completions",
                    {"messages": [{"role": "user", "content": "что такое HBM"}]},
                ),
            ):
                r = c.post(path, json=body)
                assert r.status_code == 503, (path, r.status_code, r.text)
                error = r.json()["error"]
                assert error["code"] == UNAVAILABLE and "сохран" in error["message"], error
            stream = c.post("/v1/chat/stream", json={"message": "что такое HBM"})
            assert f'"code": "{UNAVAILABLE}"' in stream.text.split("event: error")[-1]
            metrics = c.get("/metrics").text
            assert 'status="500"' not in metrics
        finally:
            resource.prlimit(process.pid, resource.RLIMIT_FSIZE, unlimited)
        assert c.get("/readyz").status_code == 200  # room again: ready again, no restart
        again = c.post("/v1/chat", json={"message": "что такое HBM", "session_id": sid})
        assert again.status_code == 200
        stored = c.get(f"/v1/sessions/{sid}").json()["messages"]
        # nothing half-written: the two stored exchanges, the refused one never acknowledged
        assert [m["role"] for m in stored] == ["user", "assistant", "user", "assistant"]


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_ping_is_a_committed_write(kind: str, tmp_path: Path) -> None:
    """The readiness ping writes (a SELECT 1 answers on a full disk), and what it writes is
    visible from another connection: it was committed."""
    from tests.storage.conftest import PG_DSN, PG_SKIP, _fresh_postgres

    if kind == "postgres":
        if not PG_DSN:
            pytest.skip(PG_SKIP)
        import psycopg

        repo: Repository = _fresh_postgres()

        def checked_at() -> float:
            with psycopg.connect(PG_DSN) as conn:
                row = conn.execute("SELECT checked_at FROM readiness_probe").fetchone()
                return float(row[0]) if row else 0.0
    else:
        from assistant.storage.sqlite import SqliteRepository

        repo = SqliteRepository(tmp_path / "db.sqlite3")

        def checked_at() -> float:
            with closing(sqlite3.connect(tmp_path / "db.sqlite3")) as db:
                return float(db.execute("SELECT checked_at FROM readiness_probe").fetchone()[0])

    try:
        assert repo.ping()
        first = checked_at()
        time.sleep(0.01)
        assert repo.ping() and checked_at() > first > 0
    finally:
        repo.close()
