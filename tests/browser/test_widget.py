"""The demo page and widget in headless Chromium against the real server: chat, links, feedback."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.conftest import ANSWER, ask, assert_fits_width, open_demo

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_chat_stream_citation_feedback_and_reload(page: Any, server: str, shots: Path) -> None:
    open_demo(page, server)
    page.get_by_role("button", name="Новый разговор").click()
    answer = ask(page, "Что такое NVLink и зачем он нужен?")
    assert "NVLink" in answer.locator(".fg-text").inner_text()
    link = answer.locator(".fg-sources a").first
    assert link.inner_text() == "NVLink"
    href = link.get_attribute("href")
    assert href == server + "/glossary/nvlink"
    entry = httpx.get(href, timeout=30)
    assert entry.status_code == 200 and "Высокоскоростной интерконнект" in entry.text

    calc = ask(page, "сколько видеопамяти нужно для 70B в FP8?")
    calc.locator(".fg-tool summary").click()
    assert calc.locator(".fg-tool table tr").count() >= 3
    page.screenshot(path=str(shots / "widget-desktop.png"))

    thumbs_up = answer.get_by_role("button", name="Полезно")
    thumbs_up.click()
    answer.locator('.fg-feedback[data-sent="1"]').wait_for()
    assert thumbs_up.get_attribute("aria-pressed") == "true"

    page.reload()
    page.locator("#fg-panel").wait_for(state="visible")
    restored = page.locator(ANSWER).filter(has_text="NVLink")
    restored.first.locator(".fg-feedback").wait_for()
    assert page.locator(".fg-msg.fg-user .fg-text").all_inner_texts()[:2] == [
        "Что такое NVLink и зачем он нужен?",
        "сколько видеопамяти нужно для 70B в FP8?",
    ]
    pressed = restored.first.get_by_role("button", name="Полезно")
    assert pressed.get_attribute("aria-pressed") == "true"
    assert page.errors == []


def test_xss_payload_renders_as_text(page: Any, server: str, shots: Path) -> None:
    open_demo(page, server)
    page.get_by_role("button", name="Новый разговор").click()
    page.evaluate("window.__pwned = false")
    payload = '<img src=x onerror="window.__pwned=true"><script>window.__pwned=true</script>'
    ask(page, payload)
    user = page.locator(".fg-msg.fg-user").last
    assert user.locator(".fg-text").inner_text() == payload
    assert page.locator(".fg-root img").count() == 0 and page.locator(".fg-log script").count() == 0
    assert page.evaluate("window.__pwned") is False
    page.screenshot(path=str(shots / "widget-xss.png"))


def test_phone_width_keyboard_and_new_conversation(page: Any, server: str, shots: Path) -> None:
    open_demo(page, server, width=390, height=844)
    panel = page.locator("#fg-panel").bounding_box()
    assert panel["width"] == pytest.approx(390, abs=1)  # full width on a phone
    ask(page, "чем HBM отличается от GDDR7?")
    page.screenshot(path=str(shots / "widget-phone.png"))
    page.keyboard.press("Escape")
    assert page.locator("#fg-panel").is_hidden()
    toggle = page.get_by_role("button", name="Спросить ассистента")
    assert toggle.get_attribute("aria-expanded") == "false"
    toggle.focus()
    page.keyboard.press("Enter")
    assert page.locator("#fg-panel").is_visible()
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Ваш вопрос"
    page.get_by_role("button", name="Новый разговор").click()
    assert page.locator(".fg-msg.fg-user").count() == 0
    assert page.evaluate("Object.keys(localStorage).length") == 0
    assert re.search("Здравствуйте", page.locator(ANSWER).first.inner_text())


def test_agent_page_drafts_and_copies(page: Any, server: str, shots: Path) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(server + "/agent")
    page.get_by_label("Сообщение клиента").fill("что такое NVLink")
    page.get_by_role("button", name="Подготовить ответ").click()
    page.locator("#status").filter(has_text="ASSISTANT_AGENT_API_KEY").wait_for()
    page.screenshot(path=str(shots / "agent-disabled.png"))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_delete_conversation_asks_once_then_deletes_it_on_the_server(
    page: Any, server: str, shots: Path, size: str
) -> None:
    from tests.browser.conftest import SIZES

    open_demo(page, server, **SIZES[size])
    page.get_by_role("button", name="Новый разговор").click()
    forget = page.get_by_role("button", name="Удалить разговор")
    assert not forget.is_visible()  # nothing stored yet: nothing to delete
    ask(page, "что такое NVLink?")
    session = page.evaluate("Object.keys(localStorage).map(k => localStorage[k])[0]")
    assert httpx.get(f"{server}/v1/sessions/{session}", timeout=30).status_code == 200
    forget.click()
    page.get_by_role("button", name="Отмена").click()  # changed their mind: nothing happens
    assert httpx.get(f"{server}/v1/sessions/{session}", timeout=30).status_code == 200
    forget.click()
    page.get_by_text("Удалить этот разговор с сервера?").wait_for()
    page.screenshot(path=str(shots / f"widget-forget-{size}.png"))
    page.get_by_role("button", name="Удалить", exact=True).click()
    page.get_by_text("Разговор удалён").wait_for()
    assert httpx.get(f"{server}/v1/sessions/{session}", timeout=30).status_code == 404
    assert page.locator(".fg-msg.fg-user").count() == 0 and not forget.is_visible()
    assert page.evaluate("Object.keys(localStorage).length") == 0
    page.reload()
    page.locator("#fg-panel").wait_for(state="visible")
    assert page.locator(".fg-msg.fg-user").count() == 0  # nothing comes back after a reload
    assert_fits_width(page)
    assert page.errors == []
