"""messages → LLM text/tool calls over the OpenAI-compatible API.

Every call has one deadline for the whole answer (`timeout_s`, default llm_timeout_s) and goes
through a circuit breaker (assistant/llm/resilience.py): a server dripping one token every few
seconds cannot hold an answer longer than the budget, and a failing one is skipped.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import httpx
from pydantic import JsonValue, ValidationError

from assistant.errors import GenerationError, LLMUnavailableError
from assistant.llm.resilience import Breaker, Deadline
from assistant.llm.wire import (
    CalledTool,
    ChatMessage,
    ChatRequest,
    Completion,
    FunctionTool,
    JsonObject,
    ModelList,
    ResponseFormat,
    ToolChoice,
)
from assistant.settings import Settings

log = logging.getLogger(__name__)

_BACKOFF_S = 0.2  # first retry delay; doubles each attempt (connection errors only)
_HEALTH_TIMEOUT_S = 2.0
_BODY_SNIPPET = 300  # characters of an error body kept in exception messages


@dataclass(frozen=True)
class LLMToolCall:
    id: str
    name: str
    arguments: JsonObject


@dataclass(frozen=True)
class LLMResponse:
    text: str
    tool_calls: list[LLMToolCall]
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int


class ChatClient:
    """Thread-safe client of one OpenAI-compatible endpoint (vLLM) with retries and a breaker.

    Failures: LLMUnavailableError = unreachable, timed out, stream broken or breaker open;
    GenerationError = bad HTTP status, malformed JSON, invalid tool-call arguments.
    Breaker failures: LLMUnavailableError, 5xx and malformed bodies; a 4xx or a bad tool call
    from a healthy server does not trip it.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        transport: httpx.BaseTransport | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._settings = settings
        self._base = settings.llm_base_url.rstrip("/")
        self._model = settings.llm_model
        self._model_lock = threading.Lock()
        self._breaker = Breaker(settings.llm_breaker_failures, settings.llm_breaker_reset_s, clock)
        self._secret = settings.llm_api_key.get_secret_value()
        headers = {"Accept": "application/json"}
        if self._secret:
            headers["Authorization"] = f"Bearer {self._secret}"
        self._http = httpx.Client(transport=transport, headers=headers, timeout=self._timeout(None))
        self._sleep: Callable[[float], None] = time.sleep  # tests may replace

    @property
    def available(self) -> bool:
        return bool(self._base) and self._breaker.would_allow

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def complete(
        self,
        messages: list[ChatMessage],
        *,
        tools: list[FunctionTool] | None = None,
        tool_choice: str | ToolChoice | None = None,
        response_format: ResponseFormat | None = None,
        max_tokens: int = 400,
        temperature: float = 0.2,
        timeout_s: float | None = None,
    ) -> LLMResponse:
        """One chat completion; the whole call is bounded by timeout_s (default llm_timeout_s)."""
        self._check_configured()
        self._breaker.acquire()
        deadline = Deadline(self._timeout_value(timeout_s))
        try:
            payload = self._payload(messages, max_tokens, temperature, stream=False)
            if tools is not None:
                payload["tools"] = tools
            if tool_choice is not None:
                payload["tool_choice"] = tool_choice
            if response_format is not None:
                payload["response_format"] = response_format
            body = self._post_json("/chat/completions", payload, deadline)
        except LLMUnavailableError:
            self._breaker.failure()
            raise
        except Exception:
            self._breaker.release()  # a bug, not an outage: free a half-open trial
            raise
        return _parse_completion(body)

    def stream(
        self,
        messages: list[ChatMessage],
        *,
        max_tokens: int = 400,
        temperature: float = 0.2,
        timeout_s: float | None = None,
    ) -> Iterator[str]:
        """Yield text deltas as they arrive (SSE). timeout_s (default llm_timeout_s) bounds the
        whole stream, first byte to [DONE]: past it LLMTimeoutError, a breaker failure.

        A generator: errors (breaker open included) surface on the first next().
        """
        self._check_configured()
        self._breaker.acquire()
        deadline = Deadline(self._timeout_value(timeout_s))
        settled = False
        try:
            payload = self._payload(messages, max_tokens, temperature, stream=True)
            response = self._send("POST", "/chat/completions", payload, deadline)
            try:
                with deadline.watching(response):
                    self._raise_for_status(response)
                    yield from _sse_deltas(response, deadline)
            finally:
                response.close()
        except LLMUnavailableError:
            settled = True
            self._breaker.failure()
            raise
        except GenerationError:
            settled = True  # accounting already done in _raise_for_status
            raise
        except Exception:
            settled = True
            self._breaker.release()
            raise
        finally:
            if not settled:
                self._breaker.success()  # finished, or the consumer stopped early

    def health(self) -> bool:
        """GET /models with a short timeout; True if the server answers with a model list."""
        if not self._base:
            return False
        try:
            timeout = httpx.Timeout(_HEALTH_TIMEOUT_S, connect=min(1.0, _HEALTH_TIMEOUT_S))
            response = self._http.get(self._url("/models"), timeout=timeout)
            return response.status_code == 200 and isinstance(response.json().get("data"), list)
        except Exception:  # health never raises
            return False

    def _check_configured(self) -> None:
        if not self._base:
            raise LLMUnavailableError("LLM is not configured (llm_base_url is empty)")

    def _url(self, path: str) -> str:
        return f"{self._base}{path}"

    def _timeout_value(self, timeout_s: float | None) -> float:
        return self._settings.llm_timeout_s if timeout_s is None else timeout_s

    def _timeout(self, seconds: float | None) -> httpx.Timeout:
        seconds = self._settings.llm_timeout_s if seconds is None else max(seconds, 0.001)
        return httpx.Timeout(seconds, connect=min(self._settings.llm_connect_timeout_s, seconds))

    def _payload(
        self, messages: list[ChatMessage], max_tokens: int, temperature: float, *, stream: bool
    ) -> ChatRequest:
        return {
            "model": self._model_name(),
            "messages": messages,
            "max_tokens": max_tokens,
            "temperature": temperature,
            "stream": stream,
        }

    def _model_name(self) -> str:
        """llm_model, or the first model the server lists (asked once, then cached)."""
        with self._model_lock:
            if not self._model:
                body = self._post_json("/models", None, Deadline(self._settings.llm_timeout_s))
                try:
                    self._model = ModelList.model_validate(body).data[0].id
                except (ValidationError, IndexError) as e:
                    raise GenerationError("LLM /models lists no model") from e
                log.info("LLM model discovered: %s", self._model)
            return self._model

    def _send(
        self, method: str, path: str, payload: ChatRequest | None, deadline: Deadline
    ) -> httpx.Response:
        """Send with retries on connection errors only; returns an unread (streaming) response.

        Each attempt's HTTP timeouts are what is left of the deadline."""
        url = self._url(path)
        attempts = max(0, self._settings.llm_max_retries) + 1
        for attempt in range(attempts):
            deadline.check(url)
            timeout = self._timeout(deadline.remaining())
            request = self._http.build_request(method, url, json=payload, timeout=timeout)
            try:
                return self._http.send(request, stream=True)
            except (httpx.ConnectError, httpx.ConnectTimeout) as e:
                if attempt + 1 >= attempts:
                    msg = f"LLM unreachable at {url} after {attempts} attempts"
                    raise LLMUnavailableError(f"{msg}: {type(e).__name__}") from e
                delay = min(_BACKOFF_S * 2**attempt, max(deadline.remaining(), 0.0))
                log.info("LLM connect failed (%s), retry in %.2f s", type(e).__name__, delay)
                self._sleep(delay)
            except httpx.TimeoutException as e:  # no first byte before the deadline
                raise deadline.error(url) from e
            except httpx.HTTPError as e:
                raise LLMUnavailableError(f"LLM transport error: {type(e).__name__}") from e
        raise AssertionError("unreachable")  # pragma: no cover

    def _post_json(self, path: str, payload: ChatRequest | None, deadline: Deadline) -> JsonObject:
        """GET (payload None) or POST; returns the decoded JSON object of a 2xx answer."""
        method = "GET" if payload is None else "POST"
        response = self._send(method, path, payload, deadline)
        try:
            with deadline.watching(response):
                raw = _read_body(response, deadline)
        finally:
            response.close()
        self._raise_for_status(response, raw)
        try:
            body: JsonValue = json.loads(raw)
            if not isinstance(body, dict):
                raise ValueError("not a JSON object")
        except ValueError as e:
            self._breaker.failure()
            raise GenerationError(f"LLM returned malformed JSON: {raw[:80]!r}") from e
        self._breaker.success()
        return body

    def _raise_for_status(self, response: httpx.Response, body: bytes | None = None) -> None:
        """Bad status → GenerationError; a 5xx counts as a breaker failure, a 4xx does not."""
        if response.status_code < 400:
            return
        if body is None:
            try:
                body = response.read()
            except httpx.HTTPError:
                body = b""
        text = self._redact(body[:_BODY_SNIPPET].decode("utf-8", "replace"))
        if response.status_code >= 500:
            self._breaker.failure()
        else:
            self._breaker.success()  # the server is alive; the request was wrong
        message = f"LLM answered HTTP {response.status_code} at {response.url}: {text}"
        log.warning("%s", message)
        raise GenerationError(message)

    def _redact(self, text: str) -> str:
        return text.replace(self._secret, "***") if self._secret else text


def _read_body(response: httpx.Response, deadline: Deadline) -> bytes:
    """Read a streaming body within the deadline (checked between chunks, enforced by the
    watchdog while a read blocks)."""
    chunks: list[bytes] = []
    try:
        for chunk in response.iter_bytes():
            chunks.append(chunk)
            deadline.check(response.url)
    except httpx.HTTPError as e:
        if deadline.passed or isinstance(e, httpx.TimeoutException):
            raise deadline.error(response.url) from e
        raise LLMUnavailableError(f"LLM connection broke: {type(e).__name__}") from e
    return b"".join(chunks)


def _sse_deltas(response: httpx.Response, deadline: Deadline) -> Iterator[str]:
    """Parse `data:` lines of an OpenAI SSE stream; a stream without [DONE] is broken."""
    url = response.url
    try:
        for line in response.iter_lines():
            deadline.check(url)
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                return
            delta = _chunk_delta(data)
            if delta:
                yield delta
    except httpx.HTTPError as e:
        if deadline.passed or isinstance(e, httpx.TimeoutException):
            raise deadline.error(url) from e
        raise LLMUnavailableError(f"LLM stream broke: {type(e).__name__}") from e
    if deadline.passed:  # the watchdog cut the socket: what looks like the end is the cut
        raise deadline.error(url)
    raise LLMUnavailableError(f"LLM stream ended without [DONE] at {url}")


def _chunk_delta(data: str) -> str:
    try:
        chunk = json.loads(data)
    except ValueError as e:
        raise LLMUnavailableError(f"LLM stream sent malformed JSON: {data[:80]!r}") from e
    if not isinstance(chunk, dict):
        raise LLMUnavailableError("LLM stream chunk is not an object")
    if "error" in chunk:
        raise LLMUnavailableError(f"LLM stream error: {str(chunk['error'])[:_BODY_SNIPPET]}")
    choices = chunk.get("choices") or []
    if not choices:
        return ""  # e.g. the usage-only chunk
    content = (choices[0].get("delta") or {}).get("content")
    return content if isinstance(content, str) else ""


def _parse_completion(body: JsonObject) -> LLMResponse:
    try:
        completion = Completion.model_validate(body)
    except ValidationError as e:
        raise GenerationError(f"LLM completion has an unexpected shape: {e!r}") from e
    choice = completion.choices[0]
    message = choice.message
    usage = completion.usage
    return LLMResponse(
        text=message.content or "",
        tool_calls=[_parse_tool_call(c) for c in message.tool_calls or []],
        finish_reason=choice.finish_reason or "",
        prompt_tokens=(usage and usage.prompt_tokens) or 0,
        completion_tokens=(usage and usage.completion_tokens) or 0,
    )


def _parse_tool_call(call: CalledTool) -> LLMToolCall:
    function = call.function
    raw = function.arguments
    arguments: JsonValue
    if isinstance(raw, dict):
        arguments = raw
    else:
        try:
            arguments = json.loads(raw or "{}")
        except (TypeError, ValueError) as e:
            raise GenerationError(f"tool call arguments are not JSON: {str(raw)[:80]!r}") from e
    if not isinstance(arguments, dict):
        raise GenerationError(f"tool call arguments are not an object: {str(raw)[:80]!r}")
    return LLMToolCall(id=call.id or "", name=function.name, arguments=arguments)
