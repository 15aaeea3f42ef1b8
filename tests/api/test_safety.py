"""No server error on any question: an engine that raises something untyped (a 400-digit number
overflowing a float, a bug) becomes one clear Russian error on every route — a JSON 422, or an
`error` event that ends the stream — with no internals, and the question stays stored."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from assistant.api.deps import context_of
from tests.api.engines import Failing
from tests.api.live import live_server, make_app
from tests.api.test_chat import sse_events
from tests.api.test_conversation import KEY, client_for, requests_for, stored_rows

# «сколько памяти нужно для 999…9B в FP16?»: 400 nines overflow a float (defect 1 of issue 14)
LONG_NUMBER = "сколько памяти нужно для " + "9" * 400 + "B в FP16?"
ANSWER_FAILED = "Не получилось составить ответ. Попробуйте переформулировать вопрос."
INTERNALS = ("Traceback", "Overflow", "infinity", "/etc/passwd", "secret")


def no_internals(text: str) -> None:
    for word in INTERNALS:
        assert word not in text, word


def last_sse(text: str) -> tuple[str, Any]:
    return sse_events(text)[-1]


def openai_frames(text: str) -> list[str]:
    return [f[6:] for f in text.strip().split("\n\n")]


@pytest.fixture
def agent_settings(api_settings: Any) -> Any:
    return api_settings.model_copy(update={"agent_api_key": SecretStr("k-1")})


async def test_a_huge_number_is_never_a_server_error(pipeline: Any, agent_settings: Any) -> None:
    """The real engine on the real question: an answer, or a Russian error — never a 5xx, never
    a stream that just stops; the question is stored on every route."""
    app = make_app(pipeline, agent_settings)
    async with client_for(app) as c:
        for path, body, headers in requests_for(LONG_NUMBER):
            r = await c.post(path, json=body, headers=headers)
            assert r.status_code < 500, (path, r.status_code, r.text[:300])
            no_internals(r.text)
            if r.headers["content-type"].startswith("text/event-stream"):
                if path == "/v1/chat/stream":
                    assert last_sse(r.text)[0] in ("done", "error"), r.text[-300:]
                else:
                    assert openai_frames(r.text)[-1] == "[DONE]"
            elif r.status_code != 200:
                error = r.json()["error"]
                assert error["code"] and any("а" <= ch <= "я" for ch in error["message"])
    rows = stored_rows(agent_settings, "SELECT role FROM messages WHERE content = ?", LONG_NUMBER)
    assert rows == [("user",)] * 5


async def test_an_untyped_engine_failure_is_a_russian_422_on_every_route(
    pipeline: Any, agent_settings: Any
) -> None:
    crash = OverflowError("cannot convert float infinity to integer (/etc/passwd, secret)")
    question = "вопрос, на котором движок падает"
    app = make_app(Failing(pipeline, question, crash), agent_settings)
    expected = {"error": {"code": "answer_failed", "message": ANSWER_FAILED}}
    # the OpenAI route: the same code and text in OpenAI's shape
    in_openai_shape = {
        "error": {**expected["error"], "type": "invalid_request_error", "param": None}
    }
    async with client_for(app) as c:
        replies = [
            (path, await c.post(path, json=body, headers=headers))
            for path, body, headers in requests_for(question)
        ]
        metrics = (await c.get("/metrics")).text
    for path, r in replies:
        no_internals(r.text)
        if r.headers["content-type"].startswith("text/event-stream"):
            assert r.status_code == 200
            if path == "/v1/chat/stream":
                names = [name for name, _ in sse_events(r.text)]
                assert names == ["session", "error"]
                assert last_sse(r.text) == ("error", expected)
            else:
                frames = openai_frames(r.text)
                assert frames[-1] == "[DONE]" and json.loads(frames[-2]) == in_openai_shape
        else:
            body = in_openai_shape if path == "/v1/chat/completions" else expected
            assert r.status_code == 422 and r.json() == body, (path, r.text)
    rows = stored_rows(agent_settings, "SELECT role FROM messages WHERE content = ?", question)
    assert rows == [("user",)] * 5  # every route kept the question, none stored an answer
    assert 'status="500"' not in metrics
    assert "assistant_answer_failures_total 5.0" in metrics


async def test_a_failing_earlier_turn_in_client_history_still_gets_an_answer(
    pipeline: Any, agent_settings: Any
) -> None:
    """OpenAI clients send their history; re-answering an earlier turn that crashes the engine
    must not sink the question actually asked."""
    question = "вопрос, на котором движок падает"
    app = make_app(Failing(pipeline, question, OverflowError("boom")), agent_settings)
    messages = [
        {"role": "user", "content": question},
        {"role": "assistant", "content": "Извините."},
        {"role": "user", "content": "что такое NVLink?"},
    ]
    async with client_for(app) as c:
        r = await c.post("/v1/chat/completions", json={"messages": messages})
        thread = [{"role": "customer", "content": question}]
        s = await c.post(
            "/v1/suggest", json={"message": "что такое NVLink?", "thread": thread}, headers=KEY
        )
    assert r.status_code == 200 and "NVLink" in r.json()["choices"][0]["message"]["content"]
    assert s.status_code == 200 and "NVLink" in s.json()["draft"]


async def test_the_session_continues_after_a_failed_question(
    pipeline: Any, api_settings: Any
) -> None:
    question = "вопрос, на котором движок падает"
    app = make_app(Failing(pipeline, question, ZeroDivisionError("x")), api_settings)
    async with client_for(app) as c:
        first = (await c.post("/v1/chat", json={"message": "сколько памяти нужно для 70B"})).json()
        sid = first["session_id"]
        failed = await c.post("/v1/chat", json={"message": question, "session_id": sid})
        follow = await c.post("/v1/chat", json={"message": "а в FP8?", "session_id": sid})
    assert failed.status_code == 422 and failed.json()["error"]["code"] == "answer_failed"
    assert follow.status_code == 200 and follow.json()["session_id"] == sid
    args = follow.json()["tool_calls"][0]["arguments"]
    assert args["params_b"] == 70 and args["precision"] == "fp8"
    stored = context_of(app).repository.messages(sid)
    assert [m.role for m in stored] == ["user", "assistant", "user", "user", "assistant"]


def test_streams_over_a_real_server_end_with_an_error_event(
    pipeline: Any, agent_settings: Any
) -> None:
    """Over uvicorn the stream ends properly (the response is complete), with `error` last."""
    question = "вопрос, на котором движок падает"
    app = make_app(Failing(pipeline, question, OverflowError("boom")), agent_settings)
    with live_server(app) as base, httpx.Client(base_url=base, timeout=30) as c:
        for path, body, _ in requests_for(question)[:4]:
            if not body.get("stream") and path != "/v1/chat/stream":
                continue
            with c.stream("POST", path, json=body) as r:
                text = "".join(r.iter_text())  # raises if the server cuts the stream short
            if path == "/v1/chat/stream":
                assert last_sse(text)[0] == "error"
            else:
                frames = openai_frames(text)
                assert frames[-1] == "[DONE]" and "answer_failed" in frames[-2]
        assert 'status="500"' not in c.get("/metrics").text
