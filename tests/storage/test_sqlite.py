"""SQLite specifics: WAL, survival across reopen, the settings factory."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.errors import ConfigError
from assistant.settings import Settings
from assistant.storage import open_repository
from assistant.storage.sqlite import SqliteRepository
from tests.storage.test_repository import exchange


def test_wal_and_data_survive_reopen(tmp_path: Path) -> None:
    path = tmp_path / "a" / "db.sqlite3"
    repo = SqliteRepository(path)
    assert repo.journal_mode() == "wal"
    cid = repo.get_or_create_conversation("telegram", "7")
    mid = exchange(repo, cid, "что такое nvlink")
    repo.add_feedback(mid, 1)
    repo.close()

    again = SqliteRepository(path)
    assert again.get_or_create_conversation("telegram", "7") == cid
    assert [m.feedback for m in again.messages(cid)] == [None, 1]
    again.close()


def test_two_connections_to_one_file_see_each_other(tmp_path: Path) -> None:
    a, b = SqliteRepository(tmp_path / "db"), SqliteRepository(tmp_path / "db")
    cid = a.get_or_create_conversation("web", None)
    exchange(b, cid, "вопрос")
    assert len(a.history(cid)) == 2
    a.close()
    b.close()


def test_factory_picks_sqlite_by_default_and_rejects_unknown_urls(tmp_path: Path) -> None:
    settings = Settings(db_path=tmp_path / "x.sqlite3", _env_file=None)  # type: ignore[call-arg]
    repo = open_repository(settings)
    assert isinstance(repo, SqliteRepository) and (tmp_path / "x.sqlite3").exists()
    repo.close()
    url = Settings(database_url=f"sqlite:///{tmp_path}/y.db", _env_file=None)  # type: ignore[call-arg]
    repo = open_repository(url)
    assert isinstance(repo, SqliteRepository) and (tmp_path / "y.db").exists()
    repo.close()
    with pytest.raises(ConfigError):
        open_repository(Settings(database_url="mysql://u:secret@h/db", _env_file=None))  # type: ignore[call-arg]
