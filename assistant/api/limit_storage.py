"""A PostgreSQL DSN → a `limits` storage whose counters every API replica shares.

    storage = limits.storage.storage_from_string("postgresql://…")   # registered scheme

Implements what the fixed-window and sliding-window-counter strategies need: counters with an
expiry, one row each, in an UNLOGGED table (`rate_limits`; a lost counter after a database crash
only forgives a minute of requests, and skipping the WAL keeps each hit to one cheap upsert).
Window keys carry the window number (`TimestampedSlidingWindow`), so replicas agree on windows
as long as their clocks agree to a second or so. Expired rows are purged once a minute.
"""

from __future__ import annotations

import contextlib
import threading
import time
from math import floor
from typing import Any

from limits.storage.base import SlidingWindowCounterSupport, Storage, TimestampedSlidingWindow

TABLE = "rate_limits"
PURGE_EVERY_S = 60.0

_CREATE = f"""
CREATE UNLOGGED TABLE IF NOT EXISTS {TABLE} (
    key TEXT PRIMARY KEY,
    count BIGINT NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
)"""
# One statement, atomic under concurrent replicas: a live row grows; an expired one restarts.
_INCR = f"""
INSERT INTO {TABLE} AS r (key, count, expires_at) VALUES (%(key)s, %(amount)s, %(expires)s)
ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN r.expires_at <= %(now)s THEN EXCLUDED.count ELSE r.count + EXCLUDED.count END,
    expires_at = CASE WHEN r.expires_at <= %(now)s THEN EXCLUDED.expires_at ELSE r.expires_at END
RETURNING count"""
_DECR = f"""
UPDATE {TABLE} SET count = GREATEST(count - %(amount)s, 0)
WHERE key = %(key)s AND expires_at > %(now)s RETURNING count"""
_GET = f"SELECT count, expires_at FROM {TABLE} WHERE key = %(key)s AND expires_at > %(now)s"


class PostgresStorage(Storage, SlidingWindowCounterSupport, TimestampedSlidingWindow):
    """Rate-limit counters in PostgreSQL (a small connection pool of its own)."""

    STORAGE_SCHEME = ["postgresql", "postgres"]  # noqa: RUF012 (typed so by limits' base)

    def __init__(
        self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any
    ) -> None:
        from psycopg_pool import ConnectionPool

        super().__init__(uri, wrap_exceptions=wrap_exceptions)
        self.pool = ConnectionPool(
            uri or "",
            min_size=1,
            max_size=int(options.get("max_size", 4)),
            kwargs={"autocommit": True},
            open=True,
            name="rate-limits",
            timeout=2.0,  # a request waits at most this long for a connection, then goes through
        )
        self._purged = time.monotonic()
        self._purge_lock = threading.Lock()
        self._table = False
        with contextlib.suppress(Exception):  # unreachable now: created on first use instead
            self._create_table()

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        import psycopg

        return psycopg.Error

    def _create_table(self) -> None:
        import psycopg

        # another replica may create it at the same moment
        with self.pool.connection() as conn, contextlib.suppress(psycopg.errors.UniqueViolation):
            conn.execute(_CREATE)
        self._table = True

    def _execute(self, sql: str, params: dict[str, Any] | None = None) -> Any:
        if not self._table:
            self._create_table()
        with self.pool.connection() as conn:
            cursor = conn.execute(sql, params or {})
            return cursor.fetchone() if cursor.description else None

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        row = self._execute(
            _INCR, {"key": key, "amount": amount, "expires": now + expiry, "now": now}
        )
        self._maybe_purge(now)
        return int(row[0])

    def decr(self, key: str, amount: int = 1) -> int:
        row = self._execute(_DECR, {"key": key, "amount": amount, "now": time.time()})
        return int(row[0]) if row else 0

    def get(self, key: str) -> int:
        row = self._execute(_GET, {"key": key, "now": time.time()})
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        now = time.time()
        row = self._execute(_GET, {"key": key, "now": now})
        return float(row[1]) if row else now

    def check(self) -> bool:
        try:
            self._execute("SELECT 1")
        except Exception:
            return False
        return True

    def reset(self) -> int | None:
        row = self._execute(
            f"WITH gone AS (DELETE FROM {TABLE} RETURNING 1) SELECT count(*) FROM gone"
        )
        return int(row[0])

    def clear(self, key: str) -> None:
        self._execute(f"DELETE FROM {TABLE} WHERE key = %(key)s", {"key": key})

    def close(self) -> None:
        self.pool.close()

    # --- sliding window counter: two fixed windows, the previous one weighted by its overlap ---

    def acquire_sliding_window_entry(
        self, key: str, limit: int, expiry: int, amount: int = 1
    ) -> bool:
        """The same algorithm as limits' MemoryStorage: allowed if the weighted count stays
        within `limit`; a hit that loses a race with another replica is taken back."""
        if amount > limit:
            return False
        now = time.time()
        previous_key, current_key = self.sliding_window_keys(key, expiry, now)
        previous, previous_ttl, current, _ = self._window(previous_key, current_key, expiry, now)
        if floor(previous * previous_ttl / expiry + current) + amount > limit:
            return False
        current = self.incr(current_key, 2 * expiry, amount=amount)
        if floor(previous * previous_ttl / expiry + current) > limit:
            self.decr(current_key, amount)
            return False
        return True

    def get_sliding_window(self, key: str, expiry: int) -> tuple[int, float, int, float]:
        now = time.time()
        previous_key, current_key = self.sliding_window_keys(key, expiry, now)
        return self._window(previous_key, current_key, expiry, now)

    def clear_sliding_window(self, key: str, expiry: int) -> None:
        previous_key, current_key = self.sliding_window_keys(key, expiry, time.time())
        self.clear(previous_key)
        self.clear(current_key)

    def _window(
        self, previous_key: str, current_key: str, expiry: int, now: float
    ) -> tuple[int, float, int, float]:
        previous, current = self.get(previous_key), self.get(current_key)
        previous_ttl = (1 - (((now - expiry) / expiry) % 1)) * expiry if previous else 0.0
        current_ttl = (1 - ((now / expiry) % 1)) * expiry + expiry
        return previous, previous_ttl, current, current_ttl

    def _maybe_purge(self, now: float) -> None:
        """Delete expired counters at most once a minute per replica (they are ignored anyway)."""
        if time.monotonic() - self._purged < PURGE_EVERY_S or not self._purge_lock.acquire(False):
            return
        try:
            self._purged = time.monotonic()
            self._execute(f"DELETE FROM {TABLE} WHERE expires_at <= %(now)s", {"now": now})
        finally:
            self._purge_lock.release()
