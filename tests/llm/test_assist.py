"""LLM assists through the real client and the OpenAI-compatible test server: a condensed question
is kept only if it stays on the conversation's words; filled arguments only if the user said them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from assistant.calculators.registry import get_tool
from assistant.llm import assist
from assistant.llm.client import ChatClient
from assistant.schema import Turn
from assistant.settings import ROOT, Settings
from tests.helpers import read
from tests.openai_server import OpenAIServer, Reply, openai_server

PROMPTS = ROOT / "prompts"
HISTORY = [
    Turn(role="user", content="что такое kv-кэш?"),
    Turn(
        role="assistant", content="KV-кэш — память для ключей и значений [1].", slugs=["kv-cache"]
    ),
]


@pytest.fixture()
def server() -> Iterator[OpenAIServer]:
    with openai_server() as srv:
        yield srv


def client(server: OpenAIServer) -> ChatClient:
    s = Settings(llm_base_url=server.base_url, llm_model="test", _env_file=None)  # type: ignore[call-arg]
    return ChatClient(s)


def test_a_sane_condensation_is_kept(server: OpenAIServer) -> None:
    server.push(json.dumps({"question": "От чего зависит размер KV-кэша?"}))
    with client(server) as c:
        got = assist.condense(c, PROMPTS, read("а от чего зависит его размер?"), HISTORY)
    assert got == "От чего зависит размер KV-кэша?"
    body = server.chat_requests()[-1].body
    assert body["response_format"]["type"] == "json_schema"
    assert "а от чего зависит его размер?" in body["messages"][0]["content"]


@pytest.mark.parametrize(
    "reply",
    [
        json.dumps({"question": "Сколько стоит аренда суперкомпьютера в Антарктиде ночью?"}),
        "не JSON",
        json.dumps({"answer": "нет поля question"}),
    ],
)
def test_an_unusable_condensation_is_dropped(server: OpenAIServer, reply: str) -> None:
    server.push(reply)
    message = read("а от чего зависит его размер?")
    with client(server) as c:
        assert assist.condense(c, PROMPTS, message, HISTORY) is None


def test_only_arguments_the_user_said_are_kept(server: OpenAIServer) -> None:
    call = {"name": "vram_inference", "arguments": {"params_b": 13, "precision": "fp8", "batch": 4}}
    server.push(Reply(text=None, tool_calls=[call]))
    tool = get_tool("vram_inference").openai()
    message = read("сколько видеопамяти нужно модели на 13 ярдов?")
    history = [Turn(role="user", content="у нас батч 4"), Turn(role="assistant", content="Понял.")]
    with client(server) as c:
        filled = assist.fill_arguments(c, PROMPTS, tool, message, history)
    assert filled == {"params_b": 13, "batch": 4}  # fp8 was never said
    body = server.chat_requests()[-1].body
    assert body["tool_choice"]["function"]["name"] == "vram_inference"
    assert body["tools"][0]["function"]["strict"] is True
