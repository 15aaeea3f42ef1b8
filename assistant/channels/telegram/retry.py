"""Bot API request retries (429 retry_after honoured, network errors/timeouts with backoff) and
token redaction for exceptions and logs."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiogram.client.session.middlewares.base import BaseRequestMiddleware
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import GetUpdates

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.client.session.middlewares.base import NextRequestMiddlewareType
    from aiogram.methods import Response, TelegramMethod
    from aiogram.methods.base import TelegramType

log = logging.getLogger(__name__)
REDACTED = "<telegram-token>"
Sleep = Callable[[float], Awaitable[Any]]


def redact(text: str, token: str) -> str:
    """Replace the bot token (and its secret half) in `text`."""
    if not token:
        return text
    text = text.replace(token, REDACTED)
    secret = token.partition(":")[2]
    return text.replace(secret, REDACTED) if len(secret) >= 8 else text


def backoff_delay(attempt: int, base: float, cap: float) -> float:
    """Exponential backoff with full jitter: uniform(base/2, min(cap, base·2^attempt))."""
    high = min(cap, base * (2**attempt))
    return random.uniform(min(base / 2, high), high)


class RetryMiddleware(BaseRequestMiddleware):
    """Retries one Bot API request: 429 after `retry_after`, network/5xx errors with backoff."""

    def __init__(
        self,
        *,
        attempts: int = 4,
        base_delay: float = 0.5,
        max_delay: float = 8.0,
        max_retry_after: float = 60.0,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.attempts = attempts
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.max_retry_after = max_retry_after
        self.sleep = sleep

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        attempt = 0
        while True:
            try:
                return await make_request(bot, method)
            except TelegramAPIError as e:
                _redact_error(e, bot.token)
                delay = self._delay(e, method, attempt)
                if delay is None:
                    raise
            attempt += 1
            log.warning(
                "Telegram %s failed, retry %d/%d in %.1f s",
                type(method).__name__,
                attempt,
                self.attempts,
                delay,
            )
            await self.sleep(delay)

    def _delay(self, error: TelegramAPIError, method: object, attempt: int) -> float | None:
        """Seconds to wait before the next attempt, or None to give up."""
        if attempt >= self.attempts:
            return None
        if isinstance(error, TelegramRetryAfter):
            return float(error.retry_after) if error.retry_after <= self.max_retry_after else None
        if isinstance(method, GetUpdates):
            return None  # the polling loop has its own backoff
        if isinstance(error, TelegramNetworkError | TelegramServerError):
            return backoff_delay(attempt, self.base_delay, self.max_delay)
        return None


def _redact_error(error: TelegramAPIError, token: str) -> None:
    error.message = redact(error.message, token)
    cause = error.__cause__
    if cause is not None and token in str(cause):
        error.__cause__ = None
        error.__suppress_context__ = True


class TokenRedactingFilter(logging.Filter):
    """Handler filter: removes the bot token from every formatted message and traceback."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message, self.token)
        if clean != message:
            record.msg, record.args = clean, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.token)
        return True


def install_log_redaction(token: str, logger: logging.Logger | None = None) -> TokenRedactingFilter:
    """Attach a TokenRedactingFilter to every handler of `logger` (the root logger by default)."""
    target = logger or logging.getLogger()
    redactor = TokenRedactingFilter(token)
    for handler in target.handlers:
        handler.addFilter(redactor)
    return redactor
