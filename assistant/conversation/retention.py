"""ASSISTANT_RETENTION_DAYS → the service deletes older messages itself: at start, then hourly.

    retention = Retention(repository, settings.retention_days)
    retention.start()        # in the running event loop (create_app: on start-up)
    await retention.stop()   # on shutdown

The purge runs in a worker thread (the database never blocks the event loop) and in batches
(storage/forget.py). Every replica of a PostgreSQL deployment runs it; the deletes are
idempotent, so two replicas purging at once only repeat each other's work. A failing database
is logged and tried again at the next round: retention never takes the service down.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Protocol

from anyio import to_thread

from assistant.storage.forget import Purged

log = logging.getLogger("assistant.retention")
DAY_S = 86400.0


class Purging(Protocol):
    def purge(self, before: float) -> Purged: ...


class Retention:
    def __init__(self, repo: Purging, days: float, *, interval_s: float = 3600.0) -> None:
        self.repo, self.days, self.interval_s = repo, days, interval_s
        self._task: asyncio.Task[None] | None = None

    def run_once(self, now: float | None = None) -> Purged:
        """Delete every message older than `days` (and conversations left empty)."""
        cutoff = (time.time() if now is None else now) - self.days * DAY_S
        purged = self.repo.purge(before=cutoff)
        if purged.messages or purged.conversations:
            log.info(
                "retention: deleted %d messages and %d conversations older than %g days",
                purged.messages,
                purged.conversations,
                self.days,
            )
        return purged

    async def _loop(self) -> None:
        while True:
            try:
                await to_thread.run_sync(self.run_once)
            except Exception as e:  # the database is down: try again next round
                log.warning("retention: purge failed (%s); retrying later", type(e).__name__)
            await asyncio.sleep(self.interval_s)

    def start(self) -> None:
        if self.days > 0 and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
