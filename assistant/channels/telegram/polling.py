"""Long polling: check the token with getMe, drop any webhook, then poll until stopped."""

from __future__ import annotations

import logging

from aiogram import Bot
from aiogram.exceptions import TelegramUnauthorizedError

from assistant.channels.telegram.bot import TelegramApp
from assistant.channels.telegram.webhook import ALLOWED_UPDATES
from assistant.errors import ConfigError

log = logging.getLogger(__name__)


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


async def run_polling(
    app: TelegramApp, *, polling_timeout: int = 30, handle_signals: bool = True
) -> None:
    """Serve updates by long polling until SIGINT/SIGTERM or `dispatcher.stop_polling()`."""
    try:
        username = await check_token(app.bot)
        await app.bot.delete_webhook(drop_pending_updates=False)
    except BaseException:
        await app.bot.session.close()
        raise
    log.info("Telegram bot @%s: long polling", username)
    await app.dispatcher.start_polling(
        app.bot,
        polling_timeout=polling_timeout,
        handle_signals=handle_signals,
        allowed_updates=ALLOWED_UPDATES,
    )
