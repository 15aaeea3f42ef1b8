"""A client that leaves a plain (non-streaming) request gives up its place in the answer queue:
nobody computes an answer nobody will read, and the next user does not wait for them."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from tests.api.engines import Gate
from tests.api.live import app_settings, live_server, make_app

HELD = "что такое NVLink?"
DROPPED = 20


def send_and_leave(base: str, path: str, body: bytes) -> None:
    """A whole request on a raw socket, then the connection closed before any answer."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as s:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        s.sendall(head.encode() + body)
        time.sleep(0.05)


def test_dropped_requests_are_not_answered_in_turn(
    fast_pipeline: Any, settings: Any, tmp_path: Path
) -> None:
    gate = Gate(fast_pipeline, HELD)
    s = app_settings(settings, tmp_path / "db", rate_limit_per_minute=0, max_concurrent_answers=1)
    app = make_app(gate, s)
    with live_server(app) as base, httpx.Client(base_url=base, timeout=30) as c:
        held: list[httpx.Response] = []
        first = threading.Thread(
            target=lambda: held.append(c.post("/v1/chat", json={"message": HELD}))
        )
        first.start()
        assert gate.entered.wait(10)  # the only answer slot is taken
        for i in range(DROPPED):
            question = f'{{"message": "брошенный вопрос {i} про HBM"}}'.encode()
            path = "/v1/chat" if i % 2 else "/v1/chat/completions"
            if path.endswith("completions"):
                question = (
                    f'{{"messages": [{{"role": "user", "content": "брошенный {i}"}}]}}'.encode()
                )
            send_and_leave(base, path, question)
        time.sleep(0.3)  # the server notices the closed connections
        gate.release()
        first.join(30)
        start = time.perf_counter()
        nxt = c.post("/v1/chat", json={"message": "что такое HBM?"})
        waited = time.perf_counter() - start
        metrics = c.get("/metrics").text
    assert held[0].status_code == 200 and nxt.status_code == 200
    assert gate.order == [HELD, "что такое HBM?"], gate.order  # no dropped one was answered
    assert waited < 5
    assert 'status="500"' not in metrics
    assert 'status="499"' in metrics  # left before the answer: counted, not as a server error
