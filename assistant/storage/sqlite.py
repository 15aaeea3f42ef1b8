"""A SQLite file → the Repository (WAL, one serialized connection, every write committed)."""

from __future__ import annotations

import errno
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from assistant.errors import ConfigError, StorageError
from assistant.storage.base import Cursor, SqlRepository

_OS_REASONS = {
    errno.EEXIST: "в пути к нему есть файл там, где нужен каталог",
    errno.ENOTDIR: "в пути к нему есть файл там, где нужен каталог",
    errno.EACCES: "нет прав на запись",
    errno.EPERM: "нет прав на запись",
    errno.EROFS: "файловая система только для чтения",
    errno.ENOSPC: "на диске нет места",
}


class SqliteRepository(SqlRepository):
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

    def _open(self, path: str) -> sqlite3.Connection:
        if path != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=30.0, check_same_thread=False, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=30000")
            self._conn = conn
            self._create_schema(serial="INTEGER PRIMARY KEY AUTOINCREMENT")
        except BaseException:
            conn.close()
            raise
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

    def journal_mode(self) -> str:
        with self._lock:
            return str(self._conn.execute("PRAGMA journal_mode").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()


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
