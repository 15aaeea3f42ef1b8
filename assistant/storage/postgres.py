"""A PostgreSQL DSN → the Repository (psycopg 3 connection pool; for several API replicas)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from assistant.errors import ConfigError, StorageError
from assistant.storage.base import SCHEMA, Cursor, SqlRepository
from assistant.storage.console import SqlConsole
from assistant.storage.forget import SqlForget
from assistant.storage.migrate import POSTGRES, migrate
from assistant.storage.rows import AnswerCount, AnswerSummary, Percentiles, Span


class _PgCursor:
    """Adapts `?` placeholders of the portable SQL to psycopg's `%s`."""

    def __init__(self, cur: Any) -> None:
        self._cur = cur

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._cur.execute(sql.replace("%", "%%").replace("?", "%s"), params)

    def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> Any:
        return self._cur.executemany(sql.replace("%", "%%").replace("?", "%s"), params)

    def fetchall(self) -> list[Any]:
        return list(self._cur.fetchall())

    def fetchone(self) -> Any:
        return self._cur.fetchone()


class PostgresRepository(SqlConsole, SqlForget, SqlRepository):
    """Same schema and SQL as SQLite; `BIGSERIAL` orders messages; a pool serves threads."""

    _DAY = "CAST(FLOOR((created_at + ?) / 86400) AS INTEGER)"  # a cast alone would round
    _DECLINED = ""  # PostgreSQL picks its indexes by statistics
    # the filters' intersection first, once (else a LIMIT tempts it into checking every
    # conversation newest-first: 300 instead of 30 ms)
    _MATERIALIZED = "MATERIALIZED"

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
            migrate(cur, POSTGRES)

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

    def answer_summary(self, span: Span, offset: int, channel: str = "") -> AnswerSummary:
        """The same summary aggregated in the server: only the counts and the percentiles
        cross the wire (fetching every answer's row costs ~3 µs each in psycopg)."""
        where = " AND channel = ?" if channel else ""
        params = (offset, span.start, span.end, *((channel,) if channel else ()))
        answers = (
            f"SELECT {self._DAY} AS day, channel, outcome, generator, fallback, total_ms"
            f" FROM messages WHERE role = 'assistant' AND created_at >= ? AND created_at < ?{where}"
        )
        with self._read() as cur:
            cur.execute(
                "SELECT day, channel, outcome, generator, fallback <> '', COUNT(*)"
                f" FROM ({answers}) a GROUP BY 1, 2, 3, 4, 5",
                params,
            )
            counts = tuple(
                AnswerCount(int(r[0]), r[1] or "", r[2] or "", r[3] or "", bool(r[4]), int(r[5]))
                for r in cur.fetchall()
            )
            cur.execute(
                "SELECT GROUPING(day), GROUPING(channel), day, channel,"
                " percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY total_ms)"
                f" FROM ({answers}) a WHERE total_ms IS NOT NULL"
                " GROUP BY GROUPING SETS ((day), (channel), ())",
                params,
            )
            times = tuple(
                Percentiles(
                    None if r[0] else int(r[2]),
                    None if r[1] else (r[3] or ""),
                    round(float(r[4][0]), 1),
                    round(float(r[4][1]), 1),
                )
                for r in cur.fetchall()
            )
        return AnswerSummary(counts, times)

    @contextmanager
    def _read(self) -> Iterator[Cursor]:
        with self._tx() as cur:
            yield cur

    def close(self) -> None:
        self._pool.close()
