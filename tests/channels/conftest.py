"""Fixtures for the Telegram channel: the local Bot API server, the real engine, a running bot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from assistant.channels.telegram import TelegramApp, create_telegram, run_polling
from assistant.channels.telegram.retry import RetryMiddleware
from assistant.conversation import ChatService
from assistant.conversation.service import AnswerEngine
from assistant.settings import Settings
from tests.channels.botapi_server import BotAPIServer

TOKEN = "987654321:AAF-secretPart_0123456789abcdefghijKLMN"
BASE_URL = "https://fullgpu.example"


@pytest.fixture
def botapi() -> Iterator[BotAPIServer]:
    with BotAPIServer(TOKEN) as server:
        yield server


@pytest.fixture
def tg_settings(settings: Settings, botapi: BotAPIServer, tmp_path: Path) -> Settings:
    return settings.model_copy(
        update={
            "telegram_token": SecretStr(TOKEN),
            "telegram_api_base": botapi.base_url,
            "public_base_url": BASE_URL,
            "db_path": tmp_path / "telegram.sqlite3",
            "database_url": "",
        }
    )


def fast_retry() -> RetryMiddleware:
    return RetryMiddleware(attempts=4, base_delay=0.05, max_delay=0.2)


class RunningBot:
    """A bot polling the test server in the background of the test's event loop."""

    def __init__(self, settings: Settings, engine: AnswerEngine, server: BotAPIServer) -> None:
        self.settings, self.engine, self.server = settings, engine, server
        self.app: TelegramApp | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> RunningBot:
        from assistant.storage import open_repository

        self.repository = open_repository(self.settings)
        self.service = ChatService(self.engine, self.settings, self.repository)
        self.app = create_telegram(self.settings, self.service, retry=fast_retry())
        polls = self.server.polls_started
        self._task = asyncio.create_task(
            run_polling(self.app, polling_timeout=1, handle_signals=False)
        )
        # polling has begun once a long poll reaches the server (not when one times out)
        await self.server.until(lambda s: s.polls_started > polls)
        return self

    async def stop(self) -> None:
        if self.app and self._task and not self._task.done():
            await self.app.dispatcher.stop_polling()
        if self._task:
            await self._task
        self.repository.close()


@pytest.fixture
async def start_bot(
    tg_settings: Settings, pipeline: Any, botapi: BotAPIServer
) -> AsyncIterator[Any]:
    """start_bot(engine=None, **settings) → a RunningBot (stopped at teardown)."""
    running: list[RunningBot] = []

    async def start(engine: AnswerEngine | None = None, **overrides: Any) -> RunningBot:
        settings = tg_settings.model_copy(update=overrides)
        bot = await RunningBot(settings, engine or pipeline, botapi).start()
        running.append(bot)
        return bot

    yield start
    for bot in running:
        if bot._task and not bot._task.done():
            await bot.stop()
