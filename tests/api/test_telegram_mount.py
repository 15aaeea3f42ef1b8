"""With a bot token configured, the HTTP service exposes the Telegram webhook (secret checked),
and Telegram answers share the HTTP answers' conversation service."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from assistant.api import create_app
from assistant.storage import open_repository
from tests.api.engines import InFlight
from tests.channels.botapi_server import BotAPIServer
from tests.channels.conftest import TOKEN

pytestmark = pytest.mark.slow


async def test_webhook_route_is_mounted_and_checks_the_secret(
    pipeline: Any, settings: Any, tmp_path: Path
) -> None:
    s = settings.model_copy(
        update={
            "db_path": tmp_path / "db.sqlite3",
            "telegram_token": SecretStr("123456:TEST-token"),
            "telegram_webhook_secret": SecretStr("s3cret"),
        }
    )
    app = create_app(pipeline, s, open_repository(s))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        denied = await client.post("/telegram/webhook", json={"update_id": 1})
        assert denied.status_code == 403
        assert "TEST-token" not in denied.text
        bad = await client.post(
            "/telegram/webhook",
            content=b"not json",
            headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"},
        )
        assert bad.status_code == 400


async def test_webhook_and_http_answers_share_one_cap(
    pipeline: Any, settings: Any, tmp_path: Path
) -> None:
    """One conversation service per process: Telegram updates wait for the same answer slots
    as HTTP requests."""
    counted = InFlight(pipeline, hold_s=0.2)
    with BotAPIServer(TOKEN) as botapi:
        s = settings.model_copy(
            update={
                "db_path": tmp_path / "db.sqlite3",
                "telegram_token": SecretStr(TOKEN),
                "telegram_api_base": botapi.base_url,
                "telegram_webhook_secret": SecretStr("s3cret"),
                "max_concurrent_answers": 1,
            }
        )
        app = create_app(counted, s, open_repository(s))
        transport = httpx.ASGITransport(app=app)
        secret = {"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
        chats = [7001, 7002, 7003]
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            webhooks = [
                client.post(
                    "/telegram/webhook",
                    json={
                        "update_id": 100 + i,
                        "message": botapi.message(chat, "что такое NVLink?"),
                    },
                    headers=secret,
                )
                for i, chat in enumerate(chats)
            ]
            chats_http = [client.post("/v1/chat", json={"message": "что такое HBM"}) for _ in chats]
            replies = await asyncio.gather(*webhooks, *chats_http)
        assert [r.status_code for r in replies] == [200] * 6
        assert all("NVLink" in botapi.sent(chat)[0].text for chat in chats)
    assert counted.calls == 6 and counted.peak == 1
