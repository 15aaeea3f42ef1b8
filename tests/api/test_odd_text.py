"""Any string JSON can carry is no server error: an unpaired UTF-16 surrogate (`"\\ud800"`, what
a client that cuts a message in the middle of an emoji sends) becomes U+FFFD at the edge of every
route, the way browsers turn such strings into text, and the question is answered and stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from assistant.api.deps import context_of
from tests.api.live import app_settings, make_app
from tests.api.test_conversation import KEY, stored_rows

LONE = "\\ud800 что такое nvlink"  # the JSON text: a lone high surrogate escape
HALF_EMOJI = "что такое HBM \\ud83d"  # 😀 cut after its first UTF-16 unit
PAIRED = "что такое NVLink \\ud83d\\ude00"  # a whole emoji stays what it is


def client_for(app: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://test")


@pytest.fixture
def odd_settings(settings: Any, tmp_path: Path) -> Any:
    return app_settings(
        settings, tmp_path / "odd.sqlite3", rate_limit_per_minute=0, agent_api_key=SecretStr("k-1")
    )


def raw(path: str, body: str) -> tuple[str, bytes]:
    return path, body.encode()


def requests_with(text: str) -> list[tuple[str, bytes]]:
    """Every route that takes text, with `text` (JSON-escaped already) in each text field."""
    user = f'{{"role": "user", "content": "{text}"}}'
    return [
        raw("/v1/chat", f'{{"message": "{text}"}}'),
        raw("/v1/chat/stream", f'{{"message": "{text}"}}'),
        raw("/v1/chat/completions", f'{{"messages": [{user}]}}'),
        raw("/v1/chat/completions", f'{{"messages": [{user}], "stream": true}}'),
        raw("/v1/chat/completions", f'{{"model": "{text}", "messages": [{user}]}}'),
        raw(
            "/v1/chat/completions",
            f'{{"messages": [{user}, {{"role": "assistant", "content": "{text}"}}, {user}]}}',
        ),
        raw(
            "/v1/suggest",
            f'{{"message": "{text}", "thread": [{{"role": "customer", "content": "{text}"}}]}}',
        ),
        raw("/v1/suggest", f'{{"message": "", "thread_text": "клиент: {text}"}}'),
    ]


@pytest.mark.parametrize("text", [LONE, HALF_EMOJI])
async def test_a_lone_surrogate_is_no_server_error_on_any_route(
    fast_pipeline: Any, odd_settings: Any, text: str
) -> None:
    app = make_app(fast_pipeline, odd_settings)
    headers = {"content-type": "application/json", **KEY}
    async with client_for(app) as c:
        for path, body in requests_with(text):
            r = await c.post(path, content=body, headers=headers)
            assert r.status_code == 200, (path, body, r.status_code, r.text[:300])
            assert "internal_error" not in r.text, (path, r.text[-300:])
        metrics = (await c.get("/metrics")).text
    assert 'status="500"' not in metrics
    questions = stored_rows(odd_settings, "SELECT content FROM messages WHERE role = 'user'")
    assert len(questions) == len(requests_with(text))
    assert all("\ufffd" in q for (q,) in questions), questions


async def test_a_follow_up_and_feedback_with_a_lone_surrogate(
    fast_pipeline: Any, odd_settings: Any
) -> None:
    app = make_app(fast_pipeline, odd_settings)
    headers = {"content-type": "application/json"}
    async with client_for(app) as c:
        first = (await c.post("/v1/chat", json={"message": "что такое NVLink"})).json()
        sid, mid = first["session_id"], first["message_id"]
        follow = await c.post(
            "/v1/chat", content=f'{{"message": "{LONE}", "session_id": "{sid}"}}', headers=headers
        )
        feedback = await c.post(
            "/v1/feedback",
            content=f'{{"message_id": "{mid}", "score": -1, "comment": "{HALF_EMOJI}"}}',
            headers=headers,
        )
        session = await c.get(f"/v1/sessions/{sid}")
    assert follow.status_code == 200 and follow.json()["session_id"] == sid, follow.text
    assert feedback.status_code == 200, feedback.text
    assert session.status_code == 200
    contents = [m["content"] for m in session.json()["messages"]]
    assert contents[2] == "\ufffd что такое nvlink"
    item = context_of(app).repository.report_items()[0]
    assert item.comment == "что такое HBM \ufffd"


async def test_a_whole_surrogate_pair_is_kept_and_utf16_bodies_are_read_alike(
    fast_pipeline: Any, odd_settings: Any
) -> None:
    app = make_app(fast_pipeline, odd_settings)
    async with client_for(app) as c:
        paired = await c.post(
            "/v1/chat",
            content=f'{{"message": "{PAIRED}"}}'.encode(),
            headers={"content-type": "application/json"},
        )
        utf16 = await c.post(
            "/v1/chat",
            content=f'{{"message": "{LONE}"}}'.encode("utf-16-le"),
            headers={"content-type": "application/json"},
        )
    assert paired.status_code == 200 and utf16.status_code == 200, utf16.text
    stored = [row[0] for row in stored_rows(odd_settings, "SELECT content FROM messages")]
    assert "что такое NVLink 😀" in stored
    assert "\ufffd что такое nvlink" in stored


def test_the_edge_rewrites_only_unpaired_escapes() -> None:
    from assistant.api.text_edge import repair_json_text

    cases = {
        r'"\ud800"': r'"\ufffd"',
        r'"\udc00x"': r'"\ufffdx"',
        r'"\ud83d\ude00"': r'"\ud83d\ude00"',  # a pair is one character
        r'"\\ud800"': r'"\\ud800"',  # an escaped backslash, then plain letters
        r'"\\\ud800"': r'"\\\ufffd"',
        r'"\ud800\ud800\udc00"': r'"\ufffd\ud800\udc00"',
        r'"\uDBFF"': r'"\ufffd"',
        r'"a\"\ud800"': r'"a\"\ufffd"',
    }
    for given, expected in cases.items():
        assert repair_json_text(given) == expected, given
        json.loads(repair_json_text(given)).encode("utf-8")  # storable as text
