"""A repository's transaction → whether the store can write now (the /readyz database check).

`SELECT 1` answers on a full disk; only a committed write tells. One row of its own table is
upserted per check, so the table never grows, and the write goes the way every message goes
(the same connection, the same commit)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

log = logging.getLogger("assistant.storage")

_TABLE = (
    "CREATE TABLE IF NOT EXISTS readiness_probe"
    " (id INTEGER PRIMARY KEY, checked_at DOUBLE PRECISION NOT NULL)"
)
_UPSERT = (
    "INSERT INTO readiness_probe (id, checked_at) VALUES (1, ?)"
    " ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at"
)


def can_write(tx: Callable[[], AbstractContextManager[Any]]) -> bool:
    """Commit one small write through `tx`; False (logged) if the store refuses it."""
    try:
        with tx() as cur:
            cur.execute(_TABLE)  # a no-op once it exists; replicas may start in any order
            cur.execute(_UPSERT, (time.time(),))
        return True
    except Exception as e:  # any failure means "not ready"; the reason goes to the log
        log.warning("the database cannot write: %s", type(e).__name__)
        return False
