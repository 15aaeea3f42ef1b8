"""Request bytes and client identity → 413 for oversized bodies, 429 + Retry-After over the rate."""

from __future__ import annotations

import json
import math
import threading
import time
from dataclasses import dataclass

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from assistant.api.errors import ApiError, error_body

_TOO_LARGE = error_body("payload_too_large", "Слишком большой запрос.")


class BodyLimitMiddleware:
    """Reads at most `max_bytes` of a request body; anything larger gets a JSON 413."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await _send_413(send)
            return
        chunks: list[bytes] = []
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _send_413(send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        await self.app(scope, _replay(b"".join(chunks), receive), send)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _send_413(send: Send) -> None:
    payload = json.dumps(_TOO_LARGE, ensure_ascii=False).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


def client_keys(request: Request, session_id: str | None = None) -> list[str]:
    """The rate-limit keys of a public request: its IP and, when known, its session."""
    keys = [f"ip:{request.client.host if request.client else 'unknown'}"]
    if session_id:
        keys.append(f"session:{session_id}")
    return keys


@dataclass
class _Bucket:
    tokens: float
    updated: float


class RateLimiter:
    """Token buckets per key (`ip:…`, `session:…`): `per_minute` requests, refilled smoothly.

    In memory, per process: with several replicas each enforces its own share.
    `per_minute <= 0` disables limiting (load tests).
    """

    def __init__(self, per_minute: int, *, max_keys: int = 100_000) -> None:
        self.per_minute = per_minute
        self.rate = per_minute / 60.0
        self.max_keys = max_keys
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()

    def retry_after(self, key: str, now: float | None = None) -> int:
        """Take one token for `key`; 0 if allowed, else seconds until one is available."""
        if self.per_minute <= 0:
            return 0
        now = time.monotonic() if now is None else now
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None:
                self._prune(now)
                bucket = self._buckets[key] = _Bucket(float(self.per_minute), now)
            bucket.tokens = min(
                float(self.per_minute), bucket.tokens + (now - bucket.updated) * self.rate
            )
            bucket.updated = now
            if bucket.tokens >= 1.0:
                bucket.tokens -= 1.0
                return 0
            return max(1, math.ceil((1.0 - bucket.tokens) / self.rate))

    def check(self, *keys: str) -> None:
        """Raise a 429 ApiError if any key is over its rate."""
        for key in keys:
            wait = self.retry_after(key)
            if wait:
                raise ApiError(
                    429,
                    "rate_limited",
                    f"Слишком много запросов. Повторите через {wait} с.",
                    {"Retry-After": str(wait)},
                )

    def _prune(self, now: float) -> None:
        """Forget buckets that have refilled completely (they equal a fresh bucket)."""
        if len(self._buckets) < self.max_keys:
            return
        full_after = 60.0
        stale = [k for k, b in self._buckets.items() if now - b.updated > full_after]
        for key in stale:
            del self._buckets[key]
