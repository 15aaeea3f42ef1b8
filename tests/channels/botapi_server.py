"""A local Telegram Bot API test server: real HTTP on 127.0.0.1, Bot API-shaped JSON, call record.

    with BotAPIServer(token) as server:      # aiohttp app in a background thread
        server.base_url                       # → Settings(telegram_api_base=...)
        server.push_message(chat_id, "текст") # queue an update for getUpdates
        server.fail_next("sendMessage", 429, retry_after=1)
        server.wait_for(lambda calls: ..., timeout=10)   # poll the record, no sleeps

Implements getMe, getUpdates, sendMessage, sendChatAction, answerCallbackQuery,
editMessageReplyMarkup, setWebhook, deleteWebhook following https://core.telegram.org/bots/api:
`{"ok": true, "result": …}` or `{"ok": false, "error_code": …, "description": …, "parameters"}`.
sendMessage with parse_mode=HTML is parsed like Telegram does (only the documented tags and
the four named entities; unbalanced or unknown tags → 400 "can't parse entities"), and text
longer than 4096 characters after parsing → 400 "message is too long".
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.channels.tg_html import MAX_TEXT, ApiError, parse_html, utf16_len

CHAT_ACTIONS = {
    "typing", "upload_photo", "record_video", "upload_video", "record_voice", "upload_voice",
    "upload_document", "choose_sticker", "find_location", "record_video_note",
    "upload_video_note",
}  # fmt: skip
JSON_FIELDS = {"reply_markup", "reply_parameters", "link_preview_options", "allowed_updates"}
INT_FIELDS = {"chat_id", "message_id", "offset", "limit", "timeout", "max_connections"}
_SECRET_OK = re.compile(r"^[A-Za-z0-9_-]{1,256}$")


# --- the server --------------------------------------------------------------------------


@dataclass
class Call:
    """One request the server answered."""

    method: str
    params: dict[str, Any]
    status: int
    response: dict[str, Any]
    at: float = field(default_factory=time.monotonic)

    @property
    def ok(self) -> bool:
        return self.status == 200


@dataclass
class Stored:
    """A message the bot sent (as Telegram keeps it)."""

    message_id: int
    chat_id: int
    html: str
    text: str
    reply_markup: dict[str, Any] | None

    def as_message(self, sender: dict[str, Any]) -> dict[str, Any]:
        message: dict[str, Any] = {
            "message_id": self.message_id,
            "date": int(time.time()),
            "chat": {"id": self.chat_id, "type": "private" if self.chat_id > 0 else "supergroup"},
            "from": sender,
            "text": self.text,
        }
        if self.reply_markup:
            message["reply_markup"] = self.reply_markup
        return message


class BotAPIServer:
    """Bot API over real HTTP for one token; thread-safe record and update queue for tests."""

    def __init__(self, token: str, *, username: str = "fullgpu_test_bot", bot_id: int = 0) -> None:
        self.token = token
        self.username = username
        self.bot_id = bot_id or int(token.split(":", 1)[0])
        self.port = 0
        self.webhook: dict[str, Any] = {}
        self._lock = threading.Condition()
        self._calls: list[Call] = []
        self._updates: list[dict[str, Any]] = []
        self._confirmed = 0
        self._failures: dict[str, list[ApiError]] = {}
        self._messages: dict[tuple[int, int], Stored] = {}
        self._callbacks: set[str] = set()
        self._ids = itertools.count(1)
        self._update_ids = itertools.count(1000)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._new_update: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._stop: asyncio.Event | None = None
        self._closing = False  # stopping: pending long polls return at once
        self._ready = threading.Event()
        self.polls_started = 0  # getUpdates requests received (calls are recorded on completion)

    # lifecycle ---------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> BotAPIServer:
        self._thread = threading.Thread(target=self._run, name="botapi-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("Bot API test server did not start")
        return self

    def stop(self) -> None:
        if self._loop and self._stop:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread:
            self._thread.join(10)

    def __enter__(self) -> BotAPIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._new_update, self._stop = asyncio.Event(), asyncio.Event()
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self.port = runner.addresses[0][1]
        self._ready.set()
        await self._stop.wait()
        self._closing = True  # else cleanup waits for every long poll to time out
        self._new_update.set()
        await runner.cleanup()

    # test-facing API -----------------------------------------------------------------------

    def push_update(self, update: dict[str, Any]) -> int:
        """Queue an update (update_id assigned); returns its update_id."""
        with self._lock:
            update = {"update_id": next(self._update_ids), **update}
            self._updates.append(update)
        if self._loop and self._new_update:
            self._loop.call_soon_threadsafe(self._new_update.set)
        return int(update["update_id"])

    def message(
        self,
        chat_id: int,
        text: str | None = None,
        *,
        user_id: int | None = None,
        chat_type: str = "private",
        reply_to: int | None = None,
        **content: Any,
    ) -> dict[str, Any]:
        """A Message object from a user (text, or content such as sticker=…, photo=…)."""
        user = {
            "id": user_id or chat_id,
            "is_bot": False,
            "first_name": "Тест",
            "language_code": "ru",
        }
        chat: dict[str, Any] = {"id": chat_id, "type": chat_type}
        chat.update({"first_name": "Тест"} if chat_type == "private" else {"title": "Группа"})
        message: dict[str, Any] = {
            "message_id": next(self._ids), "date": int(time.time()), "chat": chat, "from": user,
        }  # fmt: skip
        if text is not None:
            message["text"] = text
        message.update(content)
        if reply_to is not None:
            message["reply_to_message"] = self.stored(chat_id, reply_to).as_message(self._me())
        return message

    def push_message(self, chat_id: int, text: str | None = None, **kwargs: Any) -> int:
        return self.push_update({"message": self.message(chat_id, text, **kwargs)})

    def push_callback(self, chat_id: int, message_id: int, data: str, *, user_id: int = 0) -> str:
        """Press an inline button under a stored bot message; returns the callback query id."""
        query_id = f"cbq-{next(self._ids)}"
        with self._lock:
            self._callbacks.add(query_id)
        user = {"id": user_id or chat_id, "is_bot": False, "first_name": "Тест"}
        message = self.stored(chat_id, message_id).as_message(self._me())
        self.push_update(
            {"callback_query": {"id": query_id, "from": user, "message": message,
                                "chat_instance": str(chat_id), "data": data}}
        )  # fmt: skip
        return query_id

    def fail_next(
        self, method: str, code: int = 429, description: str = "", *, retry_after: int | None = None
    ) -> None:
        """The next call of `method` gets this error instead of being executed."""
        if code == 429:
            retry_after = 1 if retry_after is None else retry_after
            description = description or f"Too Many Requests: retry after {retry_after}"
        with self._lock:
            self._failures.setdefault(method.lower(), []).append(
                ApiError(code, description or "Internal Server Error", retry_after)
            )

    @property
    def calls(self) -> list[Call]:
        with self._lock:
            return list(self._calls)

    def calls_of(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method.lower() == method.lower()]

    def sent(self, chat_id: int | None = None) -> list[Stored]:
        """Messages the bot has sent, oldest first."""
        with self._lock:
            stored = sorted(self._messages.values(), key=lambda m: m.message_id)
        return [m for m in stored if chat_id is None or m.chat_id == chat_id]

    def stored(self, chat_id: int, message_id: int) -> Stored:
        with self._lock:
            return self._messages[(chat_id, message_id)]

    def wait_for(self, predicate: Callable[[BotAPIServer], Any], timeout: float = 15.0) -> Any:
        """Block until predicate(server) is truthy (re-checked on every call); return its value."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                self._lock.release()
                try:
                    value = predicate(self)
                finally:
                    self._lock.acquire()
                if value:
                    return value
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"condition not met in {timeout} s; calls: {self._names()}")
                self._lock.wait(remaining)

    async def until(self, predicate: Callable[[BotAPIServer], Any], timeout: float = 15.0) -> Any:
        """`wait_for` for async tests (waits in a thread, the event loop keeps running)."""
        return await asyncio.to_thread(self.wait_for, predicate, timeout)

    def _names(self) -> list[str]:
        return [f"{c.method}:{c.status}" for c in self._calls]

    # HTTP ----------------------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params = await _params(request)
        try:
            if request.match_info["token"] != self.token:
                raise ApiError(401, "Unauthorized")
            with self._lock:
                failures = self._failures.get(method.lower())
                failure = failures.pop(0) if failures else None
            if failure is not None:
                raise failure
            handler = getattr(self, f"_m_{method.lower()}", None)
            if handler is None:
                raise ApiError(404, "Not Found")
            body: dict[str, Any] = {"ok": True, "result": await handler(params)}
            status = 200
        except ApiError as e:
            body, status = e.body(), e.code
        self._record(Call(method, params, status, body))
        return web.json_response(body, status=status)

    def _record(self, call: Call) -> None:
        with self._lock:
            self._calls.append(call)
            self._lock.notify_all()

    def _me(self) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": "FullGPU",
            "username": self.username,
        }

    async def _m_getme(self, params: dict[str, Any]) -> Any:
        return self._me()

    async def _m_getupdates(self, params: dict[str, Any]) -> Any:
        if self.webhook:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        offset = int(params.get("offset") or 0)
        deadline = time.monotonic() + min(float(params.get("timeout") or 0), 5.0)
        assert self._new_update is not None
        with self._lock:
            self.polls_started += 1
            self._lock.notify_all()
        while True:
            with self._lock:
                if offset:
                    self._updates = [u for u in self._updates if u["update_id"] >= offset]
                ready = self._allowed(params, self._updates)[: int(params.get("limit") or 100)]
                self._new_update.clear()
            remaining = deadline - time.monotonic()
            if ready or remaining <= 0 or self._closing:
                return ready
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new_update.wait(), remaining)

    @staticmethod
    def _allowed(params: dict[str, Any], updates: list[dict[str, Any]]) -> list[dict[str, Any]]:
        allowed = params.get("allowed_updates")
        if not allowed:
            return list(updates)
        return [u for u in updates if any(kind in u for kind in allowed)]

    def _chat(self, params: dict[str, Any]) -> int:
        chat_id = params.get("chat_id")
        if not isinstance(chat_id, int) or chat_id == 0:
            raise ApiError(400, "Bad Request: chat not found")
        return chat_id

    async def _m_sendmessage(self, params: dict[str, Any]) -> Any:
        chat_id = self._chat(params)
        raw = str(params.get("text") or "")
        text = parse_html(raw) if str(params.get("parse_mode", "")).lower() == "html" else raw
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        if utf16_len(text) > MAX_TEXT:
            raise ApiError(400, "Bad Request: message is too long")
        markup = params.get("reply_markup")
        stored = Stored(next(self._ids), chat_id, raw, text, markup)
        with self._lock:
            self._messages[(chat_id, stored.message_id)] = stored
        return stored.as_message(self._me())

    async def _m_sendchataction(self, params: dict[str, Any]) -> Any:
        self._chat(params)
        if params.get("action") not in CHAT_ACTIONS:
            raise ApiError(400, "Bad Request: wrong parameter action in request")
        return True

    async def _m_answercallbackquery(self, params: dict[str, Any]) -> Any:
        with self._lock:
            if params.get("callback_query_id") not in self._callbacks:
                raise ApiError(
                    400,
                    "Bad Request: query is too old and response timeout expired "
                    "or query ID is invalid",
                )
            self._callbacks.discard(str(params["callback_query_id"]))
        return True

    async def _m_editmessagereplymarkup(self, params: dict[str, Any]) -> Any:
        key = (self._chat(params), int(params.get("message_id") or 0))
        with self._lock:
            stored = self._messages.get(key)
            if stored is None:
                raise ApiError(400, "Bad Request: message to edit not found")
            markup = params.get("reply_markup") or None
            if markup == stored.reply_markup:
                raise ApiError(
                    400,
                    "Bad Request: message is not modified: specified new message content and "
                    "reply markup are exactly the same as a current content and reply markup "
                    "of the message",
                )
            stored.reply_markup = markup
        return stored.as_message(self._me())

    async def _m_setwebhook(self, params: dict[str, Any]) -> Any:
        url = str(params.get("url") or "")
        if not url:
            self.webhook = {}
            return True
        if not url.startswith("https://"):
            raise ApiError(
                400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook"
            )
        secret = params.get("secret_token")
        if secret is not None and not _SECRET_OK.match(str(secret)):
            raise ApiError(400, "Bad Request: secret token contains unallowed characters")
        self.webhook = {"url": url, "secret_token": secret}
        return True

    async def _m_deletewebhook(self, params: dict[str, Any]) -> Any:
        self.webhook = {}
        return True


async def _params(request: web.Request) -> dict[str, Any]:
    """Query string + form or JSON body → typed parameters (as Telegram coerces them)."""
    raw: dict[str, Any] = dict(request.query)
    if request.content_type == "application/json":
        raw.update(await request.json())
    elif request.can_read_body:
        raw.update({k: v for k, v in (await request.post()).items() if isinstance(v, str)})
    return {key: _coerce(key, value) for key, value in raw.items()}


def _coerce(key: str, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    if key in JSON_FIELDS:
        return json.loads(value)
    if key in INT_FIELDS:
        try:
            return int(value)
        except ValueError:
            return value
    return value
