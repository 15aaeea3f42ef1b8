"""The request types are strict (a boolean is not a score) and the OpenAPI document tells the
truth: every status a route returns, the one error body, the message limits, text/plain for
/metrics and text/event-stream for the streams."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from tests.api.live import app_settings, make_app

ERROR_REF = "#/components/schemas/ErrorResponse"


def client_for(app: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://test")


@pytest.mark.parametrize("score", [True, False, 1.0, "1", -1.0, None])
async def test_a_score_is_exactly_1_or_minus_1(client: httpx.AsyncClient, score: Any) -> None:
    chat = (await client.post("/v1/chat", json={"message": "что такое HBM"})).json()
    r = await client.post("/v1/feedback", json={"message_id": chat["message_id"], "score": score})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    stored = (await client.get(f"/v1/sessions/{chat['session_id']}")).json()["messages"]
    assert stored[-1]["feedback"] is None


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/chat/completions", {"messages": [{"role": "user", "content": "x"}], "stream": 1}),
        ("/v1/chat/completions", {"messages": [{"role": "user", "content": "x"}], "stream": "yes"}),
        ("/v1/chat/completions", {"messages": [{"role": 1, "content": "x"}]}),
        ("/v1/chat/completions", {"messages": [{"role": "user", "content": "x"}], "model": 7}),
        ("/v1/chat", {"message": 42}),
        ("/v1/chat", {"message": "x", "session_id": 12345}),
        ("/v1/feedback", {"message_id": 5, "score": 1}),
        ("/v1/feedback", {"message_id": "a", "score": 1, "comment": False}),
    ],
)
async def test_no_loose_coercions(client: httpx.AsyncClient, path: str, body: Any) -> None:
    r = await client.post(path, json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "invalid_request"


async def openapi(pipeline: Any, settings: Any, tmp_path: Any, **overrides: Any) -> Any:
    s = app_settings(settings, tmp_path / "db", agent_api_key=SecretStr("k"), **overrides)
    async with client_for(make_app(pipeline, s)) as c:
        return (await c.get("/openapi.json")).json()


def statuses(doc: Any, path: str, method: str) -> set[str]:
    return set(doc["paths"][path][method]["responses"])


async def test_every_status_is_documented_with_the_error_body(
    pipeline: Any, settings: Any, tmp_path: Any
) -> None:
    doc = await openapi(pipeline, settings, tmp_path)
    question = {"400", "413", "422", "429", "503"}
    assert {"200"} | question <= statuses(doc, "/v1/chat", "post")
    assert {"200"} | question <= statuses(doc, "/v1/chat/stream", "post")
    assert {"200"} | question <= statuses(doc, "/v1/chat/completions", "post")
    assert {"200", "401", "403"} | question <= statuses(doc, "/v1/suggest", "post")
    assert {"200", "400", "404", "413", "422", "429"} <= statuses(doc, "/v1/feedback", "post")
    assert {"200", "404"} <= statuses(doc, "/v1/sessions/{session_id}", "get")
    assert {"200", "503"} <= statuses(doc, "/readyz", "get")
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            for status, response in op["responses"].items():
                if status.startswith(("4", "5")) and not (path == "/readyz" and status == "503"):
                    schema = response["content"]["application/json"]["schema"]
                    assert schema == {"$ref": ERROR_REF}, (path, method, status)
    error = doc["components"]["schemas"]["ErrorResponse"]
    detail = doc["components"]["schemas"]["ErrorDetail"]
    assert error["required"] == ["error"] and set(detail["required"]) == {"code", "message"}


async def test_the_message_schema_forbids_what_the_service_rejects(
    pipeline: Any, settings: Any, tmp_path: Any
) -> None:
    doc = await openapi(pipeline, settings, tmp_path, max_message_chars=300)
    schemas = doc["components"]["schemas"]
    message = schemas["ChatRequest"]["properties"]["message"]
    assert message["minLength"] == 1 and message["maxLength"] == 300
    assert message["pattern"] == r"\S"  # at least one non-space character
    assert "300" in message["description"]
    assert schemas["SuggestRequest"]["properties"]["message"]["maxLength"] == 300
    score = schemas["FeedbackRequest"]["properties"]["score"]
    assert score["enum"] == [1, -1] and score["type"] == "integer"


async def test_metrics_and_streams_declare_their_real_media_types(
    pipeline: Any, settings: Any, tmp_path: Any
) -> None:
    doc = await openapi(pipeline, settings, tmp_path)
    metrics = doc["paths"]["/metrics"]["get"]["responses"]["200"]["content"]
    assert set(metrics) == {"text/plain"} and metrics["text/plain"]["schema"]["type"] == "string"
    stream = doc["paths"]["/v1/chat/stream"]["post"]["responses"]["200"]["content"]
    assert set(stream) == {"text/event-stream"}
    events = stream["text/event-stream"]["schema"]["oneOf"]  # one schema per SSE event
    names = [e["properties"]["event"]["const"] for e in events]
    assert names == ["session", "delta", "citations", "tool_calls", "done", "error"]
    assert events[-1]["properties"]["data"]["contentSchema"] == {"$ref": ERROR_REF}
    assert "type" not in stream["text/event-stream"]["schema"]  # an event, not a JSON string
    completions = doc["paths"]["/v1/chat/completions"]["post"]["responses"]["200"]["content"]
    assert set(completions) == {"application/json", "text/event-stream"}
    assert completions["application/json"]["schema"] == {
        "$ref": "#/components/schemas/CompletionResponse"
    }
