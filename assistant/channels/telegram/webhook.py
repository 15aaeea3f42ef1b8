"""Webhook mode: a FastAPI route that checks Telegram's secret-token header and feeds the update."""

from __future__ import annotations

import hashlib
import hmac
import logging
from typing import TYPE_CHECKING, Any

from aiogram.methods import TelegramMethod
from aiogram.types import Update
from fastapi import APIRouter, Request, Response
from pydantic import ValidationError

if TYPE_CHECKING:
    from aiogram import Bot, Dispatcher

    from assistant.settings import Settings

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
DEFAULT_PATH = "/telegram/webhook"
ALLOWED_UPDATES = ["message", "callback_query"]


def webhook_secret(settings: Settings) -> str:
    """The configured webhook secret, or one derived from the bot token (never the token itself).

    Telegram allows 1–256 characters of A–Z, a–z, 0–9, «_» and «-»; a hex digest qualifies.
    """
    configured = settings.telegram_webhook_secret.get_secret_value().strip()
    if configured:
        return configured
    token = settings.telegram_token.get_secret_value().strip()
    return hashlib.sha256(f"glossary-assistant/webhook/{token}".encode()).hexdigest()


def secret_matches(given: str | None, expected: str) -> bool:
    """Constant-time comparison of the header value with the expected secret."""
    return hmac.compare_digest((given or "").encode(), expected.encode())


def telegram_webhook_router(
    bot: Bot, dispatcher: Dispatcher, settings: Settings, *, path: str = DEFAULT_PATH
) -> APIRouter:
    """POST `path`: 403 unless the secret header matches, 400 for a body that is not an Update,
    otherwise the update goes through the dispatcher and Telegram gets 200."""
    expected = webhook_secret(settings)
    router = APIRouter()

    @router.post(path, include_in_schema=False)
    async def telegram_webhook(request: Request) -> Response:
        if not secret_matches(request.headers.get(SECRET_HEADER), expected):
            return Response(status_code=403)
        try:
            update = Update.model_validate(await request.json(), context={"bot": bot})
        except (ValueError, ValidationError):
            return Response(status_code=400)
        result: Any = await dispatcher.feed_webhook_update(bot, update)
        if isinstance(result, TelegramMethod):
            await bot(result)
        return Response(status_code=200)

    return router


async def register_webhook(bot: Bot, settings: Settings, url: str) -> None:
    """setWebhook(url) with the secret token, for the updates the bot handles."""
    await bot.set_webhook(
        url, secret_token=webhook_secret(settings), allowed_updates=ALLOWED_UPDATES
    )
