"""A real in-process OpenAI-compatible HTTP server on 127.0.0.1 for tests (a fake vLLM).

Usage::

    from tests.openai_server import Reply, openai_server

    with openai_server(reply=lambda req: "Привет") as srv:
        settings = Settings(llm_base_url=srv.base_url, llm_model=srv.model)
        ...
        assert srv.requests[-1].body["messages"][0]["role"] == "system"

Replies are taken from the queue first (`openai_server(replies=[...])` or `srv.push(...)`),
then from the `reply` callable (called with the request JSON), else a default is made up:
a tool call when tool_choice is "required"/named (arguments sampled from the function's JSON
schema), a JSON instance of the schema for `response_format` json_schema, else "ok".
A reply is a str (the text) or a `Reply` (text, tool calls, status, raw body, delays, drops).

Endpoints: POST /v1/chat/completions (JSON or SSE with `stream: true`, ending `data: [DONE]`),
GET /v1/models, GET /health. Every request is recorded in `srv.requests`.
`unused_base_url()` gives a URL where nothing listens (connection refused).
"""

from __future__ import annotations

import json
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """What the server answers to one chat completion request."""

    text: str | None = "ok"
    # [{"name": "...", "arguments": {...} or a raw string}] → message.tool_calls
    tool_calls: list[dict[str, Any]] | None = None
    status: int = 200
    body: Any = None  # raw body instead of a completion: dict → JSON, str/bytes as is
    delay_s: float = 0.0  # before the response headers (time to first byte)
    # slow drip: the pause between SSE chunks (one token each), or, without `stream`, between
    # `drip_bytes` pieces of the JSON body (sent with chunked encoding) — a server that keeps
    # every single read short while the whole answer takes far longer
    chunk_delay_s: float = 0.0
    drip_bytes: int = 32
    drop_after: int | None = None  # close the socket after N SSE chunks (0 = before headers)
    finish_reason: str | None = None  # default: "tool_calls" with tool calls, else "stop"


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # lower-case names
    body: Any  # decoded JSON, or None


ReplyFn = Callable[[dict[str, Any]], "Reply | str"]


@dataclass
class OpenAIServer:
    """Handle of a running server: `base_url` ends with /v1, like ASSISTANT_LLM_BASE_URL."""

    host: str
    port: int
    model: str
    reply: ReplyFn | None = None
    api_key: str | None = None  # when set, requests without this Bearer token get 401
    requests: list[RecordedRequest] = field(default_factory=list)
    queue: deque[Reply | str] = field(default_factory=deque)
    stopping: threading.Event = field(default_factory=threading.Event)

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def push(self, *replies: Reply | str) -> None:
        self.queue.extend(replies)

    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def next_reply(self, request: dict[str, Any]) -> Reply:
        if self.queue:
            chosen: Reply | str = self.queue.popleft()
        elif self.reply is not None:
            chosen = self.reply(request)
        else:
            chosen = default_reply(request)
        return Reply(text=chosen) if isinstance(chosen, str) else chosen


def default_reply(request: dict[str, Any]) -> Reply:
    """What a well-behaved model would answer: honour forced tool choice and json_schema."""
    tools = request.get("tools") or []
    choice = request.get("tool_choice")
    if tools and (choice == "required" or isinstance(choice, dict)):
        name = choice["function"]["name"] if isinstance(choice, dict) else None
        tool = next((t for t in tools if name in (None, t["function"]["name"])), tools[0])
        schema = tool["function"].get("parameters") or {"type": "object"}
        return Reply(
            text=None,
            tool_calls=[
                {"name": tool["function"]["name"], "arguments": sample_from_schema(schema)}
            ],
        )
    fmt = request.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return Reply(
            text=json.dumps(sample_from_schema(fmt["json_schema"]["schema"]), ensure_ascii=False)
        )
    if fmt.get("type") == "json_object":
        return Reply(text="{}")
    return Reply()


def sample_from_schema(schema: dict[str, Any]) -> Any:
    """A small valid instance of a (simple) JSON schema."""
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type", "object")
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object":
        props = schema.get("properties", {})
        return {k: sample_from_schema(v) for k, v in props.items()}
    if kind == "array":
        return (
            [sample_from_schema(schema["items"])] * schema.get("minItems", 0)
            if "items" in schema
            else []
        )
    simple = {"string": "x", "integer": 1, "number": 1.0, "boolean": True, "null": None}
    return simple.get(kind)


def _message(reply: Reply) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text}
    if reply.tool_calls:
        message["tool_calls"] = [_tool_call(i, c) for i, c in enumerate(reply.tool_calls)]
    return message


def _tool_call(index: int, call: dict[str, Any]) -> dict[str, Any]:
    args = call.get("arguments", {})
    raw = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
    return {
        "id": f"call_{index}_{uuid.uuid4().hex[:8]}",
        "type": "function",
        "index": index,
        "function": {"name": call["name"], "arguments": raw},
    }


def _finish(reply: Reply) -> str:
    return reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")


def _usage(request: dict[str, Any], reply: Reply) -> dict[str, int]:
    prompt = sum(len(str(m.get("content") or "").split()) for m in request.get("messages", []))
    completion = len((reply.text or "").split()) + len(reply.tool_calls or [])
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def _pieces(text: str) -> list[str]:
    """Split text into word-sized deltas that join back to exactly the text."""
    out: list[str] = []
    for i, word in enumerate(text.split(" ")):
        out.append(word if i == 0 else " " + word)
    return [p for p in out if p]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    # -- routing ------------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._record(None)
        if self.path.rstrip("/") == "/v1/models":
            owner = self.server.state
            data = [{"id": owner.model, "object": "model", "owned_by": "tests", "created": 0}]
            self._json(200, {"object": "list", "data": data})
        elif self.path == "/health":
            self._json(200, {})
        else:
            self._json(404, {"error": {"message": "not found", "type": "NotFoundError"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        self._record(body)
        state = self.server.state
        if state.api_key and self.headers.get("Authorization") != f"Bearer {state.api_key}":
            return self._json(401, {"error": {"message": "bad api key", "type": "Unauthorized"}})
        if self.path.rstrip("/") != "/v1/chat/completions":
            return self._json(404, {"error": {"message": "not found"}})
        if not isinstance(body, dict) or "messages" not in body:
            return self._json(
                400, {"error": {"message": "messages required", "type": "BadRequestError"}}
            )
        self._complete(body, state.next_reply(body))

    # -- answers ------------------------------------------------------------------------------

    def _record(self, body: Any) -> None:
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.server.state.requests.append(RecordedRequest(self.command, self.path, headers, body))

    def _sleep(self, seconds: float) -> bool:
        """Sleep unless the server is stopping; False means stop now."""
        return seconds <= 0 or not self.server.state.stopping.wait(seconds)

    def _drop(self) -> None:
        self.close_connection = True
        with suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    def _json(self, status: int, payload: Any) -> None:
        data = (
            payload
            if isinstance(payload, bytes)
            else (
                payload.encode()
                if isinstance(payload, str)
                else json.dumps(payload, ensure_ascii=False).encode()
            )
        )
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _complete(self, request: dict[str, Any], reply: Reply) -> None:
        if not self._sleep(reply.delay_s):
            return self._drop()
        if reply.drop_after == 0:
            return self._drop()
        if reply.body is not None or reply.status != 200:
            return self._json(
                reply.status,
                reply.body
                if reply.body is not None
                else {"error": {"message": "scripted error", "code": reply.status}},
            )
        if request.get("stream"):
            return self._stream(request, reply)
        completion = {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.get("model", ""),
            "choices": [
                {
                    "index": 0,
                    "message": _message(reply),
                    "finish_reason": _finish(reply),
                    "logprobs": None,
                }
            ],
            "usage": _usage(request, reply),
        }
        if reply.chunk_delay_s > 0:
            return self._drip(json.dumps(completion, ensure_ascii=False).encode(), reply)
        self._json(200, completion)

    def _drip(self, data: bytes, reply: Reply) -> None:
        """Send a JSON body in small chunked pieces with a pause before each but the first."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        size = max(1, reply.drip_bytes)
        for n, start in enumerate(range(0, len(data), size)):
            if n and not self._sleep(reply.chunk_delay_s):
                return self._drop()
            try:
                self._write_chunk(data[start : start + size])
            except OSError:  # the client gave up (its deadline): stop dripping
                return self._drop()
        self._write_chunk(b"")

    def _stream(self, request: dict[str, Any], reply: Reply) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for n, event in enumerate(self._events(request, reply)):
            if reply.drop_after is not None and n >= reply.drop_after:
                return self._drop()
            if n and not self._sleep(reply.chunk_delay_s):
                return self._drop()
            try:
                self._write_chunk(f"data: {event}\n\n".encode())
            except OSError:  # the client gave up (its deadline): stop dripping
                return self._drop()
        self._write_chunk(b"")

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _events(self, request: dict[str, Any], reply: Reply) -> Iterable[str]:
        base = {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": request.get("model", ""),
        }

        def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
            return json.dumps(
                {
                    **base,
                    "choices": [
                        {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
                    ],
                },
                ensure_ascii=False,
            )

        yield chunk({"role": "assistant", "content": ""})
        for piece in _pieces(reply.text or ""):
            yield chunk({"content": piece})
        if reply.tool_calls:
            yield chunk({"tool_calls": [_tool_call(i, c) for i, c in enumerate(reply.tool_calls)]})
        yield chunk({}, _finish(reply))
        if (request.get("stream_options") or {}).get("include_usage"):
            yield json.dumps({**base, "choices": [], "usage": _usage(request, reply)})
        yield "[DONE]"


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    state: OpenAIServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client hanging up (its deadline, a closed stream) is normal here, not an error."""
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextmanager
def openai_server(
    reply: ReplyFn | None = None,
    *,
    replies: Iterable[Reply | str] = (),
    model: str = "test-model",
    api_key: str | None = None,
) -> Iterator[OpenAIServer]:
    """Start a server on a free 127.0.0.1 port for the `with` block; stop it afterwards."""
    httpd = _Server(("127.0.0.1", 0), _Handler)
    state = OpenAIServer("127.0.0.1", httpd.server_address[1], model, reply, api_key)
    state.push(*replies)
    httpd.state = state
    thread = threading.Thread(
        target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield state
    finally:
        state.stopping.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def unused_base_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens: connecting is refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
