"""Settings → uvicorn's HTTP protocol with limits at the edge and JSON for its own errors.

uvicorn (0.54, httptools) has no deadline for a request's headers or body and no limit on their
size: 50 connections sending headers at 1 byte/s stay open for ever, a 64 MB header is read
whole, and with a low file-descriptor limit such connections end in `500 Too many open files`
inside the app. `EdgeProtocol` adds what nginx calls client_header_timeout, client_body_timeout
and large_client_header_buffers, and a cap on connections below the descriptor limit:

    header_timeout_s   the request line and headers within this time       → 408, closed
    body_timeout_s     the body within this time after the headers         → 408, closed
    max_header_bytes   request line + headers at most this long            → 431, closed
    max_connections    connections served at once (0: from RLIMIT_NOFILE)  → 503, closed

Each of these, and the parser's own 400 («Invalid HTTP request received.» in plain text), is
the documented `{"error": {"code", "message"}}` body with a Russian message. The 503 for a
request that arrives while the service is full goes through the CORS middleware, so the widget
can read it; a connection refused at accept time has sent no request yet.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
from dataclasses import dataclass
from typing import Any, ClassVar

from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.server import ServerState

from assistant.api.errors import error_body
from assistant.settings import Settings

LINGER_S = 2.0  # after an error, read (and drop) what the client still sends, then close
CAP_CEILING = 4096  # more connections than this on two cores only queue
FD_RESERVE = 64  # descriptors kept for the app itself: a pool, a lazy import, an LLM call

TIMEOUT = ("request_timeout", "Запрос не пришёл целиком вовремя. Повторите его.")
TOO_LARGE = ("headers_too_large", "Слишком большие заголовки запроса.")
BAD = ("bad_request", "Некорректный запрос.")
BUSY = ("unavailable", "Сервис перегружен. Повторите запрос через несколько секунд.")


def connection_cap(configured: int) -> int:
    """`configured`, or (0) what the open-file limit leaves after the descriptors this process
    already holds (model, index, database) and a reserve for its own work."""
    if configured > 0:
        return configured
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return CAP_CEILING
    try:
        held = len(os.listdir("/proc/self/fd"))
    except OSError:
        held = 64
    return max(16, min(CAP_CEILING, soft - held - FD_RESERVE))


@dataclass(frozen=True)
class EdgeLimits:
    header_timeout_s: float
    body_timeout_s: float
    max_header_bytes: int
    max_connections: int
    overloaded: ASGIApp  # the JSON 503 (with CORS) for a request that came while full


def edge_limits(settings: Settings) -> EdgeLimits:
    return EdgeLimits(
        header_timeout_s=settings.header_timeout_s,
        body_timeout_s=settings.body_timeout_s,
        max_header_bytes=settings.max_header_bytes,
        max_connections=connection_cap(settings.max_connections),
        overloaded=CORSMiddleware(
            _overloaded,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["Content-Type"],
            expose_headers=["Retry-After"],
        ),
    )


def edge_protocol(limits: EdgeLimits) -> type[EdgeProtocol]:
    """A protocol class for `uvicorn.Config(http=…)` bound to these limits."""
    return type("BoundEdgeProtocol", (EdgeProtocol,), {"limits": limits})


def _json_body(code_message: tuple[str, str]) -> bytes:
    return json.dumps(error_body(*code_message), ensure_ascii=False).encode()


async def _overloaded(scope: Scope, receive: Receive, send: Send) -> None:
    body = _json_body(BUSY)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", b"1"),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class EdgeProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the deadlines, size limit and cap above."""

    limits: ClassVar[EdgeLimits]

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self._deadline: asyncio.TimerHandle | None = None
        self._in_head = True  # reading a request line and headers
        self._head_bytes = 0
        self._tail = b""  # the last bytes seen, for a CRLFCRLF split over two reads
        self._refused = False

    # connection

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.limits.max_connections:
            # closed at once: lingering here would spend the descriptors the cap protects
            self._refuse(503, BUSY, retry_after=True, linger=False)
            return
        self._arm(self.limits.header_timeout_s)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused or self.transport.is_closing():
            return  # refused or timed out: what still comes is dropped
        if self._in_head:
            if self._deadline is None:  # the first byte of the next request on a kept-alive one
                self._arm(self.limits.header_timeout_s)
            window = self._tail + data
            end = window.find(b"\r\n\r\n")
            counted = len(data) if end < 0 else max(0, end + 4 - len(self._tail))
            self._head_bytes += counted
            self._tail = window[-3:]
            if self._head_bytes > self.limits.max_header_bytes:
                self._refuse(431, TOO_LARGE)
                return
        super().data_received(data)

    # parser callbacks

    def on_headers_complete(self) -> None:
        self._disarm()
        self._in_head, self._head_bytes, self._tail = False, 0, b""
        full = len(self.tasks) >= self.limits.max_connections
        if full:  # requests in flight, pipelined ones included: the JSON 503 instead of the app
            self.app, app = self.limits.overloaded, self.app
        try:
            super().on_headers_complete()
        finally:
            if full:
                self.app = app
        self._arm(self.limits.body_timeout_s)  # disarmed at once when there is no body

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        self._in_head = True  # the next request's head; its clock starts at its first byte
        super().on_response_complete()

    # errors

    def send_400_response(self, msg: str) -> None:
        self._refuse(400, BAD)

    def _timed_out(self) -> None:
        self._deadline = None
        cycle = self.cycle
        if not self._in_head and cycle is not None:
            if cycle.response_started:
                return  # the app answered before the body ended: its response stands
            cycle.disconnected = True  # the route reading the body sees the client gone
            cycle.message_event.set()
        self._refuse(408, TIMEOUT)

    def _refuse(
        self, status: int, error: tuple[str, str], *, retry_after: bool = False, linger: bool = True
    ) -> None:
        """Write a JSON error straight to the socket, then close it the way nginx's lingering
        close does: our side first (FIN), reading and dropping what the client still sends for
        up to LINGER_S — closing with unread data would reset the connection, and the client
        would lose the response before reading it."""
        if self._refused or self.transport.is_closing():
            return
        self._refused = True
        self._disarm()
        body = _json_body(error)
        head = [STATUS_LINE[status]]
        for name, value in self.server_state.default_headers:
            head += [name, b": ", value, b"\r\n"]
        head += [b"content-type: application/json\r\n"]
        head += [b"content-length: ", str(len(body)).encode(), b"\r\n"]
        if retry_after:
            head += [b"retry-after: 1\r\n"]
        head += [b"connection: close\r\n\r\n"]
        self.transport.write(b"".join(head) + body)
        if linger and self.transport.can_write_eof():
            self.transport.write_eof()  # the client reads the response, then our FIN
            self.loop.call_later(LINGER_S, self.transport.close)
        else:
            self.transport.close()

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._timed_out)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
