"""ChatClient against a live vLLM (CPU, Gemma 3 270M base): the real protocol, end to end."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping

import pytest

from assistant.errors import GenerationError, LLMUnavailableError
from assistant.llm.client import ChatClient
from assistant.llm.wire import (
    ChatMessage,
    FunctionTool,
    JsonObject,
    ResponseFormat,
    ToolChoice,
)
from tests.vllm.conftest import VLLMServer

pytestmark = pytest.mark.vllm

SYSTEM = "Ты помощник по глоссарию GPU. Отвечай кратко по-русски."
QUESTION: list[ChatMessage] = [
    {"role": "system", "content": SYSTEM},
    {"role": "user", "content": "Что такое HBM?"},
]
CALC_TOOL: FunctionTool = {
    "type": "function",
    "function": {
        "name": "gpu_memory",
        "description": "Сколько памяти GPU нужно для инференса модели",
        "strict": True,  # vLLM pins the arguments to the schema only for strict tools
        "parameters": {
            "type": "object",
            "properties": {
                "params_b": {"type": "number", "description": "число параметров, млрд"},
                "precision": {"type": "string", "enum": ["fp16", "int8", "int4"]},
            },
            "required": ["params_b", "precision"],
        },
    },
}
TOOL_QUESTION: list[ChatMessage] = [
    {"role": "system", "content": SYSTEM},
    {"role": "user", "content": "Сколько памяти нужно модели на 7 млрд параметров в fp16?"},
]


def assert_valid_arguments(arguments: Mapping[str, object]) -> None:
    assert set(arguments) == {"params_b", "precision"}
    assert isinstance(arguments["params_b"], int | float)
    assert arguments["precision"] in {"fp16", "int8", "int4"}


def test_health_and_model_discovery(vllm_server: VLLMServer) -> None:
    client = ChatClient(vllm_server.settings(llm_model=""))
    assert client.health()
    resp = client.complete(QUESTION, max_tokens=8)
    assert resp.completion_tokens > 0 and resp.prompt_tokens > 10


def test_stream_yields_several_deltas(vllm_server: VLLMServer) -> None:
    client = ChatClient(vllm_server.settings())
    deltas = list(client.stream(QUESTION, max_tokens=24, temperature=0.0))
    assert len(deltas) >= 3
    assert "".join(deltas).strip()


def test_forced_tool_call_round_trip(vllm_server: VLLMServer) -> None:
    client = ChatClient(vllm_server.settings())
    choice: ToolChoice = {"type": "function", "function": {"name": "gpu_memory"}}
    resp = client.complete(
        TOOL_QUESTION, tools=[CALC_TOOL], tool_choice=choice, max_tokens=80, temperature=0.0
    )
    [call] = resp.tool_calls
    assert call.name == "gpu_memory" and call.id
    assert_valid_arguments(call.arguments)
    follow_up: list[ChatMessage] = [
        *TOOL_QUESTION,
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
                }
            ],
        },
        {"role": "tool", "tool_call_id": call.id, "content": json.dumps({"memory_gb": 14.0})},
    ]
    answer = client.complete(follow_up, tools=[CALC_TOOL], max_tokens=24, temperature=0.0)
    assert answer.finish_reason in {"stop", "length", "tool_calls"}
    assert answer.text or answer.tool_calls


def test_required_tool_choice_returns_a_tool_call(vllm_server: VLLMServer) -> None:
    client = ChatClient(vllm_server.settings())
    resp = client.complete(
        TOOL_QUESTION, tools=[CALC_TOOL], tool_choice="required", max_tokens=80, temperature=0.0
    )
    assert resp.tool_calls and resp.tool_calls[0].name == "gpu_memory"
    assert_valid_arguments(resp.tool_calls[0].arguments)


def test_json_schema_output_parses_and_validates(vllm_server: VLLMServer) -> None:
    schema: JsonObject = {
        "type": "object",
        "properties": {
            "term": {"type": "string", "maxLength": 20},
            "kind": {"type": "string", "enum": ["memory", "compute", "network"]},
            "confident": {"type": "boolean"},
        },
        "required": ["term", "kind", "confident"],
        "additionalProperties": False,
    }
    fmt: ResponseFormat = {
        "type": "json_schema",
        "json_schema": {"name": "term", "schema": schema, "strict": True},
    }
    client = ChatClient(vllm_server.settings())
    resp = client.complete(QUESTION, response_format=fmt, max_tokens=120, temperature=0.0)
    data = json.loads(resp.text)
    assert set(data) == {"term", "kind", "confident"}
    assert isinstance(data["term"], str) and len(data["term"]) <= 20
    assert data["kind"] in {"memory", "compute", "network"}
    assert isinstance(data["confident"], bool)


def test_tiny_timeout_is_unavailable_and_fast(vllm_server: VLLMServer) -> None:
    client = ChatClient(vllm_server.settings())
    start = time.monotonic()
    with pytest.raises(LLMUnavailableError):
        client.complete(QUESTION, max_tokens=300, timeout_s=0.05)
    assert time.monotonic() - start < 1.0


def test_wrong_api_key_is_generation_error(vllm_server: VLLMServer) -> None:
    if not vllm_server.api_key:
        pytest.skip("server runs without an API key")
    client = ChatClient(vllm_server.settings(llm_api_key="wrong-key"))
    with pytest.raises(GenerationError, match="401") as info:
        client.complete(QUESTION, max_tokens=4)
    assert vllm_server.api_key not in str(info.value)


@pytest.mark.vllm_destructive
def test_server_killed_mid_stream_is_unavailable_and_opens_breaker(vllm_server: VLLMServer) -> None:
    if vllm_server.proc is None:
        pytest.skip("external server: not ours to kill")
    client = ChatClient(vllm_server.settings(llm_breaker_failures=2, llm_max_retries=1))
    stream = client.stream(QUESTION, max_tokens=400, temperature=0.8)
    received = [next(stream), next(stream)]
    vllm_server.kill()
    with pytest.raises(LLMUnavailableError):
        received.extend(stream)
    with pytest.raises(LLMUnavailableError):  # refused now: second failure opens the breaker
        client.complete(QUESTION, max_tokens=4)
    assert not client.available
    start = time.perf_counter()
    with pytest.raises(LLMUnavailableError, match="breaker"):
        client.complete(QUESTION, max_tokens=4)
    assert time.perf_counter() - start < 0.005
    assert len(received) >= 2
