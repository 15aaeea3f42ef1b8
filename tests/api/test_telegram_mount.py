"""With a bot token configured, the HTTP service exposes the Telegram webhook (secret checked)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from assistant.api import create_app
from assistant.storage import open_repository

pytestmark = pytest.mark.slow


async def test_webhook_route_is_mounted_and_checks_the_secret(
    pipeline: Any, settings: Any, tmp_path: Path
) -> None:
    s = settings.model_copy(
        update={
            "db_path": tmp_path / "db.sqlite3",
            "telegram_token": SecretStr("123456:TEST-token"),
            "telegram_webhook_secret": SecretStr("s3cret"),
        }
    )
    app = create_app(pipeline, s, open_repository(s))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        denied = await client.post("/telegram/webhook", json={"update_id": 1})
        assert denied.status_code == 403
        assert "TEST-token" not in denied.text
        bad = await client.post(
            "/telegram/webhook",
            content=b"not json",
            headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"},
        )
        assert bad.status_code == 400
