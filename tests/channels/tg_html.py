"""Telegram HTML parse mode as the Bot API applies it: documented tags, four named entities."""

from __future__ import annotations

import re
from typing import Any

ALLOWED_TAGS = {
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler",
    "a", "code", "pre", "blockquote", "tg-emoji",
}  # fmt: skip
NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
MAX_TEXT = 4096


class ApiError(Exception):
    """A Bot API error response."""

    def __init__(self, code: int, description: str, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.code, self.description, self.retry_after = code, description, retry_after

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ok": False,
            "error_code": self.code,
            "description": self.description,
        }
        if self.retry_after is not None:
            out["parameters"] = {"retry_after": self.retry_after}
        return out


def _bad(detail: str) -> ApiError:
    return ApiError(400, f"Bad Request: can't parse entities: {detail}")


def _entity(text: str, pos: int) -> tuple[str, int]:
    end = text.find(";", pos)
    name = text[pos + 1 : end] if end != -1 else ""
    if end == -1 or not re.fullmatch(r"#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+", name):
        raise _bad(f"Character '&' is reserved and must be escaped at byte offset {pos}")
    if name.startswith("#x"):
        return chr(int(name[2:], 16)), end + 1
    if name.startswith("#"):
        return chr(int(name[1:])), end + 1
    if name not in NAMED_ENTITIES:
        raise _bad(f'Unsupported HTML entity "&{name};" at byte offset {pos}')
    return NAMED_ENTITIES[name], end + 1


def _tag(text: str, pos: int, stack: list[str]) -> int:
    end = text.find(">", pos)
    if end == -1:
        raise _bad(f"Unclosed start tag at byte offset {pos}")
    inner = text[pos + 1 : end].strip()
    if inner.startswith("/"):
        name = inner[1:].strip().lower()
        if not stack:
            raise _bad(f'Unexpected end tag "{name}" at byte offset {pos}')
        if stack[-1] != name:
            raise _bad(
                f'Unmatched end tag at byte offset {pos}, expected "</{stack[-1]}>", '
                f'found "</{name}>"'
            )
        stack.pop()
        return end + 1
    match = re.match(r"([a-zA-Z][\w-]*)(.*)$", inner, re.DOTALL)
    if match is None or match.group(1).lower() not in ALLOWED_TAGS:
        shown = match.group(1) if match else inner[:10]
        raise _bad(f'Unsupported start tag "{shown}" at byte offset {pos}')
    name, attrs = match.group(1).lower(), match.group(2)
    if name == "a" and not re.search(r'href\s*=\s*"[^"<>]*"', attrs):
        raise _bad(f"Can't find href attribute of the a tag at byte offset {pos}")
    if (
        stack
        and {name, stack[-1]} & {"pre", "code"}
        and not (stack[-1] == "pre" and name == "code")
    ):
        raise _bad(f'Entity "{name}" can\'t be nested in "{stack[-1]}" at byte offset {pos}')
    stack.append(name)
    return end + 1


def parse_html(text: str) -> str:
    """Telegram HTML → plain text, raising ApiError(400) where Telegram refuses to parse."""
    out: list[str] = []
    stack: list[str] = []
    pos = 0
    while pos < len(text):
        char = text[pos]
        if char == "<":
            pos = _tag(text, pos, stack)
        elif char == "&":
            value, pos = _entity(text, pos)
            out.append(value)
        elif char == ">":
            raise _bad(f"Character '>' is reserved and must be escaped at byte offset {pos}")
        else:
            out.append(char)
            pos += 1
    if stack:
        raise _bad(f'Can\'t find end tag corresponding to start tag "{stack[-1]}"')
    return "".join(out)


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2
