"""A user's raw message → its stripped text, or an InputError with the one Russian message every
channel shows (HTTP 422 body, SSE `error` event, Telegram reply, CLI)."""

from __future__ import annotations

import re

from assistant.errors import InputError

EMPTY_MESSAGE = "Пустое сообщение: напишите вопрос о GPU или инфраструктуре для ИИ."
EMPTY_CODE = "empty_message"
TOO_LONG_CODE = "message_too_long"
# a surrogate code point in a str has no partner (a pair decodes into one character): what
# undecodable bytes in a command-line argument become; no UTF-8 store or response can hold it
_SURROGATE = re.compile("[\ud800-\udfff]")


def too_long_message(length: int, limit: int) -> str:
    return (
        f"Сообщение слишком длинное ({length} символов, максимум {limit}). "
        "Сократите вопрос, пожалуйста."
    )


def repair_surrogates(text: str) -> str:
    """Each unpaired surrogate as U+FFFD, as browsers and the HTTP edge turn them into text."""
    return _SURROGATE.sub("\ufffd", text)


def validate_message(message: str | None, max_chars: int) -> str:
    """The message without surrounding whitespace (and without NUL characters, which mean
    nothing and which PostgreSQL text cannot hold; unpaired surrogates become U+FFFD); empty or
    over `max_chars` → InputError."""
    text = repair_surrogates((message or "").replace("\x00", "")).strip()
    if not text:
        raise InputError(EMPTY_MESSAGE, code=EMPTY_CODE)
    if len(text) > max_chars:
        raise InputError(too_long_message(len(text), max_chars), code=TOO_LONG_CODE)
    return text
