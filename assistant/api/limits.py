"""Request bytes and client identity → 413 for oversized bodies, 429 + Retry-After over a rate.

Rates are sliding-window counters of the `limits` library, one rule per kind of request, each
counted per client IP (an IPv6 client by its /64, which one customer usually owns) and, for
chat, per session too:

    chat      RATE_LIMIT_PER_MINUTE            /v1/chat, /v1/chat/stream, /v1/chat/completions
    feedback  FEEDBACK_RATE_LIMIT_PER_MINUTE   /v1/feedback
    agent     AGENT_RATE_LIMIT_PER_MINUTE      /v1/suggest, every request
    auth      AGENT_AUTH_FAILURES per AGENT_LOCKOUT_S: wrong agent keys; past it the client gets
              429 on /v1/suggest, the right key included, until the window has passed
    console   the same numbers, counted apart: wrong console keys and forged console cookies
              (/admin); past them 429 on the console's sign-in and API

Counters live in the process (`memory://`) unless ASSISTANT_DATABASE_URL is PostgreSQL — then in
its `rate_limits` table, shared by every replica (limit_storage.py) — or
ASSISTANT_RATE_LIMIT_STORAGE names another `limits` storage (`redis://…`, `memcached://…`; their
client packages are not installed by default). The client IP is the socket's peer; behind a
proxy, `assistant serve` lets uvicorn take it from X-Forwarded-For, but only when the proxy's
address is in ASSISTANT_TRUSTED_PROXIES. If the counters' database fails, requests go through
(logged): a limiter must not take the service down with it.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from anyio import to_thread
from limits import RateLimitItem, RateLimitItemPerSecond
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import SlidingWindowCounterRateLimiter
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from assistant.api import limit_storage  # registers postgresql:// with `limits`
from assistant.api.errors import ApiError, error_body
from assistant.settings import Settings

log = logging.getLogger("assistant.api")
T = TypeVar("T")

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
        await self.app(scope, replay_body(b"".join(chunks), receive), send)


def replay_body(body: bytes, receive: Receive) -> Receive:
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


def client_ip(request: Request) -> str:
    """The client's address for rate limits; IPv6 by its /64 (one subscriber's usual share)."""
    host = request.client.host if request.client else "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # ::ffff:a.b.c.d is an IPv4 client
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{host}/64", strict=False))
    return str(address)


def client_keys(request: Request, session_id: str | None = None) -> list[str]:
    """The rate-limit keys of a public request: its IP and, when known, its session."""
    keys = [f"ip:{client_ip(request)}"]
    if session_id:
        keys.append(f"session:{session_id}")
    return keys


@dataclass(frozen=True)
class Rule:
    """`amount` requests per `seconds`; `amount <= 0` switches the rule off (load tests)."""

    amount: int
    seconds: int = 60

    def item(self) -> RateLimitItem:
        return RateLimitItemPerSecond(self.amount, self.seconds)


def rules_of(settings: Settings) -> dict[str, Rule]:
    return {
        "chat": Rule(settings.rate_limit_per_minute),
        "feedback": Rule(settings.feedback_rate_limit_per_minute),
        "agent": Rule(settings.agent_rate_limit_per_minute),
        "auth": Rule(settings.agent_auth_failures, max(1, settings.agent_lockout_s)),
        "console": Rule(settings.agent_auth_failures, max(1, settings.agent_lockout_s)),
    }


def storage_uri(settings: Settings) -> str:
    """Where the counters live: the explicit setting, else PostgreSQL if the conversations are
    there (every replica shares them), else this process."""
    if settings.rate_limit_storage:
        return settings.rate_limit_storage
    if settings.database_url.startswith(("postgresql://", "postgres://")):
        return settings.database_url
    return "memory://"


def too_many(wait: int, message: str = "Слишком много запросов.") -> ApiError:
    return ApiError(
        429, "rate_limited", f"{message} Повторите через {wait} с.", {"Retry-After": str(wait)}
    )


class RateLimiter:
    """Named rules over one `limits` storage; routes call `await limiter.check("chat", *keys)`."""

    def __init__(self, storage: Storage, rules: Mapping[str, Rule]) -> None:
        self.storage = storage
        self.strategy = SlidingWindowCounterRateLimiter(storage)
        self.items = {name: rule.item() for name, rule in rules.items() if rule.amount > 0}
        self._remote = not isinstance(storage, MemoryStorage)  # network I/O: off the loop

    def retry_after(self, rule: str, key: str) -> int:
        """Count one request of `key` under `rule`: 0 if allowed, else seconds to wait."""
        return self._seconds(rule, key, count=True)

    def locked(self, rule: str, key: str) -> int:
        """Like `retry_after` without counting: 0 while `key` has budget left under `rule`."""
        return self._seconds(rule, key, count=False)

    def _seconds(self, rule: str, key: str, *, count: bool) -> int:
        item = self.items.get(rule)
        if item is None:
            return 0
        allowed = self.strategy.hit if count else self.strategy.test
        return self._guarded(lambda: 0 if allowed(item, rule, key) else self._wait(item, rule, key))

    async def check(self, rule: str, *keys: str) -> None:
        """Count the request under `rule` for each key; 429 ApiError if any key is over."""
        for key in keys:
            wait = await self._call(self.retry_after, rule, key)
            if wait:
                raise too_many(wait)

    async def check_lockout(self, key: str, rule: str = "auth") -> None:
        """429 while `key` is locked out after too many wrong keys (agent, or `console`)."""
        wait = await self._call(self.locked, rule, key)
        if wait:
            raise too_many(wait, "Слишком много попыток с неверным ключом.")

    async def failed_auth(self, key: str, rule: str = "auth") -> None:
        """Count one wrong key for `key` (the next check_lockout may refuse)."""
        await self._call(self.retry_after, rule, key)

    def close(self) -> None:
        close = getattr(self.storage, "close", None)
        if close is not None:
            close()

    def _wait(self, item: RateLimitItem, rule: str, key: str) -> int:
        reset = self.strategy.get_window_stats(item, rule, key).reset_time
        return max(1, math.ceil(reset - time.time()))

    def _guarded(self, count: Callable[[], int]) -> int:
        try:
            return count()
        except Exception as e:  # the counters' store is down: serve rather than refuse everyone
            log.warning("rate-limit storage failed (%s); request let through", type(e).__name__)
            return 0

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        if self._remote:
            return await to_thread.run_sync(fn, *args)
        return fn(*args)


def build_limiter(uri: str, rules: Mapping[str, Rule]) -> RateLimiter:
    """A limiter over the storage `uri` names; a wrong URI is a ConfigError at start-up."""
    from limits.errors import ConfigurationError

    from assistant.errors import ConfigError

    scheme = uri.split("://", 1)[0]
    try:
        storage = storage_from_string(uri)
    except ConfigurationError as e:
        message = f"ASSISTANT_RATE_LIMIT_STORAGE: хранилище {scheme}:// недоступно ({e})."
        # the URI may hold a password: not chained into logs
        raise ConfigError(message, user_message=message) from None
    if not isinstance(storage, Storage):
        message = f"ASSISTANT_RATE_LIMIT_STORAGE: {scheme}:// — не синхронное хранилище."
        raise ConfigError(message, user_message=message)
    return RateLimiter(storage, rules)


def limiter_for(settings: Settings) -> RateLimiter:
    return build_limiter(storage_uri(settings), rules_of(settings))


__all__ = ["BodyLimitMiddleware", "RateLimiter", "Rule", "client_keys", "limit_storage"]
