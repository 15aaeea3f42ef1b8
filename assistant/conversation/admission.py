"""Settings → the two concurrency rules of every channel: a FIFO cap on answers computed at once,
and one question at a time per conversation (so a follow-up always sees the previous answer)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from assistant.settings import Settings


def answer_slots(settings: Settings) -> int:
    """How many answers may be computed at once (see Settings.max_concurrent_answers)."""
    if settings.max_concurrent_answers > 0:
        return settings.max_concurrent_answers
    return 64 if settings.llm_base_url else 2 * (os.cpu_count() or 1)


class Admission:
    """At most `slots` answers in flight; the rest wait in arrival order (asyncio's semaphore
    wakes its waiters first in, first out)."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._loop: asyncio.AbstractEventLoop | None = None
        self._semaphore = asyncio.Semaphore(slots)

    def _current(self) -> asyncio.Semaphore:
        # an asyncio semaphore belongs to the loop it first waited on; tests and portals run
        # one app on several loops, so each loop gets its own
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop, self._semaphore = loop, asyncio.Semaphore(self.slots)
        return self._semaphore

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        async with self._current():
            yield


@dataclass
class _Held:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class ConversationLocks:
    """One lock per conversation key, kept only while someone holds or waits for it, so a
    service that sees millions of conversations keeps no more locks than requests in flight."""

    def __init__(self) -> None:
        self._held: dict[str, _Held] = {}

    @asynccontextmanager
    async def hold(self, key: str | None) -> AsyncIterator[None]:
        """Wait for the conversation's turn (FIFO); `None` = a new conversation, no wait."""
        if key is None:
            yield
            return
        held = self._held.setdefault(key, _Held())
        held.users += 1
        try:
            async with held.lock:
                yield
        finally:
            held.users -= 1
            if not held.users:
                del self._held[key]

    def __len__(self) -> int:
        return len(self._held)
