"""HTTP edges of issue 11: years and absurd values get HTTP 200 with a friendly answer (once a
422 and an unhandled OverflowError → 500); /v1/chat sessions and /v1/suggest threads keep the
calculation's parameters for a follow-up."""

from __future__ import annotations

import httpx
import pytest

HEADERS = {"X-API-Key": "k-123"}


@pytest.mark.parametrize(
    ("message", "says"),
    [
        ("Какая память была у H100 на старте продаж в 2023 году?", ""),
        ("сколько будет стоить H100 на 500 лет?", "до десяти лет"),
        ("сколько памяти нужно модели на " + "1" * 400 + "B в BF16?", "двадцати триллионов"),
        ("сколько памяти нужно -13B в FP16?", "минус"),
    ],
)
async def test_years_and_absurd_values_are_answered(
    client: httpx.AsyncClient, message: str, says: str
) -> None:
    r = await client.post("/v1/chat", json={"message": message})
    assert r.status_code == 200, r.text
    body = r.json()
    assert not any(c["name"] == "gpu_cost" for c in body["tool_calls"])
    assert says in body["answer"]
    if says:
        assert body["route"] == "clarify" and body["tool_calls"] == []


async def test_session_follow_up_computes_with_everything_said(client: httpx.AsyncClient) -> None:
    first = await client.post(
        "/v1/chat", json={"message": "Планируем Mistral 7B в FP16, контекст 8k, 10 пользователей"}
    )
    sid = first.json()["session_id"]
    r = await client.post("/v1/chat", json={"message": "одной L40S хватит?", "session_id": sid})
    [call] = r.json()["tool_calls"]
    assert call["name"] == "gpu_fit" and call["arguments"]["batch"] == 10
    assert call["arguments"]["context_tokens"] == 8192 and call["arguments"]["gpu"] == "l40s"


async def test_suggest_reads_the_thread_for_the_calculation(agent: httpx.AsyncClient) -> None:
    thread = [
        {
            "role": "customer",
            "content": "Здравствуйте, посчитайте память под Llama 3 70B в FP8 с контекстом 8k",
        },
        {"role": "agent", "content": "Добрый день! Около 80–96 ГБ с запасом."},
    ]
    body = {"message": "а на двух L40S поместится?", "thread": thread}
    r = await agent.post("/v1/suggest", json=body, headers=HEADERS)
    assert r.status_code == 200, r.text
    [call] = r.json()["calculations"]
    args = call["arguments"]
    assert call["name"] == "gpu_fit" and (args["gpu"], args["gpus"]) == ("l40s", 2)
    assert (args["model"], args["precision"], args["context_tokens"]) == (
        "llama-3-70b",
        "fp8",
        8192,
    )
    assert call["display"]["title"] == "Подбор GPU"
