"""Browser fixtures: the real app under uvicorn on 127.0.0.1 and Debian's headless Chromium, and
the checks every page shares (nothing raw shown to a person, no sideways scrolling)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from assistant.settings import ROOT, Settings
from tests.api.live import app_settings, live_server, make_app

CHROMIUM = os.environ.get("ASSISTANT_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = ROOT / "test-output" / "browser"
AGENT_KEY = "k-browser-agent"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SIZES = {"desktop": DESKTOP, "phone": PHONE}  # parametrize("size", SIZES)
# what a developer dump looks like: reprs, snake_case result keys (`need_low_gb`), JS leftovers
_RAW = re.compile(
    r"\[object Object\]|\b[a-z]+(?:_[a-z]+)*_(?:gb|pct)\b|\bundefined\b|\bNaN\b|\{'|\['"
    r"|\bglossary:[a-z]"
)
_SNAKE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")


@pytest.fixture(scope="session")
def server_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("browser") / "db.sqlite3"


@pytest.fixture(scope="session")
def server(settings: Settings, pipeline: Any, server_db: Path) -> Iterator[str]:
    app = make_app(pipeline, app_settings(settings, server_db, rate_limit_per_minute=0))
    with live_server(app) as base:
        yield base


ANSWER = ".fg-msg.fg-assistant"


def ask(page: Any, question: str) -> Any:
    """Type a question into the widget, press Enter, wait for the finished answer."""
    before = page.locator(ANSWER).count()
    page.get_by_label("Ваш вопрос").fill(question)
    page.keyboard.press("Enter")
    last = page.locator(ANSWER).nth(before)
    last.locator(".fg-feedback").wait_for(timeout=20_000)  # appears after the `done` event
    return last


def open_demo(page: Any, server: str, width: int = 1280, height: int = 800) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(server + "/")
    page.locator("#fg-panel").wait_for(state="visible")


def _serve(settings: Settings, pipeline: Any, db: Path, **overrides: Any) -> Iterator[str]:
    app = make_app(pipeline, app_settings(settings, db, **overrides))
    with live_server(app) as base:
        yield base


@pytest.fixture(scope="session")
def agent_server(
    settings: Settings, pipeline: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """The same app with the support-agent helper switched on (key AGENT_KEY)."""
    db = tmp_path_factory.mktemp("browser-agent") / "db.sqlite3"
    yield from _serve(
        settings, pipeline, db, rate_limit_per_minute=0, agent_api_key=SecretStr(AGENT_KEY)
    )


@pytest.fixture(scope="session")
def limited_server(
    settings: Settings, pipeline: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """One question per minute and a 300-character limit: the widget must follow both."""
    db = tmp_path_factory.mktemp("browser-limited") / "db.sqlite3"
    yield from _serve(settings, pipeline, db, rate_limit_per_minute=1, max_message_chars=300)


@pytest.fixture(scope="session")
def catalogue_ids() -> list[str]:
    from tests.helpers import CATALOG

    return sorted({*CATALOG.gpus, *CATALOG.models})


def raw_leaks(text: str, ids: list[str]) -> list[str]:
    """Everything in `text` a person should never see: reprs, result keys, catalogue ids."""
    found = _RAW.findall(text)
    found += [i for i in ids if re.search(rf"(?<![\w.-]){re.escape(i)}(?![\w-])", text)]
    return found


def snake_keys(text: str) -> list[str]:
    return _SNAKE.findall(text)


def assert_fits_width(page: Any) -> None:
    """No sideways scrolling: the document is no wider than the viewport."""
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"page is {width[0]} px wide in a {width[1]} px viewport"


@pytest.fixture(
    scope="module"
)  # sync Playwright keeps an event loop running: end it with the module
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} missing: run scripts/install_browser.sh")
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="fg-chromium-")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=ARGS, headless=True, locale="ru-RU"
        )
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    yield page
    page.close()


@pytest.fixture(scope="session")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
