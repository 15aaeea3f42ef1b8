"""A JSON request body → the same body with every unpaired UTF-16 surrogate escape as U+FFFD.

JSON may carry `"\\ud800"`, a surrogate with no partner: what a client sends when it cuts a
message in the middle of an emoji. Python decodes it into a string that no UTF-8 text can hold,
so SQLite, PostgreSQL and every JSON response would fail on it later, far from the edge. Browsers
turn such strings into text the same way (a USVString replaces them with U+FFFD), so the
question is answered, not rejected. A whole pair (`"\\ud83d\\ude00"`, 😀) stays what it is.
This runs once for every route, before any of them parses the body.
"""

from __future__ import annotations

import json
import re

from starlette.types import ASGIApp, Receive, Scope, Send

from assistant.api.limits import replay_body

# Every backslash in a JSON string starts an escape, so scanning escape by escape from the left
# never mistakes `\\ud800` (an escaped backslash, then letters) for a surrogate.
_ESCAPE = re.compile(
    r"\\u(?:d[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2})"  # a pair: one character, kept
    r"|(\\ud[89a-f][0-9a-f]{2})"  # a surrogate alone
    r"|\\.",  # any other escape, kept
    re.IGNORECASE | re.DOTALL,
)


def repair_json_text(text: str) -> str:
    """JSON text with each unpaired surrogate escape replaced by `\\ufffd`."""
    if "\\" not in text:
        return text
    return _ESCAPE.sub(lambda m: "\\ufffd" if m.group(1) else m.group(0), text)


def repair_json_body(body: bytes) -> bytes:
    """The body with unpaired surrogates repaired; a body that is no text stays as it is (the
    route answers it with its usual 400/422)."""
    encoding = json.detect_encoding(body)
    if encoding == "utf-8" and b"\\" not in body:
        return body  # the usual case: nothing to look at
    try:
        text = body.decode(encoding)
    except UnicodeDecodeError:
        return body
    repaired = repair_json_text(text)
    return body if repaired == text else repaired.encode("utf-8")


def _is_json(scope: Scope) -> bool:
    """FastAPI parses a body as JSON when it says so or says nothing."""
    for name, value in scope["headers"]:
        if name == b"content-type":
            kind: bytes = value.split(b";", 1)[0].strip().lower()
            return kind.endswith((b"/json", b"+json"))
    return True


class SurrogateRepairMiddleware:
    """Reads a JSON request body whole (BodyLimitMiddleware has bounded it) and passes on the
    repaired copy."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD") or not _is_json(scope):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left before its body arrived: nobody to answer
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = repair_json_body(b"".join(chunks))
        await self.app(scope, replay_body(body, receive), send)
