"""A SQLite file → the Repository (WAL, one serialized connection, every write committed).

Console reads (storage/console.py) use a second, read-only connection: WAL lets it read while
the first one writes, so a report over a long period never holds up a chat.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from assistant.storage.base import Cursor, SqlRepository
from assistant.storage.console import SqlConsole
from assistant.storage.forget import SqlForget


class SqliteRepository(SqlConsole, SqlForget, SqlRepository):
    """Thread-safe: one connection behind a lock; WAL lets other processes read meanwhile."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = self._connect(path)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        self._create_schema(serial="INTEGER PRIMARY KEY AUTOINCREMENT")
        self._read_lock = threading.Lock()
        # ":memory:" is a database per connection: there, reads share the writer's
        self._reader = self._connect(path) if str(path) != ":memory:" else None
        if self._reader is not None:
            self._reader.execute("PRAGMA query_only=ON")

    @staticmethod
    def _connect(path: Path | str) -> sqlite3.Connection:
        conn = sqlite3.connect(
            str(path), timeout=30.0, check_same_thread=False, isolation_level=None
        )
        conn.execute("PRAGMA busy_timeout=30000")
        return conn

    @contextmanager
    def _tx(self) -> Iterator[Cursor]:
        with self._lock:
            cur = self._conn.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                yield cur
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            else:
                cur.execute("COMMIT")
            finally:
                cur.close()

    @contextmanager
    def _read(self) -> Iterator[Cursor]:
        if self._reader is None:
            with self._tx() as cur:
                yield cur
            return
        with self._read_lock:
            cur = self._reader.cursor()
            cur.execute("BEGIN")  # one snapshot for every query of the read
            try:
                yield cur
            finally:
                cur.execute("COMMIT")
                cur.close()

    def journal_mode(self) -> str:
        with self._lock:
            return str(self._conn.execute("PRAGMA journal_mode").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()
        with self._read_lock:
            if self._reader is not None:
                self._reader.close()
