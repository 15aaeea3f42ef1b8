"""/v1/suggest helps an agent decide: Russian badges, confidence in words, triage, threads."""

from __future__ import annotations

import re
from typing import Any

import httpx

HEADERS = {"X-API-Key": "k-123"}
ENGLISH_BADGE = re.compile(r"\b(?:high|medium|low|embedded|vllm|term|numeric)\b")


async def ask(agent: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    r = await agent.post("/v1/suggest", json=body, headers=HEADERS)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


async def test_refund_thread_is_handed_off_without_a_calculation(
    agent: httpx.AsyncClient,
) -> None:
    data = await ask(agent, message="Верните деньги за прошлый месяц, сервер не работал три дня!")
    assert data["handoff"] is True and data["calculations"] == []
    assert data["confidence"] == "low" and data["citations"] == [] and data["evidence"] == []
    assert data["handoff_reason"].startswith("Возврат денег, недоступность сервера")
    assert data["draft"].startswith("Черновик не нужен")
    assert {"text": "Передать специалисту", "tone": "warn"} in data["badges"]
    assert data["confidence_text"].startswith("Низкая")


async def test_badges_and_confidence_are_russian_words(agent: httpx.AsyncClient) -> None:
    for message in ("что такое NVLink?", "сколько памяти нужно Qwen 32B в FP8?"):
        data = await ask(agent, message=message)
        texts = [b["text"] for b in data["badges"]] + [data["confidence_text"]]
        assert texts[0].startswith("Уверенность: ")
        assert not any(ENGLISH_BADGE.search(t) for t in texts), texts
        assert data["confidence_text"].split(":")[0] in ("Высокая", "Средняя", "Низкая")
        assert data["handoff"] is False and data["handoff_reason"] == ""


async def test_every_citation_has_evidence(agent: httpx.AsyncClient) -> None:
    """«Глоссарий не покрывает» must never stand next to cited sources."""
    for message in (
        "сколько памяти нужно Qwen 32B в FP8?",  # a calculation cites vram, fp8
        "что такое TPU?",  # not in the glossary: the nearest entries are cited
        "что такое NVLink?",
    ):
        data = await ask(agent, message=message)
        cited = {c["slug"] for c in data["citations"]}
        explained = {e["slug"] for e in data["evidence"] if e["sentences"]}
        assert cited <= explained, message
        if data["refused"] and cited:
            assert "ближайшие статьи" in data["handoff_reason"]


async def test_calculations_carry_the_display_block(agent: httpx.AsyncClient) -> None:
    data = await ask(agent, message="поместится ли Llama 3 70B в FP8 на H100?")
    calc, *remedies = data["calculations"]  # the asked calculation first, then what would help
    assert calc["arguments"]["precision"] == "fp8" and remedies
    asked = ("fp8", "h100-sxm")  # each remedy changes the precision or takes a larger card
    assert all((r["arguments"]["precision"], r["arguments"]["gpu"]) != asked for r in remedies)
    assert calc["result"]["values"]["gpu"] == "h100-sxm"  # raw kept for integrations
    assert calc["display"]["title"] == "Подбор GPU" and calc["display"]["table"]["rows"]
    assert {"text": "Есть расчёт", "tone": "info"} in data["badges"]


async def test_pasted_helpdesk_thread_is_the_history(agent: httpx.AsyncClient) -> None:
    thread = (
        "Иван Петров, 10:31\n"
        "Сколько видеопамяти нужно для модели 70B в BF16?\n"
        "Оператор Мария, 10:32\n"
        "Около 140 ГБ под веса.\n"
    )
    data = await ask(agent, message="а в FP8?", thread_text=thread)
    assert data["thread_warning"] == "" and data["thread_turns"] == 2
    assert data["calculations"][0]["arguments"]["precision"] == "fp8"
    assert data["calculations"][0]["arguments"]["params_b"] == 70  # carried from the thread


async def test_the_last_customer_line_of_a_pasted_thread_is_the_message(
    agent: httpx.AsyncClient,
) -> None:
    thread = "клиент: сколько памяти нужно 70B в BF16?\nоператор: около 140 ГБ\nклиент: а в FP4?"
    data = await ask(agent, thread_text=thread)
    assert data["thread_turns"] == 2
    assert data["calculations"][0]["arguments"]["precision"] == "fp4"


async def test_unreadable_thread_gives_a_warning(agent: httpx.AsyncClient) -> None:
    data = await ask(agent, message="что такое NVLink?", thread_text="бла бла\nбез формата")
    assert data["thread_warning"].startswith("Не удалось разобрать переписку")
    assert data["thread_turns"] == 0 and data["citations"][0]["slug"] == "nvlink"


async def test_pasted_refund_thread_is_handed_off(agent: httpx.AsyncClient) -> None:
    thread = (
        "[10:31] Иван Петров: Сервер не работал три дня\n"
        "[10:32] Мария (поддержка): Проверяем\n"
        "[10:40] Иван Петров: Верните деньги за прошлый месяц!"
    )
    data = await ask(agent, thread_text=thread)
    assert data["handoff"] is True and data["calculations"] == []
