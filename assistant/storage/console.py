"""A period and filters → the rows the console, the export and the gap report are made of.

Reads only; every query is bounded by a period (epoch seconds, [start, end)) and runs on the
facts stored with each message (facts.py), so nothing parses answer JSON in bulk:

    store.answer_summary(span, offset)  answers per day × channel × outcome × generator ×
                                        fallback, and the p50/p95 answer time per day, per
                                        channel and overall (linear interpolation)
    store.question_counts(span, offset) questions per local day × channel
    store.conversation_counts(…)        conversations begun per day × channel
    store.feedback_counts(…)            👍 / 👎 per day × channel of the rated answer
    store.conversations(query)          one page of conversations matching search and filters
    store.conversation(id)              one conversation with everything stored about it
    store.export_batches(span)          exchanges in batches of `EXPORT_BATCH` (keyset paging:
                                        memory stays flat, no transaction stays open)
    store.gap_items(span)               declined and 👎 answers with their questions

`offset` is the console time zone's UTC offset in seconds: days start at local midnight. The
records themselves are in `storage/rows.py`, the longer SQL in `storage/console_sql.py`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

import numpy as np

from assistant.storage import Repository
from assistant.storage.base import Cursor
from assistant.storage.console_sql import (
    EXPORT_SQL,
    GAP_SQL,
    case_count,
    conversation_sql,
    export_row,
    json_object,
    summaries,
)
from assistant.storage.rows import (
    AnswerCount,
    AnswerSummary,
    ConversationDetail,
    ConversationPage,
    ConversationQuery,
    ConversationSummary,
    DayCount,
    ExportRow,
    GapItem,
    Percentiles,
    Span,
    StoredTurn,
)

EXPORT_BATCH = 1000


class ConsoleStore(Protocol):
    def answer_summary(self, span: Span, offset: int, channel: str = "") -> AnswerSummary: ...

    def question_counts(self, span: Span, offset: int, channel: str = "") -> list[DayCount]: ...

    def conversation_counts(self, span: Span, offset: int, channel: str = "") -> list[DayCount]: ...

    def feedback_counts(self, span: Span, offset: int, channel: str = "") -> list[DayCount]: ...

    def conversations(self, query: ConversationQuery) -> ConversationPage: ...

    def conversation(self, conversation_id: str) -> ConversationDetail | None: ...

    def export_batches(self, span: Span, size: int = ...) -> Iterator[list[ExportRow]]: ...

    def gap_items(self, span: Span) -> list[GapItem]: ...

    def vectors(self, model: str, keys: Sequence[str]) -> dict[str, bytes]: ...

    def save_vectors(self, model: str, vectors: dict[str, bytes], now: float) -> None: ...


class ConsoleRepository(Repository, ConsoleStore, Protocol):
    """What the service and `assistant export` open (`open_repository`): both at once."""


def _channel(channel: str, column: str = "channel") -> tuple[str, tuple[str, ...]]:
    return (f" AND {column} = ?", (channel,)) if channel else ("", ())


def _percentiles(day: int | None, channel: str | None, values: list[float]) -> Percentiles:
    p50, p95 = np.percentile(np.asarray(values, dtype=np.float64), [50, 95])
    return Percentiles(day, channel, round(float(p50), 1), round(float(p95), 1))


def _day(expression: str, column: str) -> str:
    return expression.replace("created_at", column)


class SqlConsole(ABC):
    """ConsoleStore in portable SQL; `_DAY` is the dialect's local-day expression. Every count
    reads one index (migrate.INDEXES) rather than the wide message rows."""

    _DAY = "CAST((created_at + ?) / 86400 AS INTEGER)"  # created_at > 0: truncation is floor
    # the declined answers' own covering index (migrate.SQLITE_INDEXES): SQLite's planner,
    # without statistics, would take the wider time index and read every row (150 vs 25 ms)
    _DECLINED = "INDEXED BY messages_declined"
    _MATERIALIZED = ""  # SQLite computes a filter's subquery once by itself

    @abstractmethod
    def _read(self) -> AbstractContextManager[Cursor]:
        """A cursor for reads (SQLite: its own connection, so a report never blocks a chat)."""

    @abstractmethod
    def _tx(self) -> AbstractContextManager[Cursor]: ...

    def _rows(self, sql: str, params: Sequence[Any]) -> list[Any]:
        with self._read() as cur:
            cur.execute(sql, params)
            return cur.fetchall()

    def answer_summary(self, span: Span, offset: int, channel: str = "") -> AnswerSummary:
        """One index-only scan of the period's answers, counted and timed here (SQLite has no
        percentile aggregate); PostgreSQL overrides it with SQL aggregates."""
        where, extra = _channel(channel)
        rows = self._rows(
            f"SELECT {self._DAY}, channel, outcome, generator,"
            " CASE WHEN fallback <> '' THEN 1 ELSE 0 END, total_ms FROM messages"
            f" WHERE role = 'assistant' AND created_at >= ? AND created_at < ?{where}",
            (offset, span.start, span.end, *extra),
        )
        kinds = Counter((r[0], r[1] or "", r[2] or "", r[3] or "", bool(r[4])) for r in rows)
        counts = tuple(AnswerCount(*key, n) for key, n in kinds.items())
        by_day: dict[int, list[float]] = {}
        by_channel: dict[str, list[float]] = {}
        every: list[float] = []
        for r in rows:
            if r[5] is not None:
                by_day.setdefault(r[0], []).append(r[5])
                by_channel.setdefault(r[1] or "", []).append(r[5])
                every.append(r[5])
        times = [_percentiles(d, None, v) for d, v in by_day.items()]
        times += [_percentiles(None, c, v) for c, v in by_channel.items()]
        if every:
            times.append(_percentiles(None, None, every))
        return AnswerSummary(counts, tuple(times))

    def question_counts(self, span: Span, offset: int, channel: str = "") -> list[DayCount]:
        where, extra = _channel(channel)
        rows = self._rows(
            f"SELECT {self._DAY}, channel, COUNT(*) FROM messages"
            f" WHERE role = 'user' AND created_at >= ? AND created_at < ?{where} GROUP BY 1, 2",
            (offset, span.start, span.end, *extra),
        )
        return [DayCount(int(r[0]), r[1] or "", int(r[2])) for r in rows]

    def conversation_counts(self, span: Span, offset: int, channel: str = "") -> list[DayCount]:
        """Conversations begun each day (a conversation counts once, on its first day)."""
        where, extra = _channel(channel)
        rows = self._rows(
            f"SELECT {self._DAY}, channel, COUNT(*) FROM conversations"
            f" WHERE created_at >= ? AND created_at < ?{where} GROUP BY 1, 2",
            (offset, span.start, span.end, *extra),
        )
        return [DayCount(int(r[0]), r[1] or "", int(r[2])) for r in rows]

    def feedback_counts(self, span: Span, offset: int, channel: str = "") -> list[DayCount]:
        """👍/👎 per day of the answer they rate (the feedback table keeps its time)."""
        where, extra = _channel(channel)
        rows = self._rows(
            f"SELECT {_day(self._DAY, 'answered_at')}, channel, score, COUNT(*) FROM feedback"
            f" WHERE answered_at >= ? AND answered_at < ?{where} GROUP BY 1, 2, 3",
            (offset, span.start, span.end, *extra),
        )
        return [
            DayCount(int(r[0]), r[1] or "", int(r[3]), "up" if r[2] == 1 else "down") for r in rows
        ]

    def conversations(self, query: ConversationQuery) -> ConversationPage:
        sql, params = conversation_sql(query, self._MATERIALIZED)
        with self._read() as cur:
            cur.execute(sql, params)
            rows = cur.fetchall()
            found = summaries(cur, [r[0] for r in rows])
        total = int(rows[0][-1]) if rows else 0
        items = [found[r[0]] for r in rows if r[0] in found]
        return ConversationPage(items, total)

    def conversation(self, conversation_id: str) -> ConversationDetail | None:
        with self._read() as cur:
            cur.execute(
                "SELECT channel, created_at FROM conversations WHERE id = ?", (conversation_id,)
            )
            head = cur.fetchone()
            if head is None:
                return None
            cur.execute(
                "SELECT m.role, m.content, m.created_at, m.answer, m.meta, m.outcome,"
                " m.generator, m.fallback, m.engine_ms, m.total_ms, f.score, f.comment"
                " FROM messages m LEFT JOIN feedback f ON f.message_id = m.id"
                " WHERE m.conversation_id = ? ORDER BY m.seq",
                (conversation_id,),
            )
            rows = cur.fetchall()
        turns = [
            StoredTurn(
                role=r[0],
                content=r[1],
                created_at=float(r[2]),
                answer=json_object(r[3]),
                meta=json_object(r[4]),
                outcome=r[5] or "",
                generator=r[6] or "",
                fallback=r[7] or "",
                engine_ms=r[8],
                total_ms=r[9],
                score=r[10],
                comment=r[11] or "",
            )
            for r in rows
        ]
        return ConversationDetail(conversation_id, head[0], float(head[1]), turns)

    def export_batches(self, span: Span, size: int = EXPORT_BATCH) -> Iterator[list[ExportRow]]:
        """Keyset pages in (time, seq) order: each batch is one short index range."""
        last_at, last_seq = span.start, -1
        while True:
            with self._read() as cur:
                cur.execute(EXPORT_SQL, (last_at, last_seq, span.end, size))
                rows = cur.fetchall()
            if not rows:
                return
            yield [export_row(r) for r in rows]
            last_at, last_seq = float(rows[-1][3]), int(rows[-1][0])

    def gap_items(self, span: Span) -> list[GapItem]:
        """The period's gap answers counted per question and comment (a few hundred rows
        cross the wire, not one per answer)."""
        declined, disliked = case_count("outcome = 'declined'"), case_count("score = -1")
        sql = (
            f"SELECT text, COALESCE(comment, ''), COUNT(*), {declined}, {disliked},"
            f" MAX(created_at) FROM ({GAP_SQL.format(declined=self._DECLINED)}) g GROUP BY 1, 2"
        )
        rows = self._rows(sql, (span.start, span.end, span.start, span.end))
        return [
            GapItem(r[0] or "", r[1], int(r[2]), int(r[3]), int(r[4]), float(r[5])) for r in rows
        ]

    def vectors(self, model: str, keys: Sequence[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        with self._read() as cur:
            for start in range(0, len(keys), 500):
                chunk = list(keys[start : start + 500])
                marks = ", ".join("?" * len(chunk))
                cur.execute(
                    f"SELECT key, vector FROM gap_vectors WHERE model = ? AND key IN ({marks})",
                    (model, *chunk),
                )
                found.update((r[0], bytes(r[1])) for r in cur.fetchall())
        return found

    def save_vectors(self, model: str, vectors: dict[str, bytes], now: float) -> None:
        with self._tx() as cur:
            cur.executemany(
                "INSERT INTO gap_vectors (key, model, vector, created_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET model = excluded.model,"
                " vector = excluded.vector, created_at = excluded.created_at",
                [(k, model, v, now) for k, v in vectors.items()],
            )


__all__ = [
    "EXPORT_BATCH",
    "AnswerCount",
    "AnswerSummary",
    "ConsoleRepository",
    "ConsoleStore",
    "ConversationDetail",
    "ConversationPage",
    "ConversationQuery",
    "ConversationSummary",
    "DayCount",
    "ExportRow",
    "GapItem",
    "Percentiles",
    "Span",
    "SqlConsole",
    "StoredTurn",
]
