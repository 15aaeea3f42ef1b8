"""The support-agent page (/agent) against the real server: handoff with its reason, confidence
in words, readable collapsed calculations, a warning for an unreadable thread, the key kept in
sessionStorage only; and the calculation renderer (display.js) against the DISPLAY contract."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import (
    AGENT_KEY,
    DESKTOP,
    PHONE,
    SIZES,
    assert_fits_width,
    raw_leaks,
    snake_keys,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]
REFUND = "Верните деньги за прошлый месяц, сервер не работал три дня!"
THREAD = (
    "Клиент: Добрый день! Наш сервер с H100 не отвечает с понедельника.\n"
    "Оператор: Здравствуйте! Проверяем, подождите, пожалуйста."
)


def suggest(page: Any, base: str, message: str, thread: str = "", key: str = AGENT_KEY) -> Any:
    page.goto(base + "/agent")
    page.get_by_label("Ключ оператора").fill(key)
    page.get_by_label("Сообщение клиента").fill(message)
    page.get_by_label("Переписка до этого").fill(thread)
    page.get_by_role("button", name="Подготовить ответ").click()
    page.locator('#result[data-state="done"]').wait_for(timeout=30_000)
    return page.locator("#result")


def check_words(result: Any, ids: list[str]) -> None:
    text = result.inner_text()
    assert raw_leaks(text, ids) == [] and snake_keys(text) == []
    for internal in ("генератор", "embedded", "уверенность: high", "вход:", "high", "medium"):
        assert internal not in text.lower(), internal
    assert result.locator(".fg-badge").first.inner_text().startswith("Уверенность: ")
    assert result.locator("#confidence").inner_text().strip()  # the level explained in words


@pytest.mark.parametrize("size", SIZES)
def test_refund_thread_is_handed_off(
    page: Any, agent_server: str, shots: Path, catalogue_ids: list[str], size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    result = suggest(page, agent_server, REFUND, THREAD)
    handoff = result.locator("#handoff")
    assert handoff.is_visible()
    assert re.match(r"Передать специалисту:\s*\w", handoff.inner_text()), handoff.inner_text()
    assert result.locator(".fg-calc").count() == 0  # no GPU-hours for a refund
    assert "высокая" not in result.locator(".fg-badge").first.inner_text()
    assert result.locator("#thread-warning").is_hidden()  # the thread was read
    check_words(result, catalogue_ids)
    assert_fits_width(page)
    page.screenshot(path=str(shots / f"agent-handoff-{size}.png"), full_page=True)
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_calculation_is_a_collapsed_readable_table(
    page: Any, agent_server: str, shots: Path, catalogue_ids: list[str], size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    result = suggest(page, agent_server, "на какую GPU поместится Llama 3 70B в FP8?")
    assert result.locator("#handoff").is_hidden()
    calcs = result.locator("#calcs .fg-calc")
    assert calcs.count() >= 1
    assert all(d.evaluate("d => d.open") is False for d in calcs.locator("details").all())
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < (2000 if size == "desktop" else 3200), height  # was 5 400 px of JSON
    if "[1]" in result.locator("#draft").inner_text():
        assert "не покрывает" not in result.inner_text()
    calcs.first.locator("summary").click()
    gpus = calcs.first.locator(".fg-calc-options tbody tr")
    assert gpus.count() >= 3
    check_words(result, catalogue_ids)
    assert_fits_width(page)  # the page must not widen after a submit
    page.screenshot(path=str(shots / f"agent-fit-{size}.png"), full_page=True)


def test_unreadable_thread_is_flagged(page: Any, agent_server: str) -> None:
    page.set_viewport_size(PHONE)
    result = suggest(
        page, agent_server, "что такое NVLink?", "привет, у нас проблема\nсервер лежит"
    )
    warning = result.locator("#thread-warning")
    assert warning.is_visible() and warning.inner_text().strip()
    assert_fits_width(page)


def test_helpdesk_export_is_read_as_the_conversation(page: Any, agent_server: str) -> None:
    export = (
        "Иван Петров, 10:31\n"
        "Добрый день! Сколько видеопамяти нужно для Llama 3 70B?\n"
        "Оператор Мария, 10:32\n"
        "Здравствуйте, Иван! Около 140 ГБ в BF16."
    )
    result = suggest(page, agent_server, "А если в FP8?", export)
    assert result.locator("#thread-warning").is_hidden()
    calc = result.locator("#calcs .fg-calc")
    assert calc.count() >= 1
    assert "Llama 3" in calc.first.inner_text()  # the model came from the pasted thread


def test_key_stays_in_session_storage(page: Any, agent_server: str, browser: Any) -> None:
    page.set_viewport_size(DESKTOP)
    with page.expect_request("**/v1/suggest") as sent:
        suggest(page, agent_server, "что такое NVLink?")
    assert sent.value.headers.get("x-api-key") == AGENT_KEY
    assert AGENT_KEY not in sent.value.url and AGENT_KEY not in page.url
    stored = page.evaluate("[JSON.stringify(localStorage), JSON.stringify(sessionStorage)]")
    assert AGENT_KEY not in stored[0] and AGENT_KEY in stored[1]
    assert all(AGENT_KEY not in c["value"] for c in browser.cookies())
    page.reload()
    assert page.get_by_label("Ключ оператора").input_value() == AGENT_KEY  # same tab
    other = browser.new_page()  # another tab starts without it
    other.goto(agent_server + "/agent")
    assert other.get_by_label("Ключ оператора").input_value() == ""
    other.close()
    page.get_by_role("button", name="Забыть ключ").click()
    assert page.evaluate("sessionStorage.length") == 0


# the example of the DISPLAY contract, plus values a renderer must not print
CONTRACT: dict[str, Any] = {
    "title": "Подбор GPU",
    "headline": "Llama 3 70B в FP8: около 77–92 ГБ — поместится на одну H200 (141 ГБ).",
    "inputs": [
        {"label": "Модель", "value": "Llama 3 70B"},
        {"label": "Точность весов", "value": "FP8"},
        {"label": "Сломанное", "value": {"gpu": "h100-sxm"}},
    ],
    "rows": [
        {"label": "Веса", "value": "70,6 ГБ", "note": "70,6 млрд × 1 байт (FP8)", "strong": False},
        {"label": "KV-кэш", "value": "1,3 ГБ", "note": "4 096 токенов × 1 запрос", "strong": False},
        {"label": "Запас 10–30 %", "value": "7,2–21,6 ГБ", "note": "", "strong": False},
        {"label": "Итого", "value": "77–92 ГБ", "note": "", "strong": True},
    ],
    "table": {
        "caption": "Варианты GPU",
        "columns": ["GPU", "Память", "Нужно GPU", "На одну карту?"],
        "rows": [["H200", "141 ГБ", "1", "да"], ["H100 SXM", "80 ГБ", "2", {"x": 1}]],
    },
    "assumptions": ["Контекст 4 096 токенов — по умолчанию", None, ["вложенный"]],
    "source": "Расчёт: калькулятор VRAM",
}


def test_renderer_follows_the_display_contract(page: Any, agent_server: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(agent_server + "/agent")
    page.evaluate(
        "(d) => { const n = fgDisplay.render(d); n.id = 'probe'; document.body.append(n);"
        " window.__empty = [fgDisplay.render(undefined), fgDisplay.render({}),"
        " fgDisplay.render('x')]; }",
        json.loads(json.dumps(CONTRACT)),
    )
    assert page.evaluate("window.__empty") == [None, None, None]
    probe = page.locator("#probe")
    assert probe.locator(".fg-calc-headline").inner_text() == CONTRACT["headline"]
    assert probe.locator("details").evaluate("d => d.open") is False
    probe.locator("summary").click()
    assert probe.locator(".fg-calc-inputs tr").count() == 2  # the object value is dropped
    assert probe.locator(".fg-calc-rows tr.fg-strong").inner_text().split() == [
        "Итого",
        "77–92",
        "ГБ",
    ]
    assert probe.locator(".fg-calc-rows .fg-calc-note").first.inner_text().startswith("70,6 млрд")
    table = probe.locator(".fg-calc-options")
    assert table.locator("thead th").all_inner_texts() == CONTRACT["table"]["columns"]
    assert table.locator("tbody tr").count() == 2
    assert probe.locator(".fg-calc-assumptions li").count() == 1
    assert "[object Object]" not in probe.inner_text() and "h100-sxm" not in probe.inner_text()
    assert_fits_width(page)
