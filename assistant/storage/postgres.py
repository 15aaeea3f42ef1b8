"""A PostgreSQL DSN → the Repository (psycopg 3 connection pool; for several API replicas)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from assistant.errors import ConfigError, StorageError
from assistant.storage.base import SCHEMA, Cursor, SqlRepository


class _PgCursor:
    """Adapts `?` placeholders of the portable SQL to psycopg's `%s`."""

    def __init__(self, cur: Any) -> None:
        self._cur = cur

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._cur.execute(sql.replace("%", "%%").replace("?", "%s"), params)

    def fetchall(self) -> list[Any]:
        return list(self._cur.fetchall())

    def fetchone(self) -> Any:
        return self._cur.fetchone()


class PostgresRepository(SqlRepository):
    """Same schema and SQL as SQLite; `BIGSERIAL` orders messages; a pool serves threads."""

    def __init__(self, dsn: str, *, min_size: int = 1, max_size: int = 10) -> None:
        try:
            from psycopg_pool import ConnectionPool
        except ImportError as e:  # pragma: no cover - depends on the install
            raise ConfigError(
                "PostgreSQL needs the psycopg[binary] and psycopg-pool packages"
            ) from e
        self._pool = ConnectionPool(
            dsn, min_size=min_size, max_size=max_size, open=True, kwargs={"autocommit": False}
        )
        try:
            self._pool.wait(timeout=10.0)
        except Exception:
            self._pool.close()
            # the DSN may hold a password: never put it in the message
            message = "PostgreSQL по адресу из ASSISTANT_DATABASE_URL не отвечает (ждали 10 с)."
            raise ConfigError(message, user_message=message) from None
        with self._tx() as cur:  # replicas starting together must not race on CREATE TABLE
            cur.execute("SELECT pg_advisory_xact_lock(4242)")
            for statement in SCHEMA:
                cur.execute(statement.format(serial="BIGSERIAL PRIMARY KEY"))

    @contextmanager
    def _tx(self) -> Iterator[Cursor]:
        """One transaction; a failure of the server or the pool is a StorageError."""
        import psycopg
        from psycopg_pool import PoolTimeout

        try:
            with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                yield _PgCursor(cur)
        except (psycopg.Error, PoolTimeout) as e:
            # the message may quote the DSN's host: only the class goes into the error text
            raise StorageError(f"PostgreSQL: {type(e).__name__}") from e

    def close(self) -> None:
        self._pool.close()
