"""Browser fixtures: the real app under uvicorn on 127.0.0.1 and Debian's headless Chromium."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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


@pytest.fixture(scope="session")
def server(
    settings: Settings, pipeline: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    db = tmp_path_factory.mktemp("browser") / "db.sqlite3"
    app = make_app(pipeline, app_settings(settings, db, rate_limit_per_minute=0))
    with live_server(app) as base:
        yield base


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
