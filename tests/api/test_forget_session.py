"""`DELETE /v1/sessions/{id}` («удалить разговор» in the widget): gone for good, answers a
cross-origin widget, and an unknown or malformed id is a plain 404 (fast engine, SQLite)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from assistant.settings import Settings
from tests.api.live import app_settings, make_app

SITE = "https://fullgpu.example"


@pytest.fixture
async def web(fast_pipeline: Any, settings: Settings, tmp_path: Path) -> AsyncIterator[Any]:
    s = app_settings(
        settings, tmp_path / "db.sqlite3", rate_limit_per_minute=0, cors_origins=[SITE]
    )
    transport = httpx.ASGITransport(app=make_app(fast_pipeline, s))
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        yield c


async def test_a_deleted_conversation_is_gone_with_its_feedback(web: httpx.AsyncClient) -> None:
    first = (await web.post("/v1/chat", json={"message": "что такое NVLink"})).json()
    sid = first["session_id"]
    await web.post("/v1/chat", json={"message": "а HBM?", "session_id": sid})
    await web.post("/v1/feedback", json={"message_id": first["message_id"], "score": -1})
    r = await web.delete(f"/v1/sessions/{sid}")
    assert r.status_code == 200 and r.json() == {"deleted": True}
    assert (await web.get(f"/v1/sessions/{sid}")).status_code == 404
    again = await web.delete(f"/v1/sessions/{sid}")
    assert again.status_code == 404 and again.json()["error"]["code"] == "unknown_session"
    gone = await web.post("/v1/feedback", json={"message_id": first["message_id"], "score": 1})
    assert gone.status_code == 404  # its answers cannot be rated any more
    fresh = await web.post("/v1/chat", json={"message": "что такое HBM", "session_id": sid})
    assert fresh.json()["session_id"] != sid  # the old token starts a new conversation


@pytest.mark.parametrize("bad", ["nope", "x" * 65, "a.b", "%00"])
async def test_malformed_ids_are_not_found(web: httpx.AsyncClient, bad: str) -> None:
    r = await web.delete(f"/v1/sessions/{bad}")
    assert r.status_code == 404 and r.json()["error"]["code"] in ("unknown_session", "not_found")


async def test_the_widget_on_another_site_may_delete(web: httpx.AsyncClient) -> None:
    r = await web.options(
        "/v1/sessions/abc",
        headers={"Origin": SITE, "Access-Control-Request-Method": "DELETE"},
    )
    assert r.status_code == 200 and "DELETE" in r.headers["access-control-allow-methods"]


async def test_a_wrong_method_names_both_methods_of_the_path(web: httpx.AsyncClient) -> None:
    r = await web.put("/v1/sessions/abc")
    assert r.status_code == 405 and r.headers["allow"] == "GET, DELETE"
    assert r.json()["error"]["code"] == "method_not_allowed"
