"""A client that leaves a stream mid-way is counted in assistant_stream_disconnects_total, on the
widget's SSE route and on the OpenAI-style one alike, over a real uvicorn server."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.engines import Gate
from tests.api.live import app_settings, live_server, make_app

HELD = "что такое NVLink?"


def disconnects(c: httpx.Client) -> float:
    for line in c.get("/metrics").text.splitlines():
        if line.startswith("assistant_stream_disconnects_total "):
            return float(line.split()[1])
    raise AssertionError("no assistant_stream_disconnects_total")


def wait_for(c: httpx.Client, value: float, seconds: float = 10) -> float:
    deadline = time.monotonic() + seconds
    while (seen := disconnects(c)) != value and time.monotonic() < deadline:
        time.sleep(0.05)
    return seen


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/chat/stream", {"message": HELD}),
        ("/v1/chat/completions", {"messages": [{"role": "user", "content": HELD}], "stream": True}),
    ],
)
def test_a_stream_left_mid_way_is_counted_once(
    fast_pipeline: Any, settings: Any, tmp_path: Path, path: str, body: dict[str, Any]
) -> None:
    gate = Gate(fast_pipeline, HELD)
    app = make_app(gate, app_settings(settings, tmp_path / "db", rate_limit_per_minute=0))
    with live_server(app) as base, httpx.Client(base_url=base, timeout=10) as c:
        with c.stream("POST", path, json=body) as r:
            first = next(r.iter_lines())  # the session event / the role chunk
            assert first.startswith(("event: session", "data: {")), first
            assert gate.entered.wait(10)
        # the client has closed the connection with the answer still being computed
        gate.release()
        assert wait_for(c, 1.0) == 1.0
        whole = c.post(path, json={**body} if "messages" in body else {"message": "что такое HBM"})
        assert whole.status_code == 200
        assert wait_for(c, 1.0, seconds=0.5) == 1.0  # a stream read to its end is not counted
