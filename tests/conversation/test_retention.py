"""ASSISTANT_RETENTION_DAYS: the running service deletes what is older by itself; 0 keeps all;
a failing database is retried, never fatal."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from assistant.conversation.retention import Retention
from assistant.settings import Settings
from assistant.storage.forget import Purged
from assistant.storage.sqlite import SqliteRepository
from tests.api.live import app_settings, live_server, make_app
from tests.storage.test_forget import _backdate, _talk


def _seed(path: Path) -> tuple[str, str]:
    repo = SqliteRepository(path)
    old = repo.get_or_create_conversation("web", None)
    _talk(repo, old, "вопрос полугодовой давности")
    _backdate(repo, old, 180)
    new = repo.get_or_create_conversation("web", None)
    _talk(repo, new, "вчерашний вопрос")
    _backdate(repo, new, 1)
    repo.close()
    return old, new


def test_the_running_service_deletes_older_conversations_itself(
    fast_pipeline: Any, settings: Settings, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    old, new = _seed(db)
    app = make_app(fast_pipeline, app_settings(settings, db, retention_days=90))
    with live_server(app) as base, httpx.Client(base_url=base) as client:
        deadline = time.monotonic() + 10
        while client.get(f"/v1/sessions/{old}").status_code != 404:
            assert time.monotonic() < deadline, "the old conversation was not deleted"
            time.sleep(0.05)
        assert client.get(f"/v1/sessions/{new}").status_code == 200


def test_zero_days_keeps_everything(fast_pipeline: Any, settings: Settings, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    old, _ = _seed(db)
    app = make_app(fast_pipeline, app_settings(settings, db, retention_days=0))
    with live_server(app) as base, httpx.Client(base_url=base) as client:
        time.sleep(0.3)
        assert client.get(f"/v1/sessions/{old}").status_code == 200


class Broken:
    def __init__(self) -> None:
        self.calls = 0

    def purge(self, before: float) -> Purged:
        self.calls += 1
        raise ConnectionError("database is down")


async def test_a_failing_purge_is_logged_and_retried(caplog: pytest.LogCaptureFixture) -> None:
    broken = Broken()
    retention = Retention(broken, 30, interval_s=0.01)
    with caplog.at_level(logging.WARNING, "assistant.retention"):
        retention.start()
        while broken.calls < 3:
            await asyncio.sleep(0.01)
        await retention.stop()
    assert "purge failed (ConnectionError)" in caplog.text


def test_run_once_cuts_at_the_given_number_of_days(tmp_path: Path) -> None:
    old, new = _seed(tmp_path / "db.sqlite3")
    repo = SqliteRepository(tmp_path / "db.sqlite3")
    assert Retention(repo, 200).run_once() == Purged(0, 0)
    assert Retention(repo, 2).run_once().conversations == 1
    assert not repo.conversation_exists(old) and repo.conversation_exists(new)
    assert Retention(repo, 0.5).run_once().conversations == 1
    repo.close()
