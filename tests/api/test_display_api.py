"""The JSON API keeps the raw calculator result and adds `display` next to it, everywhere."""

from __future__ import annotations

import httpx

from tests.api.test_chat import sse_events

FIT = "поместится ли Llama 3 70B в FP8 на H100?"


async def test_chat_tool_calls_carry_result_and_display(client: httpx.AsyncClient) -> None:
    data = (await client.post("/v1/chat", json={"message": FIT})).json()
    call = data["tool_calls"][0]  # the asked FP8 fit; the INT4 remedy follows it
    assert call["arguments"]["precision"] == "fp8"
    assert call["result"]["values"]["verdict"] == "tight"  # machine-readable, unchanged
    display = call["display"]
    assert display["title"] == "Подбор GPU" and display["headline"]
    assert [r["label"] for r in display["rows"]][-1] == "H100 SXM"
    assert ["H100 SXM", "80\u00a0ГБ", "2", "впритык"] in display["table"]["rows"]
    # the stored session replays the same display
    session = (await client.get(f"/v1/sessions/{data['session_id']}")).json()
    stored = session["messages"][-1]["answer"]["tool_calls"][0]["display"]
    assert stored == display


async def test_stream_tool_calls_and_done_carry_display(client: httpx.AsyncClient) -> None:
    r = await client.post("/v1/chat/stream", json={"message": "сколько стоит 8 H100 на неделю?"})
    events = dict(sse_events(r.text))
    tools, done = events["tool_calls"]["tool_calls"], events["done"]["tool_calls"]
    assert tools == done and tools[0]["display"]["title"] == "Стоимость аренды"
    assert tools[0]["result"]["values"]["job_cost"] == 4032


async def test_a_term_answer_has_no_tool_calls(client: httpx.AsyncClient) -> None:
    data = (await client.post("/v1/chat", json={"message": "что такое NVLink?"})).json()
    assert data["tool_calls"] == []
