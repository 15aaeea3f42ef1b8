"""ChatClient against a real in-process OpenAI-compatible HTTP server (tests/openai_server.py)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from assistant.errors import (
    GenerationError,
    LLMCircuitOpenError,
    LLMTimeoutError,
    LLMUnavailableError,
)
from assistant.llm.client import ChatClient, LLMResponse
from assistant.llm.wire import ChatMessage, FunctionTool, JsonObject, ResponseFormat, ToolChoice
from assistant.settings import Settings
from tests.openai_server import OpenAIServer, Reply, openai_server, unused_base_url

SECRET = "sk-test-SECRET-4242"
MESSAGES: list[ChatMessage] = [
    {"role": "system", "content": "Ты помощник по глоссарию GPU."},
    {"role": "user", "content": "Что такое HBM?"},
]
CALC_TOOL: FunctionTool = {
    "type": "function",
    "function": {
        "name": "gpu_memory",
        "description": "Память для инференса модели",
        "parameters": {
            "type": "object",
            "properties": {
                "params_b": {"type": "number", "description": "параметров, млрд"},
                "precision": {"type": "string", "enum": ["fp16", "int8", "int4"]},
            },
            "required": ["params_b", "precision"],
        },
    },
}


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class CountingTransport(httpx.HTTPTransport):
    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.calls += 1
        return super().handle_request(request)


def make_client(base_url: str, **overrides: Any) -> ChatClient:
    fields: dict[str, Any] = {
        "llm_base_url": base_url,
        "llm_model": "test-model",
        "llm_timeout_s": 5.0,
        "llm_connect_timeout_s": 1.0,
        "llm_max_retries": 2,
        "llm_breaker_failures": 3,
        "llm_breaker_reset_s": 30.0,
    }
    fields.update(overrides)
    transport = fields.pop("transport", None)
    clock = fields.pop("clock", time.monotonic)
    client = ChatClient(Settings(**fields), transport=transport, clock=clock)
    client._sleep = lambda s: None  # no real backoff in tests
    return client


@pytest.fixture
def srv() -> Iterator[OpenAIServer]:
    with openai_server() as server:
        yield server


def test_complete_returns_text_usage_and_sends_openai_payload(srv: OpenAIServer) -> None:
    srv.push("HBM — память с высокой пропускной способностью.")
    resp = make_client(srv.base_url).complete(MESSAGES, max_tokens=50, temperature=0.0)
    assert isinstance(resp, LLMResponse)
    assert resp.text == "HBM — память с высокой пропускной способностью."
    assert resp.finish_reason == "stop" and resp.tool_calls == []
    assert resp.prompt_tokens > 0 and resp.completion_tokens > 0
    sent = srv.chat_requests()[-1].body
    assert sent["model"] == "test-model" and sent["messages"] == MESSAGES
    assert sent["max_tokens"] == 50 and sent["temperature"] == 0.0 and sent["stream"] is False
    assert "tools" not in sent and "response_format" not in sent


def test_stream_yields_deltas_that_join_to_the_answer(srv: OpenAIServer) -> None:
    text = "Тензорные ядра ускоряют умножение матриц."
    srv.push(Reply(text=text, chunk_delay_s=0.01))
    deltas = list(make_client(srv.base_url).stream(MESSAGES))
    assert len(deltas) > 3
    assert "".join(deltas) == text
    assert srv.chat_requests()[-1].body["stream"] is True


def test_named_tool_choice_is_forwarded_and_tool_call_parsed(srv: OpenAIServer) -> None:
    choice: ToolChoice = {"type": "function", "function": {"name": "gpu_memory"}}
    srv.push(
        Reply(
            text=None,
            tool_calls=[{"name": "gpu_memory", "arguments": {"params_b": 7, "precision": "fp16"}}],
        )
    )
    resp = make_client(srv.base_url).complete(MESSAGES, tools=[CALC_TOOL], tool_choice=choice)
    assert resp.text == "" and resp.finish_reason == "tool_calls"
    [call] = resp.tool_calls
    assert call.name == "gpu_memory" and call.id.startswith("call_")
    assert call.arguments == {"params_b": 7, "precision": "fp16"}
    sent = srv.chat_requests()[-1].body
    assert sent["tools"] == [CALC_TOOL] and sent["tool_choice"] == choice


def test_required_tool_choice_default_server_reply(srv: OpenAIServer) -> None:
    resp = make_client(srv.base_url).complete(MESSAGES, tools=[CALC_TOOL], tool_choice="required")
    [call] = resp.tool_calls
    assert call.name == "gpu_memory"
    assert set(call.arguments) == {"params_b", "precision"}
    assert srv.chat_requests()[-1].body["tool_choice"] == "required"


def test_invalid_tool_arguments_raise_generation_error_without_tripping_breaker(
    srv: OpenAIServer,
) -> None:
    srv.push(Reply(text=None, tool_calls=[{"name": "gpu_memory", "arguments": "{params_b: 7"}]))
    client = make_client(srv.base_url, llm_breaker_failures=1)
    with pytest.raises(GenerationError) as info:
        client.complete(MESSAGES, tools=[CALC_TOOL], tool_choice="required")
    assert not isinstance(info.value, LLMUnavailableError)
    assert isinstance(info.value.__cause__, ValueError)
    assert client.available


def test_json_schema_response_format_is_forwarded(srv: OpenAIServer) -> None:
    schema: JsonObject = {
        "type": "object",
        "properties": {
            "answer": {"type": "string"},
            "slugs": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["answer", "slugs"],
    }
    fmt: ResponseFormat = {
        "type": "json_schema",
        "json_schema": {"name": "answer", "schema": schema, "strict": True},
    }
    resp = make_client(srv.base_url).complete(MESSAGES, response_format=fmt)
    assert srv.chat_requests()[-1].body["response_format"] == fmt
    assert set(json.loads(resp.text)) == {"answer", "slugs"}


def test_http_500_is_generation_error_and_not_retried(srv: OpenAIServer) -> None:
    srv.push(Reply(status=500))
    with pytest.raises(GenerationError) as info:
        make_client(srv.base_url).complete(MESSAGES)
    assert not isinstance(info.value, LLMUnavailableError)
    assert "500" in str(info.value)
    assert len(srv.chat_requests()) == 1


def test_malformed_json_body_is_generation_error(srv: OpenAIServer) -> None:
    srv.push(Reply(body="<html>bad gateway</html>"))
    with pytest.raises(GenerationError) as info:
        make_client(srv.base_url).complete(MESSAGES)
    assert isinstance(info.value.__cause__, ValueError)


def test_connection_refused_is_retried_then_unavailable() -> None:
    transport = CountingTransport()
    client = make_client(unused_base_url(), transport=transport, llm_max_retries=2)
    delays: list[float] = []
    client._sleep = delays.append
    with pytest.raises(LLMUnavailableError) as info:
        client.complete(MESSAGES)
    assert transport.calls == 3
    assert delays == [0.2, 0.4]  # exponential backoff
    assert isinstance(info.value.__cause__, httpx.ConnectError)


def test_read_timeout_raises_at_once_without_retry(srv: OpenAIServer) -> None:
    srv.push(Reply(delay_s=3.0))
    client = make_client(srv.base_url)
    start = time.monotonic()
    with pytest.raises(LLMUnavailableError) as info:
        client.complete(MESSAGES, timeout_s=0.3)
    elapsed = time.monotonic() - start
    assert 0.25 < elapsed < 1.0
    assert isinstance(info.value.__cause__, httpx.TimeoutException)
    assert len(srv.chat_requests()) == 1


def test_stream_read_timeout_is_unavailable(srv: OpenAIServer) -> None:
    srv.push(Reply(text="a b c", delay_s=3.0))
    start = time.monotonic()
    with pytest.raises(LLMUnavailableError):
        list(make_client(srv.base_url).stream(MESSAGES, timeout_s=0.3))
    assert time.monotonic() - start < 1.0


def test_breaker_opens_fails_fast_then_half_opens(srv: OpenAIServer) -> None:
    clock = FakeClock()
    transport = CountingTransport()
    client = make_client(
        srv.base_url,
        clock=clock,
        transport=transport,
        llm_breaker_failures=3,
        llm_breaker_reset_s=30.0,
    )
    srv.push(Reply(status=503), Reply(status=503), Reply(status=503))
    for _ in range(3):
        with pytest.raises(GenerationError):
            client.complete(MESSAGES)
    assert not client.available
    calls = transport.calls
    for _ in range(20):
        start = time.perf_counter()
        with pytest.raises(LLMUnavailableError, match="breaker"):
            client.complete(MESSAGES)
        assert time.perf_counter() - start < 0.005
    with pytest.raises(LLMUnavailableError, match="breaker"):
        next(client.stream(MESSAGES))
    assert transport.calls == calls  # the network was not touched

    clock.now += 29.0
    assert not client.available
    clock.now += 1.5  # reset elapsed → half-open: one trial; it fails → open again
    assert client.available
    srv.push(Reply(status=503))
    with pytest.raises(GenerationError):
        client.complete(MESSAGES)
    assert not client.available
    with pytest.raises(LLMUnavailableError, match="breaker"):
        client.complete(MESSAGES)

    clock.now += 31.0  # next trial succeeds → closed
    assert client.complete(MESSAGES).text == "ok"
    assert client.available
    assert client.complete(MESSAGES).text == "ok"


def test_breaker_counts_connection_failures_and_4xx_does_not_trip(srv: OpenAIServer) -> None:
    client = make_client(unused_base_url(), llm_max_retries=0, llm_breaker_failures=2)
    for _ in range(2):
        with pytest.raises(LLMUnavailableError):
            client.complete(MESSAGES)
    assert not client.available

    client = make_client(srv.base_url, llm_breaker_failures=1)
    srv.push(Reply(status=400, body={"error": {"message": "max_tokens too large"}}))
    with pytest.raises(GenerationError, match="400"):
        client.complete(MESSAGES)
    assert client.available


def test_api_key_sent_as_bearer_and_never_leaked(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with openai_server(api_key=SECRET) as server:
        client = make_client(server.base_url, llm_api_key=SECRET, llm_max_retries=0)
        assert client.complete(MESSAGES).text == "ok"
        assert server.requests[-1].headers["authorization"] == f"Bearer {SECRET}"
        server.push(Reply(status=500, body={"error": {"message": f"echo {SECRET}"}}))
        with pytest.raises(GenerationError) as server_error:
            client.complete(MESSAGES)
        assert "echo ***" in str(server_error.value)
    refused = make_client(unused_base_url(), llm_api_key=SECRET, llm_max_retries=1)
    with pytest.raises(LLMUnavailableError) as refused_error:
        refused.complete(MESSAGES)
    for error in (server_error.value, refused_error.value):
        assert SECRET not in str(error) and SECRET not in repr(error)
        assert SECRET not in str(error.__cause__)
    assert SECRET not in caplog.text
    assert SECRET not in repr(Settings(llm_api_key=SECRET))  # type: ignore[arg-type]


def test_wrong_api_key_is_generation_error() -> None:
    with openai_server(api_key=SECRET) as server, pytest.raises(GenerationError, match="401"):
        make_client(server.base_url, llm_api_key="wrong").complete(MESSAGES)


def test_connection_dropped_mid_stream_is_unavailable_and_counts(srv: OpenAIServer) -> None:
    srv.push(Reply(text="один два три четыре пять шесть", drop_after=3))
    client = make_client(srv.base_url, llm_breaker_failures=1)
    received: list[str] = []
    with pytest.raises(LLMUnavailableError) as info:
        for delta in client.stream(MESSAGES):
            received.append(delta)
    assert received == ["один", " два"]  # the role chunk, then two deltas, then the drop
    assert isinstance(info.value.__cause__, httpx.HTTPError)
    assert not client.available


def test_stream_500_is_generation_error(srv: OpenAIServer) -> None:
    srv.push(Reply(status=500))
    with pytest.raises(GenerationError, match="500"):
        list(make_client(srv.base_url).stream(MESSAGES))


def test_stream_stopped_early_by_consumer_is_not_a_failure(srv: OpenAIServer) -> None:
    srv.push(Reply(text="a b c d e f"))
    client = make_client(srv.base_url, llm_breaker_failures=1)
    stream = client.stream(MESSAGES)
    assert next(stream) == "a"
    stream.close()  # type: ignore[attr-defined]
    assert client.available


def test_model_discovered_once_when_not_configured(srv: OpenAIServer) -> None:
    client = make_client(srv.base_url, llm_model="")
    client.complete(MESSAGES)
    list(client.stream(MESSAGES))
    assert [r.path for r in srv.requests].count("/v1/models") == 1
    assert all(r.body["model"] == "test-model" for r in srv.chat_requests())


def test_health(srv: OpenAIServer) -> None:
    assert make_client(srv.base_url).health() is True
    start = time.monotonic()
    assert make_client(unused_base_url()).health() is False
    assert make_client("").health() is False
    assert time.monotonic() - start < 1.0


def test_unconfigured_client_is_unavailable() -> None:
    client = make_client("")
    assert not client.available
    with pytest.raises(LLMUnavailableError):
        client.complete(MESSAGES)


def test_local_error_in_half_open_trial_does_not_wedge_the_breaker(srv: OpenAIServer) -> None:
    clock = FakeClock()
    client = make_client(srv.base_url, clock=clock, llm_breaker_failures=1)
    srv.push(Reply(status=500))
    with pytest.raises(GenerationError):
        client.complete(MESSAGES)
    clock.now += 31.0
    with pytest.raises(TypeError):  # not JSON-serializable: fails before the network
        client.complete([{"role": "user", "content": object()}])  # type: ignore[typeddict-item]
    assert client.available
    assert client.complete(MESSAGES).text == "ok"


# -- the whole-answer deadline (a server dripping tokens must not hold an answer) -------------


def test_stream_slow_drip_is_cut_at_the_whole_answer_deadline(srv: OpenAIServer) -> None:
    # every chunk arrives well within the 1 s budget, the whole answer would take ~5 s
    srv.push(Reply(text="один два три четыре пять шесть семь восемь", chunk_delay_s=0.5))
    client = make_client(srv.base_url, llm_breaker_failures=1)
    received: list[str] = []
    start = time.monotonic()
    with pytest.raises(LLMTimeoutError, match="deadline"):
        for delta in client.stream(MESSAGES, timeout_s=1.0):
            received.append(delta)
    assert time.monotonic() - start < 1.4
    assert 0 < len(received) < 8  # some tokens came, the draft was not finished
    assert not client.available  # a slow answer is a breaker failure


def test_complete_slow_drip_is_cut_at_the_deadline_not_after_the_next_chunk(
    srv: OpenAIServer,
) -> None:
    # the JSON body comes in pieces 0.9 s apart: checking between chunks alone overruns to 1.8 s
    srv.push(Reply(text="Тензорные ядра ускоряют умножение матриц.", chunk_delay_s=0.9))
    client = make_client(srv.base_url)
    start = time.monotonic()
    with pytest.raises(LLMTimeoutError):
        client.complete(MESSAGES, timeout_s=1.0)
    assert time.monotonic() - start < 1.4


def test_default_deadline_is_llm_timeout_s_for_streams(srv: OpenAIServer) -> None:
    srv.push(Reply(text="a b c d e f g h i j", chunk_delay_s=0.3))
    client = make_client(srv.base_url, llm_timeout_s=0.8)
    start = time.monotonic()
    with pytest.raises(LLMTimeoutError):
        list(client.stream(MESSAGES))
    assert time.monotonic() - start < 1.2


def test_slow_answers_open_the_breaker_and_later_calls_skip_the_network(
    srv: OpenAIServer,
) -> None:
    transport = CountingTransport()
    client = make_client(srv.base_url, transport=transport, llm_breaker_failures=2)
    srv.reply = lambda request: Reply(text="a b c d e f g h", chunk_delay_s=0.4)
    for _ in range(2):
        with pytest.raises(LLMTimeoutError):
            list(client.stream(MESSAGES, timeout_s=0.6))
    assert not client.available
    calls = transport.calls
    with pytest.raises(LLMCircuitOpenError):
        next(client.stream(MESSAGES))
    assert transport.calls == calls


def test_a_drip_that_finishes_in_time_is_a_success(srv: OpenAIServer) -> None:
    srv.push(Reply(text="a b c d", chunk_delay_s=0.05))
    client = make_client(srv.base_url, llm_breaker_failures=1)
    assert "".join(client.stream(MESSAGES, timeout_s=2.0)) == "a b c d"
    srv.push(Reply(text="a b c d", chunk_delay_s=0.02, drip_bytes=16))
    assert client.complete(MESSAGES, timeout_s=2.0).text == "a b c d"
    assert client.available


def test_deadline_without_a_socket_is_checked_between_chunks() -> None:
    """A transport with no socket to cut (a proxy, a test double) still cannot overrun by
    more than one chunk."""

    def dripping(request: httpx.Request) -> httpx.Response:
        def body() -> Iterator[bytes]:
            for word in ("a", "b", "c", "d", "e", "f"):
                time.sleep(0.2)
                chunk = {"choices": [{"index": 0, "delta": {"content": word}}]}
                yield f"data: {json.dumps(chunk)}\n\n".encode()
            yield b"data: [DONE]\n\n"

        return httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=body())

    client = make_client("http://llm.invalid/v1", transport=httpx.MockTransport(dripping))
    start = time.monotonic()
    with pytest.raises(LLMTimeoutError):
        list(client.stream(MESSAGES, timeout_s=0.5))
    assert time.monotonic() - start < 0.5 + 0.3
