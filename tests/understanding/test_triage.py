"""Billing, refunds, complaints, outages, legal and account questions go to a person."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.answer.edges import handoff_reason, handoff_teams
from assistant.understanding.triage import triage

REFUND = "Верните деньги за прошлый месяц, сервер не работал три дня!"


@pytest.mark.parametrize(
    ("message", "topics"),
    [
        (REFUND, ("refund", "outage")),
        ("Третий день не можем зайти на сервер, верните деньги за простой.", ("refund", "outage")),
        ("почему с меня списали два раза за один заказ", ("billing",)),
        ("пришлите счёт на оплату для бухгалтерии", ("billing",)),
        ("хочу пожаловаться на вашу поддержку", ("complaint",)),
        ("вы нас обманули с мощностью карты", ("complaint",)),
        ("не могу войти в личный кабинет, забыл пароль", ("account",)),
        ("нужен договор с юрлицом", ("legal",)),
        ("сервер лежит уже час, ssh не отвечает", ("outage",)),
        ("сервер упал с ошибкой и недоступен уже час", ("outage",)),
        ("как удалить аккаунт", ("account",)),
    ],
)
def test_people_decide_these(message: str, topics: tuple[str, ...]) -> None:
    handoff = triage(message)
    assert handoff is not None and handoff.topics == topics
    assert handoff_reason(handoff).endswith(f"Передать специалисту ({handoff_teams(handoff)}).")


@pytest.mark.parametrize(
    "message",
    [
        "что такое NVLink?",
        "за счёт чего NVLink быстрее PCIe",  # «за счёт» is not an invoice
        "сколько стоит аренда 8 H100 на неделю?",
        "простой способ посчитать видеопамять",  # «простой» is not downtime
        "какой баланс между батчем и латентностью",
        "закон Мура для GPU ещё работает?",
        "почему моя карта не работает в режиме MIG",
        "сколько GPU-часов в месяце",
        "сколько стоит H100 в месяц и сколько это в час",
        "на 4 H100 с 20 декабря по 10 января — какой выйдет счёт?",  # a cost question
        "делаем ассистента для юристов на Llama 3 8B — сколько нужно памяти?",
        # a vendor's marketing figure, not the service: the AI TOPS entry answers it
        "на 5090 нвидиа пишет 3352 AI TOPS, а у нас и близко нет. нас обманули?",
        # the customer's own service ran out of memory: a problem, not the server down
        "инференс-сервис упал с OOM, когда рядом запустили обучение — почему?",
        "сервис падает по памяти на длинных промптах",
    ],
)
def test_glossary_questions_are_not_triaged(message: str) -> None:
    assert triage(message) is None


def test_refund_is_handed_off_without_a_calculation(pipeline: Any) -> None:
    a = pipeline.answer(REFUND)
    assert a.tool_calls == [] and a.citations == []
    assert a.refused and a.meta.handoff and a.meta.confidence == "low"
    assert "Возврат денег" in a.meta.handoff_reason and "инциденты" in a.meta.handoff_reason
    assert "специалист" in a.answer and "GPU-час" not in a.answer


def test_a_cost_question_still_calculates(pipeline: Any) -> None:
    a = pipeline.answer("сколько стоит аренда 8 H100 на три дня?")
    assert a.route == "numeric" and a.tool_calls[0].name == "gpu_cost"
