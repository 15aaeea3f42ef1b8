"""Telegram bot channel (aiogram 3): long polling or a webhook route on the HTTP service.

    service = ChatService(pipeline, settings, repository)   # assistant.conversation
    app = create_telegram(settings, service)                 # Bot + Dispatcher over it
    await run_polling(app)                                   # `assistant telegram`
    api.include_router(telegram_webhook_router(app.bot, app.dispatcher, settings))  # webhook

Rendering (render.py) is pure: Answer → Telegram HTML → parts ≤ 4096 characters.
"""

from __future__ import annotations

from assistant.channels.telegram.bot import (
    TelegramApp,
    build_bot,
    build_dispatcher,
    create_telegram,
)
from assistant.channels.telegram.polling import run_polling
from assistant.channels.telegram.webhook import (
    register_webhook,
    telegram_webhook_router,
    webhook_secret,
)

__all__ = [
    "TelegramApp",
    "build_bot",
    "build_dispatcher",
    "create_telegram",
    "register_webhook",
    "run_polling",
    "telegram_webhook_router",
    "webhook_secret",
]
