"""Webhook route in a bare FastAPI app: secret header checked, updates fed to the real bot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from pydantic import SecretStr

from assistant.channels.telegram import TelegramApp, create_telegram, telegram_webhook_router
from assistant.channels.telegram.webhook import SECRET_HEADER, secret_matches, webhook_secret
from assistant.conversation import ChatService
from assistant.settings import Settings
from tests.channels.botapi_server import BotAPIServer
from tests.channels.conftest import TOKEN

SECRET = "webhook-Secret_123"


@pytest.fixture
async def telegram(tg_settings: Settings, pipeline: Any) -> AsyncIterator[TelegramApp]:
    from assistant.storage import open_repository

    settings = tg_settings.model_copy(update={"telegram_webhook_secret": SecretStr(SECRET)})
    repository = open_repository(settings)
    app = create_telegram(settings, ChatService(pipeline, settings, repository))
    app.dispatcher["webhook_settings"] = settings
    yield app
    await app.bot.session.close()
    repository.close()


@pytest.fixture
async def client(telegram: TelegramApp) -> AsyncIterator[httpx.AsyncClient]:
    api = FastAPI()
    settings = telegram.dispatcher["webhook_settings"]
    api.include_router(telegram_webhook_router(telegram.bot, telegram.dispatcher, settings))
    transport = httpx.ASGITransport(app=api)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        yield http


def update(botapi: BotAPIServer, text: str) -> dict[str, Any]:
    return {"update_id": 77, "message": botapi.message(6001, text)}


async def test_wrong_or_missing_secret_is_403(
    client: httpx.AsyncClient, botapi: BotAPIServer
) -> None:
    body = update(botapi, "что такое NVLink?")
    assert (await client.post("/telegram/webhook", json=body)).status_code == 403
    wrong = {SECRET_HEADER: SECRET + "x"}
    assert (await client.post("/telegram/webhook", json=body, headers=wrong)).status_code == 403
    assert botapi.calls == []


async def test_update_is_answered(client: httpx.AsyncClient, botapi: BotAPIServer) -> None:
    body = update(botapi, "что такое NVLink?")
    response = await client.post("/telegram/webhook", json=body, headers={SECRET_HEADER: SECRET})
    assert response.status_code == 200
    [reply] = botapi.sent(6001)  # the handler finished before the response
    assert "NVLink" in reply.text and "https://fullgpu.example/glossary/nvlink" in reply.html


async def test_garbage_body_is_400(client: httpx.AsyncClient) -> None:
    headers = {SECRET_HEADER: SECRET, "content-type": "application/json"}
    assert (
        await client.post("/telegram/webhook", content=b"{", headers=headers)
    ).status_code == 400
    bad = await client.post("/telegram/webhook", json={"message": 1}, headers=headers)
    assert bad.status_code == 400


def test_secret_derivation_and_comparison() -> None:
    base = Settings(telegram_token=SecretStr(TOKEN), _env_file=None)  # type: ignore[call-arg]
    derived = webhook_secret(base)
    assert len(derived) == 64 and TOKEN.partition(":")[2] not in derived
    configured = base.model_copy(update={"telegram_webhook_secret": SecretStr("abc")})
    assert webhook_secret(configured) == "abc"
    assert secret_matches("abc", "abc") and not secret_matches(None, "abc")
    assert not secret_matches("abd", "abc")
