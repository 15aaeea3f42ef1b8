"""The console (/admin) in headless Chromium at 1280 and 390 px against the real engine: signing
in, the charts, content gaps, search and filters, one conversation, the export download and a
deletion — with no key in a URL or in storage, no ids, codes or dumps on screen."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from pydantic import SecretStr

from assistant.settings import Settings
from assistant.storage.sqlite import SqliteRepository
from tests.api.live import app_settings, live_server, make_app
from tests.browser.conftest import SIZES, assert_fits_width, raw_leaks, snake_keys
from tests.console.seed import HISTORY, seed

pytestmark = [pytest.mark.browser, pytest.mark.slow]
KEY = "console-key-7f2a9c"
HEX_ID = re.compile(r"\b[0-9a-f]{32}\b")


@pytest.fixture(scope="module")
def console(
    settings: Settings, pipeline: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    db = tmp_path_factory.mktemp("console") / "db.sqlite3"
    repo = SqliteRepository(db)
    seed(repo, pipeline)
    repo.close()
    s = app_settings(settings, db, rate_limit_per_minute=0, admin_api_key=SecretStr(KEY))
    with live_server(make_app(pipeline, s)) as base:
        yield base


def sign_in(page: Any, base: str, urls: list[str]) -> None:
    page.context.clear_cookies()  # a session of an earlier test would skip the sign-in
    page.on("request", lambda request: urls.append(request.url))
    page.goto(base + "/admin")
    page.get_by_label("Ключ администратора").fill(KEY)
    page.get_by_role("button", name="Войти").click()
    page.locator("#chart-outcomes svg rect[data-series]").first.wait_for()


def shot(page: Any, shots: Path, name: str) -> None:
    """Into test-output/browser (docs/screenshots/ holds copies of a reviewed run)."""
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)


def assert_readable(page: Any, ids: list[str]) -> None:
    text = page.locator("body").inner_text()
    assert raw_leaks(text, ids) == [], raw_leaks(text, ids)
    assert snake_keys(text) == [] and HEX_ID.findall(text) == []
    assert "{" not in text and "null" not in text and KEY not in text


@pytest.mark.parametrize("size", SIZES)
def test_sign_in_overview_and_gaps(
    page: Any, browser: Any, console: str, shots: Path, catalogue_ids: list[str], size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    urls: list[str] = []
    sign_in(page, console, urls)
    for chart in ("conversations", "outcomes", "feedback", "generator"):
        assert page.locator(f"#chart-{chart} svg rect[data-series]").count() > 0, chart
    assert page.locator("#chart-latency svg path.fc-line").count() == 2
    kpi = page.locator(".fc-kpi").first
    assert kpi.locator(".fc-kpi-value").inner_text() == str(
        len({(a.channel, a.chat or a.question) for a in HISTORY})
    )
    assert "Ответил сам" in page.locator("#chart-outcomes figcaption + * .fc-legend").inner_text()
    assert page.locator("#by-channel tbody tr").count() == 4
    assert_fits_width(page)
    assert_readable(page, catalogue_ids)
    shot(page, shots, f"console-overview-{size}")

    page.get_by_label("Канал").select_option(label="Telegram")
    expect(page.locator("#by-channel tbody tr")).to_have_count(1)
    expect(page.locator(".fc-kpi-value").first).to_have_text("3")
    page.get_by_label("Канал").select_option(label="Все каналы")

    page.get_by_role("tab", name="Пробелы в глоссарии").click()
    first = page.locator(".fc-gap").first
    first.wait_for()
    assert "борщ" in page.locator("#gap-list").inner_text()
    assert first.locator(".fc-nearest a").count() == 3 and first.locator(".fc-score").count() == 3
    assert_fits_width(page)
    assert_readable(page, catalogue_ids)
    shot(page, shots, f"console-gaps-{size}")

    # the key went in one POST body: no URL, no storage, no readable cookie holds it
    assert all(KEY not in url for url in urls) and KEY not in page.url
    assert page.evaluate("localStorage.length + sessionStorage.length") == 0
    [cookie] = [c for c in browser.cookies() if c["name"] == "fg_console"]
    assert (
        cookie["httpOnly"] is True and cookie["sameSite"] == "Strict" and KEY not in cookie["value"]
    )
    assert page.evaluate("document.cookie") == ""  # HttpOnly: scripts cannot read it
    page.get_by_role("button", name="Выйти").click()
    page.get_by_label("Ключ администратора").wait_for()
    assert [c for c in browser.cookies() if c["name"] == "fg_console"] == []
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_conversations_filters_one_conversation_and_export(
    page: Any, console: str, shots: Path, catalogue_ids: list[str], size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    sign_in(page, console, [])
    page.get_by_role("tab", name="Разговоры").click()
    rows = page.locator(".fc-row")
    rows.first.wait_for()
    assert rows.count() == len({(a.channel, a.chat or a.question) for a in HISTORY})

    page.get_by_label("Поиск по тексту").fill("борщ")
    page.get_by_role("button", name="Найти").click()
    page.get_by_text("Показано 2 из 2").wait_for()
    assert all("борщ" in t.lower() for t in rows.all_inner_texts())
    page.get_by_label("Поиск по тексту").fill("")
    page.locator("#outcome").select_option(label="Передано людям")
    page.get_by_role("button", name="Найти").click()
    page.get_by_text("Показано 1 из 1").wait_for()
    page.locator("#outcome").select_option(label="Любой")
    page.locator("#feedback").select_option(label="С оценкой «не помогло»")
    page.get_by_role("button", name="Найти").click()
    page.get_by_text("Показано 3 из 3").wait_for()
    page.locator("#feedback").select_option(label="Любая")

    page.get_by_label("Поиск по тексту").fill("нужно для 70B в FP8")
    page.get_by_role("button", name="Найти").click()
    page.get_by_text("Показано 1 из 1").wait_for()
    rows.first.click()
    answer = page.locator(".fc-assistant").first
    answer.wait_for()
    assert answer.locator(".fg-calc").count() == 1  # the calculation, drawn as for customers
    facts = answer.locator(".fc-facts").inner_text()
    assert "Генератор" in facts and "Встроенный генератор" in facts and "Время ответа" in facts
    assert answer.locator(".fg-sources a").count() >= 1 and "полезно" in answer.inner_text()
    assert_fits_width(page)
    assert_readable(page, catalogue_ids)
    shot(page, shots, f"console-conversation-{size}")

    page.get_by_role("tab", name="Выгрузка").click()
    with page.expect_download() as done:
        page.get_by_role("link", name="Скачать").click()
    download = done.value
    assert re.fullmatch(
        r"assistant-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv", download.suggested_filename
    )
    text = Path(download.path()).read_text("utf-8-sig")
    table = list(csv.reader(io.StringIO(text)))
    assert table[0][:4] == ["Время вопроса", "Разговор", "Канал", "Вопрос"]
    assert len(table) - 1 == len(HISTORY) and {r[2] for r in table[1:]} >= {"Виджет", "Telegram"}
    page.get_by_label("JSONL — для программ").check()
    with page.expect_download() as done:
        page.get_by_role("link", name="Скачать").click()
    assert done.value.suggested_filename.endswith(".jsonl")
    assert page.errors == []


def test_deleting_from_the_console_removes_it_from_list_and_export(page: Any, console: str) -> None:
    page.set_viewport_size(SIZES["desktop"])
    sign_in(page, console, [])
    page.get_by_role("tab", name="Разговоры").click()
    page.get_by_label("Поиск по тексту").fill("Gaudi 3 от Intel")
    page.get_by_role("button", name="Найти").click()
    page.get_by_text("Показано 1 из 1").wait_for()
    page.locator(".fc-row").first.click()
    page.locator(".fc-assistant").first.wait_for()
    page.get_by_role("button", name="Удалить разговор").click()
    page.get_by_role("button", name="Отмена").click()  # nothing happens
    page.get_by_role("button", name="Удалить разговор").click()
    page.get_by_role("button", name="Удалить", exact=True).click()
    page.get_by_text("Разговор удалён").wait_for()
    page.get_by_role("button", name="Найти").click()
    page.get_by_text("Ничего не нашлось").wait_for()
    page.get_by_role("tab", name="Выгрузка").click()
    with page.expect_download() as done:
        page.get_by_role("link", name="Скачать").click()
    exported = Path(done.value.path()).read_text("utf-8-sig")
    assert "Gaudi 3 от Intel" not in exported and "что такое NVLink?" in exported
    assert page.errors == []
