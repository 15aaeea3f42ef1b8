"""A user's raw message → its stripped text, or an InputError with the one Russian message every
channel shows (HTTP 422 body, SSE `error` event, Telegram reply, CLI)."""

from __future__ import annotations

from assistant.errors import InputError

EMPTY_MESSAGE = "Пустое сообщение: напишите вопрос о GPU или инфраструктуре для ИИ."
EMPTY_CODE = "empty_message"
TOO_LONG_CODE = "message_too_long"


def too_long_message(length: int, limit: int) -> str:
    return (
        f"Сообщение слишком длинное ({length} символов, максимум {limit}). "
        "Сократите вопрос, пожалуйста."
    )


def validate_message(message: str | None, max_chars: int) -> str:
    """The message without surrounding whitespace; empty or over `max_chars` → InputError."""
    text = (message or "").strip()
    if not text:
        raise InputError(EMPTY_MESSAGE, code=EMPTY_CODE)
    if len(text) > max_chars:
        raise InputError(too_long_message(len(text), max_chars), code=TOO_LONG_CODE)
    return text
