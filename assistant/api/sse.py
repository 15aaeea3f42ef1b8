"""Server-Sent Events framing: (event name, JSON data) → bytes; the streaming response type."""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import StreamingResponse

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def sse(event: str | None, data: Any) -> str:
    """One SSE frame; `event=None` gives a bare `data:` frame (the OpenAI style)."""
    payload = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    head = f"event: {event}\n" if event else ""
    return head + "".join(f"data: {line}\n" for line in payload.split("\n")) + "\n"


class EventStream(StreamingResponse):
    media_type = "text/event-stream"
