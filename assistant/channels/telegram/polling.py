"""Long polling: check the token with getMe, drop any webhook, poll until stopped, and confirm
handled updates on the way out (so a restart does not answer the last question twice)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Bot
from aiogram.exceptions import TelegramAPIError, TelegramUnauthorizedError
from aiogram.types import TelegramObject, Update

from assistant.channels.telegram.bot import TelegramApp
from assistant.channels.telegram.webhook import ALLOWED_UPDATES
from assistant.errors import ConfigError

log = logging.getLogger(__name__)
Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


class UpdateTracker(BaseMiddleware):
    """Outer update middleware: the highest handled update_id and whether handlers are running."""

    def __init__(self) -> None:
        self.handled = 0
        self.running = 0
        self.idle = asyncio.Event()
        self.idle.set()

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        self.running += 1
        self.idle.clear()
        try:
            return await handler(event, data)
        finally:
            if isinstance(event, Update):
                self.handled = max(self.handled, event.update_id)
            self.running -= 1
            if not self.running:
                self.idle.set()


async def check_token(bot: Bot) -> str:
    """The bot's @username; a rejected token becomes a ConfigError (token not included)."""
    try:
        me = await bot.me()
    except TelegramUnauthorizedError:
        raise ConfigError(
            "telegram rejected the bot token",
            user_message="Telegram отклонил токен бота: проверьте ASSISTANT_TELEGRAM_TOKEN.",
        ) from None
    return me.username or str(me.id)


async def confirm_handled(bot: Bot, tracker: UpdateTracker, drain_s: float = 10.0) -> None:
    """Let running handlers finish, then getUpdates(offset=last+1) so Telegram forgets them."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(tracker.idle.wait(), drain_s)
    if not tracker.handled:
        return
    try:
        await bot.get_updates(offset=tracker.handled + 1, timeout=0, limit=1)
    except TelegramAPIError as e:
        log.warning("could not confirm handled updates: %s", e.message)


async def run_polling(
    app: TelegramApp, *, polling_timeout: int = 30, handle_signals: bool = True
) -> None:
    """Serve updates by long polling until SIGINT/SIGTERM or `dispatcher.stop_polling()`."""
    tracker = UpdateTracker()
    app.dispatcher.update.outer_middleware(tracker)
    try:
        username = await check_token(app.bot)
        await app.bot.delete_webhook(drop_pending_updates=False)
        log.info("Telegram bot @%s: long polling", username)
        await app.dispatcher.start_polling(
            app.bot,
            polling_timeout=polling_timeout,
            handle_signals=handle_signals,
            allowed_updates=ALLOWED_UPDATES,
            close_bot_session=False,
        )
        await confirm_handled(app.bot, tracker)
    finally:
        await app.bot.session.close()
