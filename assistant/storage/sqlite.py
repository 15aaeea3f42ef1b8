"""A SQLite file → the Repository (WAL, one serialized connection, every write committed).

Console reads (storage/console.py) use a second, read-only connection: WAL lets it read while
the first one writes, so a report over a long period never holds up a chat.
"""

from __future__ import annotations

import errno
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from assistant.errors import ConfigError, StorageError
from assistant.storage.base import Cursor, SqlRepository
from assistant.storage.console import SqlConsole
from assistant.storage.forget import SqlForget

_OS_REASONS = {
    errno.EEXIST: "в пути к нему есть файл там, где нужен каталог",
    errno.ENOTDIR: "в пути к нему есть файл там, где нужен каталог",
    errno.EACCES: "нет прав на запись",
    errno.EPERM: "нет прав на запись",
    errno.EROFS: "файловая система только для чтения",
    errno.ENOSPC: "на диске нет места",
}


class SqliteRepository(SqlConsole, SqlForget, SqlRepository):
    """Thread-safe: one connection behind a lock; WAL lets other processes read meanwhile."""

    def __init__(self, path: Path | str, *, setting: str = "ASSISTANT_DB_PATH") -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self._conn = self._open(str(path))
        except (OSError, sqlite3.Error, StorageError) as e:
            cause = e.__cause__ if isinstance(e, StorageError) else e
            assert isinstance(cause, Exception)
            raise _open_error(str(path), setting, cause) from None  # one line, no traceback
        self._read_lock = threading.Lock()
        # ":memory:" is a database per connection: there, reads share the writer's
        self._reader = self._connect(str(path)) if str(path) != ":memory:" else None
        if self._reader is not None:
            self._reader.execute("PRAGMA query_only=ON")

    def _open(self, path: str) -> sqlite3.Connection:
        if path != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = self._connect(path)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            self._conn = conn
            self._create_schema(serial="INTEGER PRIMARY KEY AUTOINCREMENT")
        except BaseException:
            conn.close()
            raise
        return conn

    @staticmethod
    def _connect(path: str) -> sqlite3.Connection:
        conn = sqlite3.connect(path, timeout=30.0, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA busy_timeout=30000")
        return conn

    @contextmanager
    def _tx(self) -> Iterator[Cursor]:
        """One transaction; a failure of SQLite itself (a full disk, a broken file) is a
        StorageError, whatever statement met it, the COMMIT included."""
        with self._lock:
            cur = self._conn.cursor()
            try:
                cur.execute("BEGIN IMMEDIATE")
                try:
                    yield cur
                    cur.execute("COMMIT")
                except BaseException:
                    self._rollback()
                    raise
            except sqlite3.Error as e:
                raise StorageError(f"SQLite: {type(e).__name__}: {e}") from e
            finally:
                cur.close()

    def _rollback(self) -> None:
        # a failed COMMIT may have rolled back already; the caller reports the original error
        if self._conn.in_transaction:
            with suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")

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


def _open_error(path: str, setting: str, e: Exception) -> ConfigError:
    """The start-up error an operator reads: which file, which setting, why (in Russian)."""
    if isinstance(e, OSError):
        reason = _OS_REASONS.get(e.errno or 0, f"ошибка ОС {e.errno}")
    elif isinstance(e, sqlite3.DatabaseError) and "not a database" in str(e):
        reason = "это не файл базы SQLite"
    elif "unable to open" in str(e):
        reason = "файл не открывается (это каталог или нет прав)"
    elif "readonly" in str(e):
        reason = "файл только для чтения"
    elif "full" in str(e):
        reason = "на диске нет места"
    else:
        reason = "SQLite не может с ним работать"
    message = f"Не удалось открыть базу данных «{path}» ({setting}): {reason}."
    return ConfigError(message, user_message=message)
