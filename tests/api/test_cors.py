"""CORS headers on every response to a listed origin — errors included — so the website widget
reads the Russian message (and Retry-After) instead of an opaque network error."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from tests.api.engines import Wrapped
from tests.api.live import app_settings, make_app

SHOP = "https://shop.example"


class NotReady(Wrapped):
    """An engine whose readiness probe raises something untyped: the catch-all's 500."""

    def ready(self) -> dict[str, Any]:
        raise RuntimeError("probe exploded")


def client_for(app: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://test")


@pytest.fixture
def cors_settings(settings: Any, tmp_path: Any) -> Iterator[Any]:
    yield app_settings(
        settings,
        tmp_path / "db",
        cors_origins=[SHOP],
        rate_limit_per_minute=2,
        agent_api_key=SecretStr("k-1"),
    )


def assert_cors(r: httpx.Response, status: int) -> None:
    assert r.status_code == status, r.text
    assert r.headers.get("access-control-allow-origin") == SHOP, (status, dict(r.headers))


async def test_every_status_carries_cors_for_a_listed_origin(
    pipeline: Any, cors_settings: Any
) -> None:
    origin = {"Origin": SHOP}
    async with client_for(make_app(NotReady(pipeline), cors_settings)) as c:
        assert_cors(
            await c.post("/v1/chat", json={"message": "что такое HBM"}, headers=origin), 200
        )
        assert_cors(await c.post("/v1/chat", json={"message": ""}, headers=origin), 422)
        big = {"message": "а", "pad": "x" * 40_000}
        assert_cors(await c.post("/v1/chat", json=big, headers=origin), 413)
        assert_cors(await c.get("/v1/sessions/" + "0" * 32, headers=origin), 404)
        assert_cors(await c.post("/v1/suggest", json={"message": "x"}, headers=origin), 401)
        await c.post("/v1/chat", json={"message": "что такое HBM"}, headers=origin)
        limited = await c.post("/v1/chat", json={"message": "что такое HBM"}, headers=origin)
        assert_cors(limited, 429)
        assert "retry-after" in limited.headers["access-control-expose-headers"].lower()
        crashed = await c.get("/readyz", headers=origin)
        assert_cors(crashed, 500)
        assert crashed.json()["error"]["code"] == "internal_error"
        assert "exploded" not in crashed.text
        other = await c.post(
            "/v1/chat", json={"message": ""}, headers={"Origin": "https://x.example"}
        )
        assert "access-control-allow-origin" not in other.headers
