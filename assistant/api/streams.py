"""A route's event stream → the same stream, counted in assistant_stream_disconnects_total when
the client leaves before its last event (every streaming route wraps its events in `counted`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

from assistant.api.metrics import Metrics


async def counted(events: AsyncIterator[str], metrics: Metrics) -> AsyncIterator[str]:
    """Yields `events`; a stream closed or cancelled before they ran out is one disconnect (an
    error event ends a stream normally: the client was there to read it)."""
    finished = False
    try:
        async for event in events:
            yield event
        finished = True
    finally:
        if not finished:
            metrics.disconnects.inc()
