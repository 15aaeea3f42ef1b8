"""A SQLite file → the Repository (WAL, one serialized connection, every write committed)."""

from __future__ import annotations

import errno
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from assistant.errors import ConfigError
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
        except (OSError, sqlite3.Error) as e:
            raise _open_error(str(path), setting, e) from None  # one line, not a traceback

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
