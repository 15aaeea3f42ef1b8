"""Repositories under test: SQLite in a temp dir always; PostgreSQL when a DSN is given."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant.storage import Repository

PG_DSN = os.environ.get("ASSISTANT_TEST_POSTGRES_DSN", "")
PG_SKIP = (
    "PostgreSQL tests need a server: export ASSISTANT_TEST_POSTGRES_DSN="
    '"$(scripts/start_postgres.sh)"'
)


def _fresh_postgres() -> Repository:
    import psycopg

    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS feedback, messages, conversations, gap_vectors")
    from assistant.storage.postgres import PostgresRepository

    return PostgresRepository(PG_DSN)


@pytest.fixture(params=["sqlite", "postgres"])
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Repository]:
    if request.param == "postgres":
        if not PG_DSN:
            pytest.skip(PG_SKIP)
        repository = _fresh_postgres()
    else:
        from assistant.storage.sqlite import SqliteRepository

        repository = SqliteRepository(tmp_path / "db.sqlite3")
    yield repository
    repository.close()
