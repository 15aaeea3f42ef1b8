"""Edges: size and length limits, rate limits, CORS, JSON errors without internals."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import httpx
import pytest

from assistant.api.deps import context_of
from tests.api.engines import Failing, InFlight
from tests.api.live import app_settings, make_app

if TYPE_CHECKING:
    from assistant.pipeline import Pipeline


def client_for(app: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://test")


def assert_error(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and body["error"]["code"] == code
    assert any("а" <= ch <= "я" for ch in body["error"]["message"].lower())  # Russian


async def test_message_length_and_emptiness(client: httpx.AsyncClient) -> None:
    assert_error(
        await client.post("/v1/chat", json={"message": "а" * 2001}), 422, "message_too_long"
    )
    assert_error(await client.post("/v1/chat", json={"message": "   "}), 422, "empty_message")
    assert_error(await client.post("/v1/chat/stream", json={"message": ""}), 422, "empty_message")
    assert_error(await client.post("/v1/chat", json={"text": "x"}), 422, "invalid_request")
    bad_json = await client.post(
        "/v1/chat", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert_error(bad_json, 422, "invalid_request")


async def test_oversized_body_is_413(client: httpx.AsyncClient) -> None:
    r = await client.post("/v1/chat", json={"message": "а", "pad": "x" * 40_000})
    assert_error(r, 413, "payload_too_large")


async def test_rate_limits_per_ip_and_per_session(
    pipeline: Any, settings: Any, tmp_path: Any
) -> None:
    app = make_app(pipeline, app_settings(settings, tmp_path / "db", rate_limit_per_minute=3))
    async with client_for(app) as c:
        codes = [
            (await c.post("/v1/chat", json={"message": "что такое HBM"})).status_code
            for _ in range(4)
        ]
        assert codes == [200, 200, 200, 429]
        r = await c.post("/v1/chat", json={"message": "что такое HBM"})
        assert_error(r, 429, "rate_limited")
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        assert "assistant_rate_limited_total 2.0" in (await c.get("/metrics")).text
        assert (await c.get("/healthz")).status_code == 200  # ops routes are not limited


def test_limiter_session_key_is_separate_and_refills() -> None:
    from assistant.api.limits import RateLimiter

    limiter = RateLimiter(2)
    assert [limiter.retry_after("session:a", now=0) for _ in range(3)] == [0, 0, 30]
    assert limiter.retry_after("session:b", now=0) == 0  # another session has its own bucket
    assert limiter.retry_after("session:a", now=30) == 0  # one token back after 30 s


async def test_cors_only_for_configured_origins(
    pipeline: Any, settings: Any, tmp_path: Any
) -> None:
    s = app_settings(settings, tmp_path / "db", cors_origins=["https://shop.example"])
    async with client_for(make_app(pipeline, s)) as c:
        preflight = {
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        }
        ok = await c.options("/v1/chat", headers={"Origin": "https://shop.example", **preflight})
        assert ok.headers.get("access-control-allow-origin") == "https://shop.example"
        bad = await c.options("/v1/chat", headers={"Origin": "https://evil.example", **preflight})
        assert "access-control-allow-origin" not in bad.headers


async def test_engine_crash_is_a_json_500_and_the_question_is_kept(
    pipeline: Any, api_settings: Any
) -> None:
    boom = RuntimeError("secret internal detail /etc/passwd")
    app = make_app(Failing(pipeline, "вопрос перед падением", boom), api_settings)
    async with client_for(app) as client:
        first = (await client.post("/v1/chat", json={"message": "что такое HBM"})).json()
        r = await client.post(
            "/v1/chat", json={"message": "вопрос перед падением", "session_id": first["session_id"]}
        )
    assert_error(r, 500, "internal_error")
    assert "secret" not in r.text and "Traceback" not in r.text
    stored = context_of(app).repository.messages(first["session_id"])
    assert stored[-1].content == "вопрос перед падением" and stored[-1].role == "user"


async def test_unknown_route_is_json_404(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/v1/nope"), 404, "not_found")


@pytest.mark.parametrize("slots", [1, 3])
async def test_concurrent_answers_are_capped_and_all_served(
    pipeline: Any, api_settings: Any, slots: int
) -> None:
    import asyncio

    counted = InFlight(pipeline)
    app = make_app(
        cast("Pipeline", counted), api_settings.model_copy(update={"max_concurrent_answers": slots})
    )
    questions = ["что такое nvlink", "что такое hbm", "зачем infiniband", "что такое fp8"] * 3
    async with client_for(app) as c:
        replies = await asyncio.gather(
            *(c.post("/v1/chat", json={"message": q}) for q in questions)
        )
        stream = await c.post("/v1/chat/stream", json={"message": "что такое vram"})
    assert [r.status_code for r in replies] == [200] * len(questions)
    assert all(r.json()["citations"] for r in replies)
    assert counted.peak == slots  # never more than the cap, and the cap is actually used
    assert "event: done" in stream.text  # streams take (and give back) a slot too


def test_answer_slot_defaults(settings: Any) -> None:
    import os

    from assistant.conversation.admission import answer_slots

    cores = os.cpu_count() or 1
    assert answer_slots(settings.model_copy(update={"llm_base_url": ""})) == 2 * cores
    with_llm = settings.model_copy(update={"llm_base_url": "http://127.0.0.1:9/v1"})
    assert answer_slots(with_llm) == 64
    assert answer_slots(with_llm.model_copy(update={"max_concurrent_answers": 5})) == 5
