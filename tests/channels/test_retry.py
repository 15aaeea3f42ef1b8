"""Retry middleware (429, network errors, 5xx, give-up); the token kept out of errors and logs."""

from __future__ import annotations

import logging
import socket
from typing import Any

import pytest
from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import GetMe, GetUpdates, SendMessage
from pydantic import SecretStr

from assistant.channels.telegram import build_bot
from assistant.channels.telegram.retry import (
    REDACTED,
    RetryMiddleware,
    backoff_delay,
    install_log_redaction,
    redact,
)
from assistant.errors import ConfigError
from assistant.settings import Settings
from tests.channels.botapi_server import BotAPIServer
from tests.channels.conftest import TOKEN

SECRET = TOKEN.partition(":")[2]


class Flaky:
    """make_request that raises the given errors first, then returns "ok"."""

    def __init__(self, *errors: Exception) -> None:
        self.errors, self.calls = list(errors), 0

    async def __call__(self, bot: Any, method: Any) -> Any:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return "ok"


def middleware(sleeps: list[float], attempts: int = 3) -> RetryMiddleware:
    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    return RetryMiddleware(attempts=attempts, base_delay=0.5, max_delay=4.0, sleep=sleep)


BOT = Bot(TOKEN)
SEND = SendMessage(chat_id=1, text="x")


async def test_retry_after_is_slept_exactly() -> None:
    sleeps: list[float] = []
    flaky = Flaky(TelegramRetryAfter(SEND, "Too Many Requests: retry after 7", 7))
    assert await middleware(sleeps)(flaky, BOT, SEND) == "ok"  # type: ignore[comparison-overlap]
    assert sleeps == [7.0] and flaky.calls == 2


async def test_network_errors_back_off_exponentially_then_give_up() -> None:
    sleeps: list[float] = []
    errors = [TelegramNetworkError(SEND, "Request timeout error") for _ in range(4)]
    with pytest.raises(TelegramNetworkError):
        await middleware(sleeps)(Flaky(*errors), BOT, SEND)
    assert len(sleeps) == 3
    assert 0.25 <= sleeps[0] <= 0.5 and 0.25 <= sleeps[1] <= 1.0 and 0.25 <= sleeps[2] <= 2.0


async def test_server_errors_retry_but_bad_requests_do_not() -> None:
    sleeps: list[float] = []
    assert await middleware(sleeps)(Flaky(TelegramServerError(SEND, "Bad Gateway")), BOT, SEND)
    with pytest.raises(TelegramBadRequest):
        await middleware(sleeps)(Flaky(TelegramBadRequest(SEND, "Bad Request: x")), BOT, SEND)
    assert len(sleeps) == 1


async def test_get_updates_network_errors_are_left_to_the_polling_loop() -> None:
    sleeps: list[float] = []
    updates = GetUpdates()
    with pytest.raises(TelegramNetworkError):
        await middleware(sleeps)(Flaky(TelegramNetworkError(updates, "x")), BOT, updates)
    assert sleeps == []


async def test_absurd_retry_after_is_not_waited() -> None:
    sleeps: list[float] = []
    with pytest.raises(TelegramRetryAfter):
        await middleware(sleeps)(Flaky(TelegramRetryAfter(SEND, "flood", 3600)), BOT, SEND)
    assert sleeps == []


def test_backoff_is_capped() -> None:
    assert all(0.25 <= backoff_delay(10, 0.5, 4.0) <= 4.0 for _ in range(100))


def test_redact() -> None:
    assert redact(f"url /bot{TOKEN}/getMe", TOKEN) == f"url /bot{REDACTED}/getMe"
    assert SECRET not in redact(f"secret {SECRET}", TOKEN)
    assert redact("nothing", "") == "nothing"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_token_never_in_errors_or_logs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    install_log_redaction(TOKEN)
    base = f"http://127.0.0.1:{_closed_port()}"
    settings = Settings(telegram_token=SecretStr(TOKEN), telegram_api_base=base, _env_file=None)  # type: ignore[call-arg]
    bot = build_bot(settings, retry=RetryMiddleware(attempts=2, base_delay=0.01, max_delay=0.02))
    try:
        with pytest.raises(TelegramNetworkError) as info:
            await bot(GetMe())
        logging.getLogger("test").error("failed: %s (%s)", info.value, TOKEN, exc_info=info.value)
    finally:
        await bot.session.close()
    shown = f"{info.value} {info.value!r} {info.value.__cause__} {info.value.__context__}"
    assert SECRET not in shown
    assert SECRET not in caplog.text
    assert "Telegram GetMe failed, retry 1/2" in caplog.text
    assert REDACTED in caplog.text


def test_missing_or_malformed_token_is_a_config_error() -> None:
    with pytest.raises(ConfigError) as info:
        build_bot(Settings(_env_file=None))  # type: ignore[call-arg]
    assert "ASSISTANT_TELEGRAM_TOKEN" in info.value.user_message
    bad = "not-a-token-" + SECRET
    with pytest.raises(ConfigError) as info:
        build_bot(Settings(telegram_token=SecretStr(bad), _env_file=None))  # type: ignore[call-arg]
    assert SECRET not in str(info.value) + info.value.user_message
    assert info.value.__cause__ is None and info.value.__suppress_context__


async def test_wrong_token_gets_401_from_the_server(botapi: BotAPIServer) -> None:
    other = "111:" + "x" * 30
    settings = Settings(
        telegram_token=SecretStr(other), telegram_api_base=botapi.base_url, _env_file=None
    )  # type: ignore[call-arg]
    bot = build_bot(settings)
    try:
        from aiogram.exceptions import TelegramUnauthorizedError

        with pytest.raises(TelegramUnauthorizedError):
            await bot.get_me()
    finally:
        await bot.session.close()
    assert botapi.calls[0].response == {
        "ok": False,
        "error_code": 401,
        "description": "Unauthorized",
    }
