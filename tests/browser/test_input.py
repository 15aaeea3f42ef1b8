"""What the widget tells a person about their input: a counter against the server's own limit,
the server's errors in the chat (too long, rate-limited), a hint on an empty send, a placeholder
that fits, and feedback that says thank you — with a comment that reaches `assistant report`."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.conftest import ANSWER, PHONE, SIZES, ask, open_demo
from tests.helpers import report

pytestmark = [pytest.mark.browser, pytest.mark.slow]
ERROR = ".fg-msg.fg-error"


def plain(text: str) -> str:
    """«3 000» is written with a no-break space in Russian."""
    return text.replace("\u00a0", " ").replace("\u202f", " ").strip()


def test_too_long_message_shows_the_servers_error(page: Any, server: str) -> None:
    open_demo(page, server)
    page.get_by_role("button", name="Новый разговор").click()
    box = page.get_by_label("Ваш вопрос")
    assert box.get_attribute("maxlength") is None  # never cut a paste silently
    text = ("Сколько видеопамяти нужно для Llama 3 70B в FP8 с контекстом 32k? " * 50)[:2999] + "!"
    box.fill(text)
    assert plain(page.locator(".fg-count").inner_text()) == "3 000 / 2 000"
    assert "fg-bad" in (page.locator(".fg-count").get_attribute("class") or "")
    assert "Слишком длинно" in page.locator("#fg-hint").inner_text()

    page.keyboard.press("Enter")
    page.locator(ERROR).wait_for()
    expected = httpx.post(server + "/v1/chat", json={"message": text}).json()["error"]["message"]
    assert "Сообщение слишком длинное (3000 символов, максимум 2000)" in expected
    assert page.locator(ERROR).locator(".fg-text").inner_text().strip() == expected
    assert box.input_value() == text  # kept in full, to shorten and resend
    assert page.locator(".fg-msg.fg-user").count() == 0
    assert page.errors == []


def test_counter_follows_the_servers_limit(page: Any, limited_server: str) -> None:
    open_demo(page, limited_server, **PHONE)
    counter = page.locator(".fg-count")
    page.get_by_label("Ваш вопрос").fill("что такое NVLink?")
    assert plain(counter.inner_text()) == "17 / 300"
    page.get_by_label("Ваш вопрос").fill("я" * 301)
    assert plain(counter.inner_text()) == "301 / 300"
    assert counter.is_visible()


def test_empty_send_shows_a_hint(page: Any, server: str) -> None:
    open_demo(page, server, **PHONE)
    before = page.locator(".fg-msg").count()
    page.get_by_label("Ваш вопрос").fill("   ")
    page.get_by_role("button", name="Отправить").click()
    hint = page.locator("#fg-hint")
    assert hint.is_visible() and "Напишите вопрос" in hint.inner_text()
    assert page.locator(".fg-msg").count() == before
    page.get_by_label("Ваш вопрос").type("что")
    assert hint.is_hidden()


def test_rate_limit_shows_the_wait(page: Any, limited_server: str) -> None:
    open_demo(page, limited_server)
    page.get_by_role("button", name="Новый разговор").click()
    ask(page, "что такое NVLink?")  # the one question this minute allows
    page.get_by_label("Ваш вопрос").fill("а что такое NVSwitch?")
    page.keyboard.press("Enter")
    error = page.locator(ERROR)
    error.wait_for()
    assert "Повторите через" in error.inner_text() and " с" in error.inner_text()
    send = page.locator(".fg-send")
    assert send.is_disabled() and send.inner_text().startswith("Через ")
    assert page.get_by_label("Ваш вопрос").input_value() == "а что такое NVSwitch?"


@pytest.mark.parametrize("size", SIZES)
def test_placeholder_fits(page: Any, server: str, size: str) -> None:
    open_demo(page, server, **SIZES[size])
    box = page.get_by_label("Ваш вопрос")
    box.fill("")
    placeholder = box.get_attribute("placeholder")
    assert placeholder
    # put the placeholder in as text without an input event: the box must already be big enough
    need = box.evaluate(
        "(t) => { t.value = t.placeholder; const r = [t.scrollHeight, t.clientHeight,"
        " t.scrollWidth, t.clientWidth]; t.value = ''; return r; }"
    )
    assert need[0] <= need[1] + 1 and need[2] <= need[3], need


def test_feedback_thanks_and_comment_reach_the_report(
    page: Any, server: str, server_db: Path
) -> None:
    open_demo(page, server)
    page.get_by_role("button", name="Новый разговор").click()
    liked = ask(page, "что такое NVLink?")
    liked.get_by_role("button", name="Полезно").click()
    liked.locator(".fg-thanks").filter(has_text="Спасибо!").wait_for()
    assert liked.locator(".fg-comment").count() == 0  # a comment is asked only on «Не помогло»

    disliked = ask(page, "чем HBM3e отличается от HBM4?")
    disliked.get_by_role("button", name="Не помогло").click()
    disliked.locator(".fg-thanks").filter(has_text="Спасибо!").wait_for()
    comment = f"не хватает цифр пропускной способности {uuid.uuid4().hex[:6]}"
    disliked.get_by_label("Комментарий к ответу").fill(comment)
    disliked.get_by_role("button", name="Отправить комментарий").click()
    disliked.locator('.fg-feedback[data-comment="sent"]').wait_for()
    assert "передан" in disliked.locator(".fg-thanks").inner_text()
    assert page.locator(ANSWER).count() >= 3
    assert comment in report(server_db, columns=220)
    assert page.errors == []
