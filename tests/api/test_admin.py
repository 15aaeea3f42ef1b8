"""The console's access control and routes: nothing without the key, the key only in one POST
body (never a URL, a cookie, a response or a log), an HttpOnly SameSite cookie, lockout of wrong
keys and forged cookies, same-origin changes; then each route's answer (fast engine, SQLite)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from assistant.api.admin_auth import COOKIE, issue
from assistant.api.deps import context_of
from assistant.settings import Settings
from tests.api.live import app_settings, make_app
from tests.console.seed import seed

KEY = "adm-8f3e-секрет-ключ"  # non-ASCII on purpose: compared as bytes
HOST = "http://console.test"
ROUTES = [
    ("GET", "/admin/api/session"),
    ("GET", "/admin/api/meta"),
    ("GET", "/admin/api/overview"),
    ("GET", "/admin/api/gaps"),
    ("GET", "/admin/api/conversations"),
    ("GET", "/admin/api/conversations/" + "a" * 32),
    ("DELETE", "/admin/api/conversations/" + "a" * 32),
    ("GET", "/admin/api/export?format=csv"),
    ("GET", "/admin/api/export?format=jsonl"),
]


def _app(pipeline: Any, settings: Settings, db: Path, **overrides: Any) -> Any:
    s = app_settings(settings, db, rate_limit_per_minute=0, **overrides)
    return make_app(pipeline, s)


@pytest.fixture
def app(fast_pipeline: Any, settings: Settings, tmp_path: Path) -> Any:
    app = _app(
        fast_pipeline,
        settings,
        tmp_path / "db.sqlite3",
        admin_api_key=SecretStr(KEY),
        agent_auth_failures=3,
    )
    seed(context_of(app).repository, fast_pipeline)
    return app


@pytest.fixture
async def anonymous(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HOST) as c:
        yield c


@pytest.fixture
async def admin(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HOST) as c:
        r = await c.post("/admin/api/session", json={"key": KEY})
        assert r.status_code == 200
        yield c


async def test_nothing_without_the_key(anonymous: httpx.AsyncClient) -> None:
    for method, path in ROUTES:
        r = await anonymous.request(method, path)
        assert r.status_code == 401, (method, path, r.text)
        assert r.json()["error"]["code"] == "unauthorized" and "Разговор" not in r.text
    page = await anonymous.get("/admin")  # the sign-in page itself holds no data
    assert page.status_code == 200 and "Ключ администратора" in page.text
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]


async def test_off_without_a_configured_key(
    fast_pipeline: Any, settings: Settings, tmp_path: Path
) -> None:
    app = _app(fast_pipeline, settings, tmp_path / "db.sqlite3")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HOST) as c:
        for method, path in [*ROUTES, ("POST", "/admin/api/session")]:
            r = await c.request(method, path, json={"key": ""} if method == "POST" else None)
            assert r.status_code == 403 and r.json()["error"]["code"] == "console_disabled"
            assert "ASSISTANT_ADMIN_API_KEY" in r.json()["error"]["message"]


async def test_the_cookie_is_httponly_samesite_and_never_the_key(
    anonymous: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        wrong = await anonymous.post("/admin/api/session", json={"key": KEY + "x"})
        r = await anonymous.post("/admin/api/session", json={"key": KEY})
    assert wrong.status_code == 401 and "set-cookie" not in wrong.headers
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    cookie = r.headers["set-cookie"]
    attributes = {a.strip().split("=")[0].lower() for a in cookie.split(";")}
    assert {"httponly", "samesite", "path", "max-age"} <= attributes
    assert "samesite=strict" in cookie.lower() and "path=/admin" in cookie.lower()
    assert "secure" not in attributes  # plain http (a local test); see the https test
    assert KEY not in cookie and KEY not in r.text
    assert KEY not in caplog.text and (KEY + "x") not in caplog.text
    assert all(KEY not in str(record.args) for record in caplog.records)
    assert (await anonymous.get("/admin/api/overview")).status_code == 200


async def test_over_https_the_cookie_is_secure(app: Any) -> None:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="https://console.test") as c:
        r = await c.post("/admin/api/session", json={"key": KEY})
    assert "; secure" in r.headers["set-cookie"].lower()


async def test_wrong_keys_lock_out_even_the_right_one(anonymous: httpx.AsyncClient) -> None:
    for _ in range(3):
        r = await anonymous.post("/admin/api/session", json={"key": "guess"})
        assert r.status_code == 401
    locked = await anonymous.post("/admin/api/session", json={"key": KEY})
    assert locked.status_code == 429 and int(locked.headers["retry-after"]) > 0
    assert "неверным ключом" in locked.json()["error"]["message"]


async def test_forged_expired_and_foreign_cookies_are_refused(app: Any) -> None:
    transport = httpx.ASGITransport(app=app)
    forged = [
        "v1.9999999999.nonce." + "0" * 64,  # a signature we never made
        issue(KEY, hours=1, now=0)[0],  # ours, long expired
        issue("another-key", hours=1)[0],  # signed with another key (a rotated one)
    ]
    async with httpx.AsyncClient(transport=transport, base_url=HOST) as c:
        for value in forged:
            c.cookies.set(COOKIE, value, domain="console.test", path="/admin")
            r = await c.get("/admin/api/overview")
            assert r.status_code == 401, value
        # forged cookies count like wrong keys: past three, locked out, the right key too
        c.cookies.set(COOKIE, "garbage", domain="console.test", path="/admin")
        assert (await c.get("/admin/api/overview")).status_code == 429
        assert (await c.post("/admin/api/session", json={"key": KEY})).status_code == 429


async def test_changes_only_from_the_consoles_own_page(admin: httpx.AsyncClient) -> None:
    page = await admin.get("/admin/api/conversations")
    cid = page.json()["items"][0]["id"]
    evil = {"Origin": "https://evil.example"}
    r = await admin.delete(f"/admin/api/conversations/{cid}", headers=evil)
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    r = await admin.post("/admin/api/session", json={"key": KEY}, headers=evil)
    assert r.status_code == 403
    r = await admin.delete(f"/admin/api/conversations/{cid}", headers={"Origin": HOST})
    assert r.status_code == 200 and r.json() == {"deleted": True}
    assert (await admin.get(f"/admin/api/conversations/{cid}")).status_code == 404


async def test_signing_out_ends_the_session(admin: httpx.AsyncClient) -> None:
    r = await admin.delete("/admin/api/session")
    assert r.status_code == 200 and "max-age=0" in r.headers["set-cookie"].lower()
    assert (await admin.get("/admin/api/overview")).status_code == 401


async def test_the_routes_answer_with_labels_not_codes(admin: httpx.AsyncClient) -> None:
    meta = (await admin.get("/admin/api/meta")).json()
    assert meta["timezone"] == "Europe/Moscow" and meta["timezone_label"].startswith("московское")
    assert [c["label"] for c in meta["channels"]][:2] == ["Виджет", "Telegram"]
    overview = await admin.get("/admin/api/overview", params={"channel": "telegram"})
    assert overview.status_code == 200 and overview.headers["cache-control"] == "no-store"
    assert overview.json()["totals"]["conversations"] == 3
    page = (await admin.get("/admin/api/conversations", params={"q": "БОРЩ"})).json()
    assert page["total"] == 2 and {i["channel_label"] for i in page["items"]} == {"Telegram"}
    one = (await admin.get(f"/admin/api/conversations/{page['items'][0]['id']}")).json()
    assert one["channel_label"] == "Telegram" and one["turns"][1]["outcome_label"] == "Отказ"
    gaps = await admin.get("/admin/api/gaps")
    first = gaps.json()[0]
    assert gaps.status_code == 200 and first["count"] >= 1 and len(first["nearest"]) == 3


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"from": "2026-02-30"}, "invalid_period"),
        ({"from": "2026-03-10", "to": "2026-03-01"}, "invalid_period"),
        ({"channel": "fax"}, "invalid_request"),
        ({"outcome": "won"}, "invalid_request"),
        ({"feedback": "maybe"}, "invalid_request"),
    ],
)
async def test_bad_filters_are_422_in_russian(
    admin: httpx.AsyncClient, params: dict[str, str], code: str
) -> None:
    r = await admin.get("/admin/api/conversations", params=params)
    assert r.status_code == 422 and r.json()["error"]["code"] == code
    assert any("а" <= ch <= "я" for ch in r.json()["error"]["message"].lower())


async def test_the_export_is_a_streamed_download(admin: httpx.AsyncClient) -> None:
    async with admin.stream("GET", "/admin/api/export", params={"format": "jsonl"}) as r:
        assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
        assert r.headers["content-type"].startswith("application/x-ndjson")
        assert r.headers["content-disposition"].startswith('attachment; filename="assistant-')
        assert "content-length" not in r.headers  # streamed, not built in memory first
        lines = [line async for line in r.aiter_lines() if line]
    assert len(lines) == 14
    bad = await admin.get("/admin/api/export", params={"format": "xlsx"})
    assert bad.status_code == 422
