"""API fixtures: the real pipeline once per run; a fresh app + SQLite database per test.

client: no rate limit, no agent key; agent: the support-agent key «k-123» is configured.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from assistant.settings import Settings
from tests.api.live import app_settings, make_app


@pytest.fixture
def api_settings(settings: Settings, tmp_path: Path) -> Settings:
    return app_settings(settings, tmp_path / "api.sqlite3", rate_limit_per_minute=0)


@pytest.fixture
def app(pipeline: Any, api_settings: Settings) -> Any:
    return make_app(pipeline, api_settings)


@pytest.fixture
async def client(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        yield c


@pytest.fixture
async def agent(
    pipeline: Any, settings: Settings, tmp_path: Path
) -> AsyncIterator[httpx.AsyncClient]:
    s = app_settings(settings, tmp_path / "db", agent_api_key=SecretStr("k-123"))
    transport = httpx.ASGITransport(app=make_app(pipeline, s))
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        yield c
