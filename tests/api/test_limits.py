"""Limits that hold: the agent helper is rate-limited and locks out repeated wrong keys, feedback
has its own bucket, X-Forwarded-For counts only from configured proxies, and with PostgreSQL the
counters are shared by every replica."""

from __future__ import annotations

import os
import time
import uuid
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from assistant.api import create_app
from tests.api.live import app_settings, live_server, make_app

PG_DSN = os.environ.get("ASSISTANT_TEST_POSTGRES_DSN", "")
KEY = {"X-API-Key": "k-1"}


def client_for(app: Any, client: tuple[str, int] = ("127.0.0.1", 123)) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False, client=client)
    return httpx.AsyncClient(transport=transport, base_url="http://test")


def limited(settings: Any, tmp_path: Any, **overrides: Any) -> Any:
    return app_settings(settings, tmp_path / "db", agent_api_key=SecretStr("k-1"), **overrides)


def chat_codes(c: httpx.Client, forwarded_for: list[str]) -> list[int]:
    """One /v1/chat per X-Forwarded-For value, in turn → the status codes."""
    return [
        c.post(
            "/v1/chat", json={"message": "что такое HBM"}, headers={"X-Forwarded-For": ip}
        ).status_code
        for ip in forwarded_for
    ]


async def test_wrong_keys_are_locked_out_long_before_200(
    pipeline: Any, settings: Any, tmp_path: Any
) -> None:
    s = limited(settings, tmp_path)  # the defaults: only the key lockout is under test
    async with client_for(make_app(pipeline, s)) as c:
        codes = []
        for i in range(200):
            r = await c.post("/v1/suggest", json={"message": "x"}, headers={"X-API-Key": f"{i}"})
            codes.append(r.status_code)
            if r.status_code == 429:
                break
        assert codes[-1] == 429 and len(codes) <= 11, codes
        assert set(codes[:-1]) == {401}
        assert r.json()["error"]["code"] == "rate_limited" and int(r.headers["Retry-After"]) > 0
        # locked out means locked out: the right key no longer helps from this client…
        right = await c.post("/v1/suggest", json={"message": "что такое NVLink"}, headers=KEY)
        assert right.status_code == 429
    # …while another client is not affected
    async with client_for(make_app(pipeline, s), ("10.1.2.3", 5)) as other:
        ok = await other.post("/v1/suggest", json={"message": "что такое NVLink"}, headers=KEY)
        assert ok.status_code == 200


async def test_the_agent_helper_has_a_rate_limit(
    pipeline: Any, settings: Any, tmp_path: Any
) -> None:
    s = limited(settings, tmp_path, agent_rate_limit_per_minute=3)
    async with client_for(make_app(pipeline, s)) as c:
        codes = [
            (
                await c.post("/v1/suggest", json={"message": "что такое HBM"}, headers=KEY)
            ).status_code
            for _ in range(4)
        ]
    assert codes == [200, 200, 200, 429]


async def test_feedback_has_its_own_bucket(pipeline: Any, settings: Any, tmp_path: Any) -> None:
    s = limited(settings, tmp_path, rate_limit_per_minute=3, feedback_rate_limit_per_minute=2)
    async with client_for(make_app(pipeline, s)) as c:
        chats = [(await c.post("/v1/chat", json={"message": "что такое HBM"})) for _ in range(3)]
        assert [r.status_code for r in chats] == [200, 200, 200]
        assert (await c.post("/v1/chat", json={"message": "что такое HBM"})).status_code == 429
        mid = chats[0].json()["message_id"]
        votes = [
            (await c.post("/v1/feedback", json={"message_id": mid, "score": 1})).status_code
            for _ in range(3)
        ]
    assert votes == [200, 200, 429]  # chats used up their bucket, not the feedback one


def test_forwarded_for_counts_only_from_configured_proxies(
    pipeline: Any, settings: Any, tmp_path: Any
) -> None:
    """One client rotating X-Forwarded-For over a real server: one bucket unless it is a proxy."""
    direct = limited(settings, tmp_path, rate_limit_per_minute=5)
    with live_server(make_app(pipeline, direct)) as base, httpx.Client(base_url=base) as c:
        started = time.monotonic()
        codes = chat_codes(c, [f"203.0.113.{i}" for i in range(20)])
        refilled = int((time.monotonic() - started) * 5 / 60)  # a busy machine is slower
    assert codes[:5] == [200] * 5 and codes[5] == 429
    assert codes.count(200) <= 5 + refilled  # one bucket, whatever the header says

    behind = direct.model_copy(
        update={"trusted_proxies": ["127.0.0.1"], "db_path": tmp_path / "db2"}
    )
    with live_server(make_app(pipeline, behind)) as base, httpx.Client(base_url=base) as c:
        rotated = chat_codes(c, [f"203.0.113.{i}" for i in range(8)])
        same = chat_codes(c, ["198.51.100.7"] * 6)
    assert rotated == [200] * 8  # a trusted proxy's clients are told apart…
    assert same == [200] * 5 + [429]  # …and each has its own limit


def test_serve_passes_the_trusted_proxies_to_uvicorn(settings: Any) -> None:
    from assistant.cli.serve import server_config

    plain = server_config(object(), settings.model_copy(update={"trusted_proxies": []}))
    assert plain.proxy_headers is False  # nobody's X-Forwarded-For is believed
    proxied = server_config(
        object(), settings.model_copy(update={"trusted_proxies": ["10.0.0.0/8", "127.0.0.1"]})
    )
    assert proxied.proxy_headers is True
    assert proxied.forwarded_allow_ips == ["10.0.0.0/8", "127.0.0.1"]


def test_an_unreachable_counter_store_lets_requests_through(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The limiter must not take the service down with its database: requests pass, logged,
    within the pool's 2 s connection timeout (port 9 on loopback: nothing listens)."""
    import time

    from assistant.api.limits import Rule, build_limiter

    limiter = build_limiter("postgresql://nobody@127.0.0.1:9/none", {"chat": Rule(1)})
    try:
        start = time.monotonic()
        assert [limiter.retry_after("chat", "ip:203.0.113.1") for _ in range(2)] == [0, 0]
        assert time.monotonic() - start < 10
    finally:
        limiter.close()
    assert "rate-limit storage failed" in caplog.text


# --- PostgreSQL: the counters every replica shares --------------------------------------------

needs_pg = pytest.mark.skipif(
    not PG_DSN, reason="export ASSISTANT_TEST_POSTGRES_DSN to test the PostgreSQL limiter"
)


@needs_pg
def test_postgres_storage_counts_and_expires() -> None:
    from limits.storage import storage_from_string

    from assistant.api.limit_storage import PostgresStorage

    storage = storage_from_string(PG_DSN)
    assert isinstance(storage, PostgresStorage) and storage.check()
    key = f"test/{uuid.uuid4().hex}"
    assert [storage.incr(key, 1) for _ in range(3)] == [1, 2, 3]
    assert storage.get(key) == 3 and storage.get_expiry(key) > 0
    import time

    time.sleep(1.2)
    assert storage.get(key) == 0 and storage.incr(key, 1) == 1  # a new window starts at 1
    storage.clear(key)
    assert storage.get(key) == 0


@needs_pg
async def test_replicas_share_limits_through_postgres(
    pipeline: Any, settings: Any, tmp_path: Any
) -> None:
    """Two apps (two replicas) with ASSISTANT_DATABASE_URL=postgresql://…: one client's requests
    spread over both meet one limit. Conversations stay in SQLite here; only the counters are
    under test."""
    from assistant.storage.sqlite import SqliteRepository

    s = limited(settings, tmp_path, rate_limit_per_minute=4).model_copy(
        update={"database_url": PG_DSN}
    )
    client = (f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.9", 1)
    replicas = [
        create_app(pipeline, s, SqliteRepository(tmp_path / f"replica{i}.sqlite3")) for i in (1, 2)
    ]
    codes = []
    for i in range(6):
        async with client_for(replicas[i % 2], client) as c:
            r = await c.post("/v1/chat", json={"message": "что такое HBM"})
            codes.append(r.status_code)
    assert codes == [200] * 4 + [429] * 2
