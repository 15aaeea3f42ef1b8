"""Chat, streaming, sessions and feedback through the ASGI app with the real engine."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx

from assistant.api.deps import context_of
from tests.api.live import make_app

PUBLIC = {"answer", "citations", "tool_calls", "refused", "route", "generator"}


def sse_events(text: str) -> list[tuple[str, Any]]:
    events = []
    for block in text.strip().split("\n\n"):
        lines = block.split("\n")
        name = next(line[7:] for line in lines if line.startswith("event: "))
        data = "\n".join(line[6:] for line in lines if line.startswith("data: "))
        events.append((name, json.loads(data)))
    return events


async def test_chat_returns_the_answer_object_with_session_and_message(
    client: httpx.AsyncClient,
) -> None:
    r = await client.post("/v1/chat", json={"message": "что такое NVLink?"})
    assert r.status_code == 200
    body = r.json()
    assert set(body) == PUBLIC | {"session_id", "message_id"}
    assert body["route"] == "term" and body["generator"] == "embedded" and not body["refused"]
    assert body["citations"][0] == {
        "slug": "nvlink",
        "title": "NVLink",
        "url": "/glossary/nvlink",
    }
    assert "NVLink" in body["answer"]


async def test_follow_up_uses_the_session_across_requests(client: httpx.AsyncClient) -> None:
    first = (
        await client.post("/v1/chat", json={"message": "сколько видеопамяти нужно для 70B?"})
    ).json()
    second = (
        await client.post(
            "/v1/chat", json={"message": "а в FP8?", "session_id": first["session_id"]}
        )
    ).json()
    assert second["session_id"] == first["session_id"]
    args = second["tool_calls"][0]["arguments"]
    assert args["params_b"] == 70 and args["precision"] == "fp8"
    # without the session the same follow-up has no model size to work with
    alone = (await client.post("/v1/chat", json={"message": "а в FP8?"})).json()
    assert alone["session_id"] != first["session_id"]
    assert not any(c["arguments"].get("params_b") == 70 for c in alone["tool_calls"])


async def test_unknown_session_id_starts_a_new_conversation(client: httpx.AsyncClient) -> None:
    r = await client.post("/v1/chat", json={"message": "что такое HBM", "session_id": "f" * 32})
    assert r.status_code == 200 and r.json()["session_id"] != "f" * 32


async def test_stream_sends_deltas_then_citations_tools_and_done(
    client: httpx.AsyncClient,
) -> None:
    r = await client.post("/v1/chat/stream", json={"message": "что такое HBM"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    events = sse_events(r.text)
    names = [name for name, _ in events]
    assert names[0] == "session" and names[-3:] == ["citations", "tool_calls", "done"]
    assert names.count("delta") >= 2 and set(names[1:-3]) == {"delta"}
    done = events[-1][1]
    assert "".join(d["text"] for n, d in events if n == "delta") == done["answer"]
    assert done["session_id"] == events[0][1]["session_id"] and done["message_id"]
    assert events[-3][1]["citations"] == done["citations"] != []


async def test_session_history_survives_an_app_restart(
    pipeline: Any, api_settings: Any, client: httpx.AsyncClient
) -> None:
    first = (await client.post("/v1/chat", json={"message": "сколько памяти нужно для 70B"})).json()
    sid = first["session_id"]
    restarted = make_app(pipeline, api_settings)  # new app, new repository, same SQLite file
    transport = httpx.ASGITransport(app=restarted)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as again:
        stored = (await again.get(f"/v1/sessions/{sid}")).json()["messages"]
        assert [m["role"] for m in stored] == ["user", "assistant"]
        assert stored[1]["id"] == first["message_id"]
        assert stored[1]["answer"]["tool_calls"] == first["tool_calls"]
        follow = await again.post("/v1/chat", json={"message": "а в FP4?", "session_id": sid})
        args = follow.json()["tool_calls"][0]["arguments"]
        assert args["params_b"] == 70 and args["precision"] in ("fp4", "nvfp4", "mxfp4")


async def test_feedback_is_stored_replaced_and_counted(client: httpx.AsyncClient) -> None:
    chat = (await client.post("/v1/chat", json={"message": "что такое NCCL"})).json()
    r = await client.post(
        "/v1/feedback", json={"message_id": chat["message_id"], "score": -1, "comment": "мало"}
    )
    assert r.status_code == 200 and r.json() == {"ok": True}
    await client.post("/v1/feedback", json={"message_id": chat["message_id"], "score": 1})
    stored = (await client.get(f"/v1/sessions/{chat['session_id']}")).json()["messages"]
    assert stored[-1]["feedback"] == 1
    metrics = (await client.get("/metrics")).text
    assert 'assistant_feedback_total{score="down"} 1.0' in metrics
    assert 'assistant_feedback_total{score="up"} 1.0' in metrics


async def test_feedback_for_unknown_message_is_404_json(client: httpx.AsyncClient) -> None:
    r = await client.post("/v1/feedback", json={"message_id": "0" * 32, "score": 1})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_message"
    r = await client.post("/v1/feedback", json={"message_id": "0" * 32, "score": 3})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"


async def test_concurrent_requests_lose_no_writes(client: httpx.AsyncClient) -> None:
    sid = (await client.post("/v1/chat", json={"message": "что такое GPU"})).json()["session_id"]
    questions = ["что такое NVLink", "что такое HBM", "что такое FP8", "что такое RDMA"] * 5
    replies = await asyncio.gather(
        *(client.post("/v1/chat", json={"message": q, "session_id": sid}) for q in questions)
    )
    assert all(r.status_code == 200 for r in replies)
    assert len({r.json()["message_id"] for r in replies}) == 20
    stored = (await client.get(f"/v1/sessions/{sid}")).json()["messages"]
    assert len(stored) == 42
    assert sorted(m["content"] for m in stored if m["role"] == "user")[:5] == ["что такое FP8"] * 5


async def test_health_ready_metrics_and_docs(client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    ready = await client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() | {"index": True, "ready": True, "llm": "disabled"} == ready.json()
    assert ready.json()["fallback_active"] is True
    await client.post("/v1/chat", json={"message": "посоветуй ноутбук для учёбы"})
    metrics = (await client.get("/metrics")).text
    assert 'assistant_http_requests_total{method="POST",route="/v1/chat",status="200"}' in metrics
    assert 'assistant_http_request_duration_seconds_bucket{le="0.2",route="/v1/chat"}' in metrics
    assert 'assistant_refusals_total{route="out_of_scope"} 1.0' in metrics
    assert (await client.get("/docs")).status_code == 200
    paths = (await client.get("/openapi.json")).json()["paths"]
    assert {"/v1/chat", "/v1/chat/stream", "/v1/chat/completions", "/v1/feedback"} <= set(paths)


async def test_report_sees_refusals_from_the_api(client: httpx.AsyncClient, app: Any) -> None:
    from assistant.storage.report import group_report

    for _ in range(2):
        await client.post("/v1/chat", json={"message": "посоветуй ноутбук для учёбы"})
    await client.post("/v1/chat", json={"message": "что такое NVLink"})
    groups = group_report(context_of(app).repository.report_items())
    assert groups[0].count == 2 and groups[0].refused == 2
    assert all("nvlink" not in g.question.lower() for g in groups)


def test_db_file_is_sqlite_wal(api_settings: Any, app: Any) -> None:
    assert Path(api_settings.db_path).exists()
    from assistant.storage.sqlite import SqliteRepository

    repository = context_of(app).repository
    assert isinstance(repository, SqliteRepository) and repository.journal_mode() == "wal"
