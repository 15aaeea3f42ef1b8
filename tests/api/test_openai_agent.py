"""OpenAI-compatible completions, the support-agent helper, and a client leaving mid-stream."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.api.live import live_server


async def test_completion_is_openai_shaped_with_citations(client: httpx.AsyncClient) -> None:
    body = {
        "model": "glossary-assistant",
        "messages": [{"role": "user", "content": "что такое NVLink"}],
    }
    r = await client.post("/v1/chat/completions", json=body)
    assert r.status_code == 200
    data = r.json()
    assert data["object"] == "chat.completion" and data["id"].startswith("chatcmpl-")
    choice = data["choices"][0]
    assert choice["message"]["role"] == "assistant" and "NVLink" in choice["message"]["content"]
    assert choice["finish_reason"] == "stop"
    assert data["citations"][0]["slug"] == "nvlink"
    assert data["glossary"]["route"] == "term" and data["glossary"]["message_id"]


async def test_completion_uses_message_history_for_follow_ups(client: httpx.AsyncClient) -> None:
    messages = [
        {"role": "system", "content": "ignored"},
        {"role": "user", "content": "сколько видеопамяти нужно для Llama 3 70B в BF16?"},
        {"role": "assistant", "content": "Около 140 ГБ под веса."},
        {"role": "user", "content": [{"type": "text", "text": "а в FP8?"}]},
    ]
    data = (await client.post("/v1/chat/completions", json={"messages": messages})).json()
    args = data["glossary"]["tool_calls"][0]["arguments"]
    assert args["precision"] == "fp8"


async def test_completion_stream_chunks_then_done(client: httpx.AsyncClient) -> None:
    body = {"messages": [{"role": "user", "content": "что такое HBM"}], "stream": True}
    r = await client.post("/v1/chat/completions", json=body)
    frames = [f[6:] for f in r.text.strip().split("\n\n")]
    assert frames[-1] == "[DONE]"
    chunks = [json.loads(f) for f in frames[:-1]]
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    text = "".join(c["choices"][0]["delta"].get("content", "") for c in chunks)
    assert "HBM" in text and chunks[-1]["choices"][0]["finish_reason"] == "stop"
    assert chunks[-1]["citations"] and chunks[-1]["citations"][0]["url"].startswith("/glossary/")


async def test_completion_without_user_message_is_422(client: httpx.AsyncClient) -> None:
    r = await client.post(
        "/v1/chat/completions", json={"messages": [{"role": "system", "content": "x"}]}
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"


async def test_suggest_requires_the_configured_key(
    agent: httpx.AsyncClient, client: httpx.AsyncClient
) -> None:
    body = {"message": "что такое NVLink"}
    assert (await client.post("/v1/suggest", json=body)).json()["error"]["code"] == "agent_disabled"
    r = await agent.post("/v1/suggest", json=body, headers={"X-API-Key": "wrong"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    r = await agent.post("/v1/suggest", json=body, headers={"Authorization": "Bearer k-123"})
    assert r.status_code == 200


async def test_suggest_returns_draft_evidence_calculations_confidence(
    agent: httpx.AsyncClient,
) -> None:
    headers = {"X-API-Key": "k-123"}
    body = {
        "message": "а в FP8 сколько будет?",
        "thread": [
            {"role": "customer", "content": "сколько видеопамяти нужно для модели 70B в BF16?"},
            {"role": "agent", "content": "Около 140 ГБ под веса."},
        ],
    }
    data = (await agent.post("/v1/suggest", json=body, headers=headers)).json()
    assert data["draft"] and data["calculations"][0]["arguments"]["precision"] == "fp8"
    assert data["confidence"] in ("high", "medium", "low") and data["handoff"] is False
    term = (
        await agent.post("/v1/suggest", json={"message": "что такое NVLink"}, headers=headers)
    ).json()
    nvlink = next(e for e in term["evidence"] if e["slug"] == "nvlink")
    assert nvlink["sentences"] and all(
        s.replace("\xa0", " ") in open_glossary_text("nvlink") for s in nvlink["sentences"]
    )
    off = (
        await agent.post(
            "/v1/suggest", json={"message": "как вернуть деньги за заказ пиццы"}, headers=headers
        )
    ).json()
    assert off["handoff"] is True and off["confidence"] == "low"


def open_glossary_text(slug: str) -> str:
    from assistant.corpus.glossary import load_glossary
    from assistant.settings import ROOT

    glossary = load_glossary(ROOT / "corpus")
    entry = next(e for e in glossary.entries if e.slug == slug)
    return " ".join(str(v) for v in vars(entry).values()).replace("\xa0", " ")


def test_client_leaving_mid_stream_breaks_nothing(app: Any) -> None:
    with live_server(app) as base, httpx.Client(base_url=base, timeout=30) as c:
        for _ in range(3):
            with c.stream("POST", "/v1/chat/stream", json={"message": "что такое NVLink"}) as r:
                first = next(r.iter_lines())
                assert first.startswith("event: session")
            # closed after the first line: the server must shrug it off
        after = c.post("/v1/chat", json={"message": "что такое HBM"})
        assert after.status_code == 200 and after.json()["citations"]
        assert c.get("/readyz").status_code == 200
        metrics = c.get("/metrics").text
        assert 'status="500"' not in metrics
