"""A user's raw message → its cleaned, stripped text, or an InputError with the one Russian message
every channel shows (HTTP 422 body, SSE `error` event, Telegram reply, CLI).

Cleaning happens here, once, at the input edge, so no later stage (a template that repeats the
user's term, a report in a terminal, an LLM prompt) can echo what a person never meant to say:
control characters (ESC and BEL sequences drive terminals), bidirectional overrides and isolates
(U+202E reverses the text after it) and unpaired surrogates. `clean_text` serves the other
user text that travels with a question (client-held history, feedback comments).
"""

from __future__ import annotations

import re

from assistant.errors import InputError

EMPTY_MESSAGE = "Пустое сообщение: напишите вопрос о GPU или инфраструктуре для ИИ."
EMPTY_CODE = "empty_message"
TOO_LONG_CODE = "message_too_long"
# a surrogate code point in a str has no partner (a pair decodes into one character): what
# undecodable bytes in a command-line argument become; no UTF-8 store or response can hold it
_SURROGATE = re.compile("[\ud800-\udfff]")
# C0 controls but tab and line feed, DEL, C1 controls, the BOM / zero-width no-break space and
# the bidirectional formatting characters (marks, embeddings, overrides, isolates)
_INVISIBLE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufeff\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
_LINE_BREAK = re.compile("\r\n?|[\u2028\u2029\x85]")


def too_long_message(length: int, limit: int) -> str:
    return (
        f"Сообщение слишком длинное ({length} символов, максимум {limit}). "
        "Сократите вопрос, пожалуйста."
    )


def repair_surrogates(text: str) -> str:
    """Each unpaired surrogate as U+FFFD, as browsers and the HTTP edge turn them into text."""
    return _SURROGATE.sub("\ufffd", text)


def clean_text(text: str) -> str:
    """User text as it may be stored and shown: line breaks as `\n`, unpaired surrogates as
    U+FFFD, no control or bidirectional formatting characters (NUL included, which PostgreSQL
    text cannot hold). Letters, emoji (with their joiners) and tabs are kept."""
    return _INVISIBLE.sub("", _LINE_BREAK.sub("\n", repair_surrogates(text)))


class ValidMessage(str):
    """A message that passed `validate_message`: the pipeline takes it as it is, so a
    channel's question is checked once, where it arrives."""

    __slots__ = ()


def validate_message(message: str | None, max_chars: int) -> ValidMessage:
    """The cleaned message (`clean_text`) without surrounding whitespace; empty or over
    `max_chars` → InputError. A message validated already is returned as it is."""
    if isinstance(message, ValidMessage):
        return message
    text = clean_text(message or "").strip()
    if not text:
        raise InputError(EMPTY_MESSAGE, code=EMPTY_CODE)
    if len(text) > max_chars:
        raise InputError(too_long_message(len(text), max_chars), code=TOO_LONG_CODE)
    return ValidMessage(text)
