"""Crash safety: `assistant serve` on SQLite under loopback load, killed with SIGKILL mid-load,
restarted on the same file. Every acknowledged message (a 200 the client received) is there,
the database passes its integrity check, and a conversation continues with its history."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from assistant.settings import ROOT, Settings
from tests.api.live import free_port

CLIENTS = 4
LOAD_S = 2.0  # then SIGKILL while the clients keep sending
QUESTIONS = ["что такое NVLink", "что такое HBM", "зачем нужен NCCL", "сколько стоит H100 в час"]


@contextmanager
def served(
    settings: Settings, db: Path, log: Path
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """`python -m assistant serve` as a separate process on `db`; yields (process, base URL)."""
    port = free_port()
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    env = {
        **clean,
        "PYTHONPATH": str(ROOT),
        "ASSISTANT_CORPUS_DIR": str(ROOT / "corpus"),
        "ASSISTANT_INDEX_DIR": str(settings.index_dir),  # built by the session's retriever
        "ASSISTANT_DB_PATH": str(db),
        "ASSISTANT_RATE_LIMIT_PER_MINUTE": "0",
    }
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "assistant", "serve", "--port", str(port)],
            cwd=ROOT / "tests",  # no .env picked up
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, base, log)
        yield proc, base
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)


def wait_ready(proc: subprocess.Popen[bytes], base: str, log: Path) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError("the server exited:\n" + log.read_text()[-3000:])
        try:
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise AssertionError("the server did not become ready:\n" + log.read_text()[-3000:])


class Load:
    """A few clients sending questions until told to stop; keeps what the server acknowledged."""

    def __init__(self, base: str, sessions: list[str]) -> None:
        self.base, self.sessions = base, sessions
        self.stop = threading.Event()
        self.acked: list[tuple[str, str, str]] = []  # (session_id, message_id, question)
        self.cut = 0  # requests that failed (the kill)
        self.lock = threading.Lock()

    def client(self, n: int) -> None:
        with httpx.Client(base_url=self.base, timeout=30) as c:
            i = 0
            while not self.stop.is_set():
                question = QUESTIONS[(n + i) % len(QUESTIONS)]
                body: dict[str, Any] = {"message": question}
                if i % 2:  # half continue a conversation, half start one
                    body["session_id"] = self.sessions[n % len(self.sessions)]
                i += 1
                try:
                    r = c.post("/v1/chat", json=body)
                except httpx.HTTPError:
                    with self.lock:
                        self.cut += 1
                    time.sleep(0.05)
                    continue
                if r.status_code == 200:
                    data = r.json()
                    with self.lock:
                        self.acked.append((data["session_id"], data["message_id"], question))

    @contextmanager
    def running(self) -> Iterator[None]:
        threads = [threading.Thread(target=self.client, args=(n,)) for n in range(CLIENTS)]
        for t in threads:
            t.start()
        try:
            yield
        finally:
            self.stop.set()
            for t in threads:
                t.join(timeout=60)


def stored(db: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute(sql, args).fetchall()


@pytest.mark.slow
def test_kill_9_mid_load_loses_no_acknowledged_message(
    settings: Settings, retriever: Any, tmp_path: Path
) -> None:
    db, log = tmp_path / "crash.sqlite3", tmp_path / "serve.log"
    with served(settings, db, log) as (proc, base):
        first = httpx.post(
            f"{base}/v1/chat", json={"message": "сколько видеопамяти нужно для 70B?"}, timeout=30
        ).json()
        sid = first["session_id"]  # kept out of the load, so its last exchange is the 70B one
        others = [
            httpx.post(f"{base}/v1/chat", json={"message": q}, timeout=30).json()["session_id"]
            for q in QUESTIONS[:2]
        ]
        load = Load(base, others)
        with load.running():
            time.sleep(LOAD_S)
            os.kill(proc.pid, signal.SIGKILL)  # mid-load: the clients are still sending
            proc.wait(timeout=30)
            time.sleep(0.3)  # let the clients meet the dead server
    assert proc.returncode == -signal.SIGKILL
    assert len(load.acked) >= 10, load.acked  # there was load to lose
    assert load.cut >= 1  # and the kill cut into it

    # the file as the crash left it: intact, every acknowledged exchange present
    assert stored(db, "PRAGMA integrity_check") == [("ok",)]
    rows = stored(db, "SELECT id, conversation_id, role, reply_to FROM messages")
    by_id = {r[0]: r for r in rows}
    questions = dict(stored(db, "SELECT id, content FROM messages WHERE role = 'user'"))
    for session_id, message_id, question in load.acked:
        assert message_id in by_id, message_id
        _, conversation, role, reply_to = by_id[message_id]
        assert (conversation, role) == (session_id, "assistant")
        assert questions[reply_to] == question

    # restarted on the same file: the conversation goes on with its history
    with served(settings, db, log) as (_, base):
        history = httpx.get(f"{base}/v1/sessions/{sid}", timeout=30).json()["messages"]
        assert [m["id"] for m in history][1:] == [first["message_id"]]
        for other in others:  # the loaded conversations are readable too
            assert httpx.get(f"{base}/v1/sessions/{other}", timeout=30).status_code == 200
        follow = httpx.post(
            f"{base}/v1/chat", json={"message": "а в FP8?", "session_id": sid}, timeout=30
        ).json()
    assert follow["session_id"] == sid
    args = follow["tool_calls"][0]["arguments"]
    assert args["params_b"] == 70 and args["precision"] == "fp8"  # the 70B came from history
    print(f"acknowledged {len(load.acked)}, cut {load.cut}, all present, integrity ok")
