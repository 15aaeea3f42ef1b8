"""One conversation service behind every HTTP route: one validator's Russian texts, the question
stored before answering, failures mapped once per route kind, follow-ups answered in order."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from contextlib import closing
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from assistant.api.deps import context_of
from assistant.errors import InputError, LLMUnavailableError
from tests.api.engines import Failing, Gate
from tests.api.live import make_app
from tests.api.test_chat import sse_events

TOO_LONG = "Сообщение слишком длинное (2001 символов, максимум 2000). Сократите вопрос, пожалуйста."
EMPTY = "Пустое сообщение: напишите вопрос о GPU или инфраструктуре для ИИ."
KEY = {"X-API-Key": "k-1"}


def stored_rows(settings: Any, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Read the app's real SQLite file from a second connection (WAL: committed rows only)."""
    with closing(sqlite3.connect(settings.db_path)) as db:
        return db.execute(sql, args).fetchall()


def client_for(app: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://test")


def requests_for(message: str) -> list[tuple[str, dict[str, Any], dict[str, str]]]:
    """The same message sent to every route that takes a question."""
    openai = {"messages": [{"role": "user", "content": message}]}
    return [
        ("/v1/chat", {"message": message}, {}),
        ("/v1/chat/stream", {"message": message}, {}),
        ("/v1/chat/completions", openai, {}),
        ("/v1/chat/completions", {**openai, "stream": True}, {}),
        ("/v1/suggest", {"message": message, "thread": []}, KEY),
    ]


@pytest.mark.parametrize(
    ("message", "code", "text"),
    [("а" * 2001, "message_too_long", TOO_LONG), ("  \n ", "empty_message", EMPTY)],
)
async def test_every_route_and_the_cli_reject_with_the_same_text(
    pipeline: Any, api_settings: Any, message: str, code: str, text: str
) -> None:
    app = make_app(pipeline, api_settings.model_copy(update={"agent_api_key": SecretStr("k-1")}))
    async with client_for(app) as c:
        for path, body, headers in requests_for(message):
            r = await c.post(path, json=body, headers=headers)
            assert r.status_code == 422, (path, r.text)
            expected: dict[str, Any] = {"code": code, "message": text}
            if path == "/v1/chat/completions":  # OpenAI's shape: the same code and text
                expected |= {"type": "invalid_request_error", "param": None}
            assert r.json() == {"error": expected}, path
    assert stored_rows(api_settings, "SELECT count(*) FROM messages") == [(0,)]  # nothing kept
    with pytest.raises(InputError) as info:  # `assistant ask` goes straight to the pipeline
        pipeline.answer(message)
    assert info.value.user_message == text


async def test_a_follow_up_waits_for_the_answer_before_it(pipeline: Any, api_settings: Any) -> None:
    gate = Gate(pipeline, "сколько видеопамяти нужно для 70B?")
    app = make_app(gate, api_settings)
    async with client_for(app) as c:
        sid = (await c.post("/v1/chat", json={"message": "что такое HBM"})).json()["session_id"]
        first = asyncio.create_task(
            c.post("/v1/chat", json={"message": gate.held, "session_id": sid})
        )
        await asyncio.to_thread(gate.entered.wait, 30)
        follow = asyncio.create_task(
            c.post("/v1/chat", json={"message": "а в FP8?", "session_id": sid})
        )
        other = await c.post("/v1/chat", json={"message": "что такое NVLink"})
        assert other.status_code == 200  # another conversation is not held up
        done, _ = await asyncio.wait({follow}, timeout=0.5)
        assert not done  # the follow-up waits for the held answer of its conversation
        gate.release()
        first_r, follow_r = await first, await follow
    assert first_r.status_code == follow_r.status_code == 200
    args = follow_r.json()["tool_calls"][0]["arguments"]
    assert args["params_b"] == 70 and args["precision"] == "fp8"  # it saw the answer before it
    assert gate.order[-2:] == [gate.held, "а в FP8?"]
    stored = context_of(app).repository.messages(sid)
    assert [m.content for m in stored if m.role == "user"] == [
        "что такое HBM",
        gate.held,
        "а в FP8?",
    ]
    assert len(context_of(app).service.locks) == 0  # nothing kept per conversation afterwards


async def test_stream_failure_is_an_error_event_and_the_question_is_kept(
    pipeline: Any, api_settings: Any
) -> None:
    crash = RuntimeError("secret internal detail /etc/passwd")
    app = make_app(Failing(pipeline, "вопрос перед падением", crash), api_settings)
    async with client_for(app) as c:
        r = await c.post("/v1/chat/stream", json={"message": "вопрос перед падением"})
        metrics = (await c.get("/metrics")).text
    assert r.status_code == 200 and "secret" not in r.text
    events = sse_events(r.text)
    assert [name for name, _ in events] == ["session", "error"]
    error = events[1][1]["error"]
    assert error["code"] == "answer_failed" and "Не получилось" in error["message"]
    stored = context_of(app).repository.messages(events[0][1]["session_id"])
    assert [(m.role, m.content) for m in stored] == [("user", "вопрос перед падением")]
    assert "assistant_stream_disconnects_total 0.0" in metrics  # an error is not a client leaving


async def test_a_typed_failure_reads_the_same_on_json_sse_and_openai(
    pipeline: Any, api_settings: Any
) -> None:
    down = LLMUnavailableError("connection refused by 10.0.0.7:8000")
    question = "почему сервер молчит"
    app = make_app(Failing(pipeline, question, down), api_settings)
    async with client_for(app) as c:
        plain = await c.post("/v1/chat", json={"message": question})
        stream = await c.post("/v1/chat/stream", json={"message": question})
        body = {"messages": [{"role": "user", "content": question}], "stream": True}
        chunks = await c.post("/v1/chat/completions", json=body)
    expected = {"error": {"code": "unavailable", "message": down.user_message}}
    assert plain.status_code == 503 and plain.json() == expected
    assert sse_events(stream.text)[-1] == ("error", expected)
    frames = [f[6:] for f in chunks.text.strip().split("\n\n")]
    in_openai_shape = {"error": {**expected["error"], "type": "server_error", "param": None}}
    assert frames[-1] == "[DONE]" and json.loads(frames[-2]) == in_openai_shape
    assert "10.0.0.7" not in plain.text + stream.text + chunks.text
    roles = stored_rows(api_settings, "SELECT role FROM messages WHERE content = ?", question)
    assert roles == [("user",)] * 3  # every route kept the question, none stored an answer


async def test_agent_key_is_checked_before_the_body(pipeline: Any, api_settings: Any) -> None:
    """The key is a route dependency: without it even a malformed body gets 401, not 422."""
    app = make_app(pipeline, api_settings.model_copy(update={"agent_api_key": SecretStr("k-1")}))
    async with client_for(app) as c:
        r = await c.post("/v1/suggest", json={"thread": "nope"})
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
        r = await c.post("/v1/suggest", json={"thread": "nope"}, headers=KEY)
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"


async def test_glossary_pages_show_the_engines_glossary(
    pipeline: Any, api_settings: Any, tmp_path: Any
) -> None:
    """The page reads the glossary the composition root loaded, not a second copy from disk."""
    elsewhere = api_settings.model_copy(update={"corpus_dir": tmp_path / "no-corpus-here"})
    async with client_for(make_app(pipeline, elsewhere)) as c:
        page = await c.get("/glossary/nvlink")
        missing = await c.get("/glossary/no-such-entry")
    entry = pipeline.glossary.by_slug()["nvlink"]
    assert page.status_code == 200 and f"<title>{entry.title} — глоссарий FullGPU" in page.text
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_entry"


async def test_a_spec_sheet_citation_lands_on_the_cards_page(
    pipeline: Any, api_settings: Any
) -> None:
    """«сколько памяти у B300?» cites the card's sheet at /gpus/b300; the page shows the same
    figures as the answer, each with its source, escaped, and an unknown card is a 404."""
    async with client_for(make_app(pipeline, api_settings)) as c:
        body = (await c.post("/v1/chat", json={"message": "сколько памяти у B300?"})).json()
        sheet = next(x for x in body["citations"] if x["slug"] == "gpu-b300")
        page = await c.get(sheet["url"])
        missing = await c.get("/gpus/no-such-card")
    gpu = pipeline.catalog.gpus["b300"]
    text = page.text.replace("\u00a0", " ")
    assert sheet["url"] == "/gpus/b300" and page.status_code == 200
    assert "Характеристики NVIDIA B300" in text and "288 ГБ HBM3e" in text
    assert '<th scope="row">Пропускная способность памяти</th><td>8 ТБ/с</td>' in text
    assert gpu.sources["memory_gb"].split(" (")[0] in text  # the catalogue's source, shown
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_gpu"
