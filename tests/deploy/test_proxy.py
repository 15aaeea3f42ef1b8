"""The compose recipe's reverse proxy, tested: Debian's nginx runs the very template the nginx
image reads (deploy/nginx/glossary-assistant.conf.template, its two variables filled in as the
image's envsubst does) in front of the real service under uvicorn. Answers and streams pass,
the client's X-Forwarded-For is overwritten, slow and oversized requests are stopped at the
proxy, and nginx's own errors are the API's JSON error body."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from assistant.settings import ROOT
from tests.api.live import app_settings, free_port, live_server, make_app

TEMPLATE = ROOT / "deploy" / "nginx" / "glossary-assistant.conf.template"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
MAIN = """
daemon off;
master_process off;
worker_processes 1;
error_log {tmp}/error.log warn;
pid {tmp}/nginx.pid;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include {tmp}/default.conf;
}}
"""


def render(template: str, **values: str) -> str:
    """What the nginx image's envsubst does with the variables it is given: `${NAME}` of those
    names only (nginx's own `$remote_addr` and the like stay)."""
    out = template
    for name, value in values.items():
        out = out.replace("${" + name + "}", value)
    left = re.findall(r"\$\{(\w+)\}", out)
    assert not left, f"the template needs more variables: {left}"
    return out


@pytest.fixture
def proxied(fast_pipeline: Any, settings: Any, tmp_path: Path) -> Iterator[tuple[str, str]]:
    if not Path(NGINX).exists():
        pytest.fail("nginx is not installed: bash scripts/install_nginx.sh")
    s = app_settings(
        settings,
        tmp_path / "db",
        rate_limit_per_minute=4,
        trusted_proxies=["127.0.0.1"],
    )
    with live_server(make_app(fast_pipeline, s)) as upstream:
        port = free_port()
        conf = render(
            TEMPLATE.read_text(),
            ASSISTANT_UPSTREAM=upstream.removeprefix("http://"),
            PROXY_PORT=f"127.0.0.1:{port}",
        )
        (tmp_path / "default.conf").write_text(conf)
        (tmp_path / "nginx.conf").write_text(MAIN.format(tmp=tmp_path))
        nginx = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")])
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert nginx.poll() is None, (tmp_path / "error.log").read_text()
                    assert time.monotonic() < deadline
                    time.sleep(0.05)
            yield f"http://127.0.0.1:{port}", upstream
        finally:
            nginx.terminate()
            nginx.wait(timeout=10)


def slow_header_closed_after(base: str, out: list[float]) -> None:
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as s:
        start = time.monotonic()
        s.sendall(b"POST /v1/chat HTTP/1.1\r\nHost: x\r\nX-Slow: a")
        while s.recv(4096):
            pass
        out.append(time.monotonic() - start)


def assert_json_error(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json"), r.headers
    body = r.json()
    assert body["error"]["code"] == code and re.search("[а-я]", body["error"]["message"])


@pytest.mark.slow  # nginx's 10 s header timeout is waited for once (alongside the rest)
def test_the_compose_proxy_in_front_of_the_service(proxied: tuple[str, str]) -> None:
    base, upstream = proxied
    closed: list[float] = []
    slow = threading.Thread(target=slow_header_closed_after, args=(base, closed))
    slow.start()
    with httpx.Client(base_url=base, timeout=30) as c:
        answer = c.post("/v1/chat", json={"message": "что такое NVLink"})
        assert answer.status_code == 200 and answer.json()["citations"]
        stream = c.post("/v1/chat/stream", json={"message": "что такое HBM"})
        assert stream.status_code == 200 and "event: done" in stream.text
        # two more within the limit of 4 per minute, each claiming another address: the proxy
        # overwrites X-Forwarded-For, so they all count against this one client
        for fake in ("10.1.1.1", "10.2.2.2"):
            r = c.post(
                "/v1/chat", json={"message": "что такое FP8"}, headers={"X-Forwarded-For": fake}
            )
            assert r.status_code == 200
        assert_json_error(
            c.post(
                "/v1/chat",
                json={"message": "что такое FP8"},
                headers={"X-Forwarded-For": "10.3.3.3"},
            ),
            429,
            "rate_limited",
        )
        # stopped at the proxy: the API never sees them (its metrics count no 413)
        assert_json_error(c.post("/v1/chat", content=b"x" * 40_000), 413, "payload_too_large")
        assert_json_error(
            c.get("/healthz", headers={"X-Big": "a" * 9000}), 431, "headers_too_large"
        )
        assert_json_error(c.get("/" + "a" * 40_000), 414, "uri_too_long")
        metrics = httpx.get(f"{upstream}/metrics").text
        assert 'status="413"' not in metrics and 'status="500"' not in metrics
    slow.join(20)
    assert closed and 9 <= closed[0] <= 13, closed  # client_header_timeout 10s


def test_a_stopped_service_is_a_json_503_from_the_proxy(
    fast_pipeline: Any, settings: Any, tmp_path: Path
) -> None:
    """With the API down the proxy answers for it, in its error shape (502 → 503 unavailable)."""
    if not Path(NGINX).exists():
        pytest.fail("nginx is not installed: bash scripts/install_nginx.sh")
    port = free_port()
    conf = render(
        TEMPLATE.read_text(),
        ASSISTANT_UPSTREAM=f"127.0.0.1:{free_port()}",  # nobody listens there
        PROXY_PORT=f"127.0.0.1:{port}",
    )
    (tmp_path / "default.conf").write_text(conf)
    (tmp_path / "nginx.conf").write_text(MAIN.format(tmp=tmp_path))
    nginx = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")])
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                r = httpx.post(
                    f"http://127.0.0.1:{port}/v1/chat", json={"message": "что такое HBM"}
                )
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        assert_json_error(r, 503, "unavailable")
        assert r.headers.get("retry-after") == "5"
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
