"""Limits at the HTTP edge, over a real uvicorn server configured as `assistant serve` does it:
headers must arrive within HEADER_TIMEOUT_S and within MAX_HEADER_BYTES, a body within
BODY_TIMEOUT_S after them, at most MAX_CONNECTIONS connections are served (the rest get a 503 at
once, before the process runs out of file descriptors), and what the server itself answers at
this level is the documented JSON error body, not uvicorn's plain text."""

from __future__ import annotations

import json
import select
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.live import app_settings, live_server, make_app


@pytest.fixture
def edge_base(fast_pipeline: Any, settings: Any, tmp_path: Path) -> Iterator[str]:
    s = app_settings(
        settings,
        tmp_path / "db",
        rate_limit_per_minute=0,
        # long enough that a loaded box still reads 200 KB of headers in time (the 431 test),
        # short against the slow client's 4 s
        header_timeout_s=1.5,
        body_timeout_s=1.5,
        max_header_bytes=8192,
        max_connections=8,
        cors_origins=["https://shop.example"],
    )
    with live_server(make_app(fast_pipeline, s)) as base:
        yield base


@contextmanager
def connection(base: str) -> Iterator[socket.socket]:
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as s:
        yield s


def read_all(s: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    chunks = []
    while chunk := s.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def json_error(raw: bytes) -> tuple[int, dict[str, str], dict[str, Any]]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    assert headers["content-type"] == "application/json", head
    return int(lines[0].split()[1]), headers, json.loads(body)


def assert_russian(error: dict[str, Any], code: str) -> None:
    assert set(error) == {"error"} and error["error"]["code"] == code, error
    assert any("а" <= ch <= "я" for ch in error["error"]["message"].lower())


def test_slow_headers_get_a_408_and_are_closed(edge_base: str) -> None:
    with connection(edge_base) as s:
        start = time.monotonic()
        s.sendall(b"POST /v1/chat HTTP/1.1\r\nHost: x\r\n")
        for byte in b"X-Slow: " + b"a" * 40:  # one byte every 0.1 s: never finished
            if select.select([s], [], [], 0)[0]:
                break  # the server has answered
            s.sendall(bytes([byte]))
            time.sleep(0.1)
        took = time.monotonic() - start
        raw = read_all(s)
    assert took < 3.8, took  # cut off before the client finished its 4 s of headers

    status, headers, body = json_error(raw)
    assert status == 408 and headers["connection"] == "close"
    assert_russian(body, "request_timeout")


def test_a_slow_body_gets_a_408(edge_base: str) -> None:
    with connection(edge_base) as s:
        s.sendall(b"POST /v1/chat HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        raw = read_all(s)
    status, _, body = json_error(raw)
    assert status == 408
    assert_russian(body, "request_timeout")


def test_oversized_headers_get_a_431(edge_base: str) -> None:
    with connection(edge_base) as s:
        with suppress(OSError):
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200_000)
        raw = read_all(s)
    status, _, body = json_error(raw)
    assert status == 431
    assert_russian(body, "headers_too_large")
    ok = httpx.get(f"{edge_base}/healthz", headers={"X-Fine": "a" * 4000})
    assert ok.status_code == 200  # headers under the limit pass


def test_a_malformed_request_is_the_json_400(edge_base: str) -> None:
    with connection(edge_base) as s:
        s.sendall(b"GARBAGE \x01\x02 HTTP/9.9\r\n\r\n")
        raw = read_all(s)
    status, _, body = json_error(raw)
    assert status == 400
    assert_russian(body, "bad_request")


def test_connections_over_the_cap_get_a_503_and_the_service_recovers(edge_base: str) -> None:
    with ExitStack() as stack:
        held = [stack.enter_context(connection(edge_base)) for _ in range(8)]
        for s in held:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # unfinished: holds its place
        time.sleep(0.1)
        over = httpx.post(
            f"{edge_base}/v1/chat",
            json={"message": "что такое HBM"},
            headers={"Origin": "https://shop.example"},
        )
        assert over.status_code == 503, over.text
        assert over.headers.get("retry-after") == "1"
        assert_russian(over.json(), "unavailable")
        for s in held:  # the held connections time out: a 408 each, then the server's FIN
            assert json_error(read_all(s))[0] == 408
            s.close()
        time.sleep(0.1)
        again = httpx.post(f"{edge_base}/v1/chat", json={"message": "что такое HBM"})
        assert again.status_code == 200
    metrics = httpx.get(f"{edge_base}/metrics").text
    assert 'status="500"' not in metrics


def test_the_connection_cap_follows_the_file_descriptor_limit() -> None:
    import resource

    from assistant.api.transport import connection_cap

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    cap = connection_cap(0)
    assert 16 <= cap <= min(4096, soft)
    assert connection_cap(3) == 3  # an explicit setting wins


@pytest.mark.slow  # a server process of its own (~4 s)
def test_a_low_descriptor_limit_gives_503_not_500(tmp_path: Path) -> None:
    """The probe's case: 110 slow connections against a process allowed 120 open files. The cap
    that follows RLIMIT_NOFILE keeps descriptors for the app, so a request meanwhile is a JSON
    503 (never a 500 «Too many open files» or a dropped connection) and the service recovers."""
    import resource
    import subprocess
    import sys

    from assistant.settings import ROOT
    from tests.api.live import free_port

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (120, 120))

    port = free_port()
    command = [sys.executable, "-m", "tests.api.fast_server", str(tmp_path / "db"), str(port)]
    process = subprocess.Popen(
        [*command, "header_timeout_s=1"], cwd=ROOT, stdout=subprocess.PIPE, preexec_fn=low_limit
    )
    base = f"http://127.0.0.1:{port}"
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == b"ready"
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{base}/healthz", timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        with ExitStack() as stack:
            slow = [stack.enter_context(connection(base)) for _ in range(110)]
            for s in slow:
                with suppress(OSError):  # refused at once: over the cap
                    s.sendall(b"POST /v1/chat HTTP/1.1\r\nHost: x\r\n")
            statuses = []
            for _ in range(5):
                r = httpx.post(f"{base}/v1/chat", json={"message": "что такое HBM"}, timeout=5)
                statuses.append(r.status_code)
                if r.status_code == 503:
                    assert_russian(r.json(), "unavailable")
            assert set(statuses) == {503}, statuses
        time.sleep(1.5)  # the slow ones are gone (closed by us, or timed out)
        ok = httpx.post(f"{base}/v1/chat", json={"message": "что такое HBM"}, timeout=5)
        assert ok.status_code == 200
        assert 'status="500"' not in httpx.get(f"{base}/metrics").text
    finally:
        process.terminate()
        process.wait(timeout=20)
