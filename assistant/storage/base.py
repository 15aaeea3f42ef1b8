"""Repository calls → portable SQL run by a dialect (SQLite or PostgreSQL) through `_tx()`."""

from __future__ import annotations

import json
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from assistant.schema import Answer, Turn
from assistant.storage import ReportItem, StoredMessage, UnknownMessageError
from assistant.storage.facts import (
    record_answer_facts,
    record_feedback_facts,
    record_question_facts,
)
from assistant.storage.migrate import SQLITE, migrate
from assistant.storage.readiness import can_write

Row = tuple[Any, ...]


class Cursor(Protocol):
    """The DB-API subset both drivers share."""

    def execute(self, sql: str, params: Sequence[Any] = ...) -> Any: ...

    def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def fetchone(self) -> Any: ...


# `?` placeholders; the PostgreSQL dialect rewrites them to `%s`. Timestamps are epoch seconds.
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS conversations (
        id TEXT PRIMARY KEY,
        channel TEXT NOT NULL,
        external_id TEXT,
        active INTEGER NOT NULL DEFAULT 1,
        created_at DOUBLE PRECISION NOT NULL
    )""",
    """CREATE UNIQUE INDEX IF NOT EXISTS conversations_active
        ON conversations (channel, external_id) WHERE active = 1 AND external_id IS NOT NULL""",
    """CREATE TABLE IF NOT EXISTS messages (
        seq {serial},
        id TEXT NOT NULL UNIQUE,
        conversation_id TEXT NOT NULL REFERENCES conversations(id),
        role TEXT NOT NULL,
        content TEXT NOT NULL,
        params TEXT NOT NULL DEFAULT '{{}}',
        slugs TEXT NOT NULL DEFAULT '[]',
        reply_to TEXT,
        answer TEXT,
        meta TEXT,
        route TEXT,
        refused INTEGER NOT NULL DEFAULT 0,
        confidence TEXT,
        handoff INTEGER NOT NULL DEFAULT 0,
        created_at DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS messages_conversation ON messages (conversation_id, seq)",
    "CREATE INDEX IF NOT EXISTS messages_reply_to ON messages (reply_to)",
    """CREATE TABLE IF NOT EXISTS feedback (
        message_id TEXT PRIMARY KEY REFERENCES messages(id),
        score INTEGER NOT NULL,
        comment TEXT NOT NULL DEFAULT '',
        created_at DOUBLE PRECISION NOT NULL
    )""",
)

_REPORT_SQL = """
SELECT a.id, COALESCE(q.content, ''), a.meta, a.route, a.refused, a.confidence, a.handoff,
       a.created_at, f.score, COALESCE(f.comment, ''), a.slugs
FROM messages a
LEFT JOIN messages q ON q.id = a.reply_to
LEFT JOIN feedback f ON f.message_id = a.id
WHERE a.role = 'assistant' AND a.created_at >= ?
  AND (a.refused = 1 OR a.confidence = 'low' OR a.handoff = 1 OR f.score < 0)
ORDER BY a.seq
"""


def new_id() -> str:
    return uuid.uuid4().hex


class SqlRepository(ABC):
    """The Repository implemented once in portable SQL; subclasses supply connections."""

    @abstractmethod
    def _tx(self) -> AbstractContextManager[Cursor]:
        """A cursor inside one transaction: committed on normal exit, rolled back on error."""

    def _create_schema(self, serial: str) -> None:
        with self._tx() as cur:
            for statement in SCHEMA:
                cur.execute(statement.format(serial=serial))
            migrate(cur, SQLITE)

    # conversations

    def get_or_create_conversation(self, channel: str, external_id: str | None) -> str:
        with self._tx() as cur:
            if external_id is not None:
                found = _active_conversation(cur, channel, external_id)
                if found:
                    return found
            return _insert_conversation(cur, channel, external_id)

    def reset_conversation(self, channel: str, external_id: str | None) -> str:
        with self._tx() as cur:
            if external_id is not None:
                cur.execute(
                    "UPDATE conversations SET active = 0"
                    " WHERE channel = ? AND external_id = ? AND active = 1",
                    (channel, external_id),
                )
            return _insert_conversation(cur, channel, external_id)

    def conversation_exists(self, conversation_id: str) -> bool:
        with self._tx() as cur:
            cur.execute("SELECT 1 FROM conversations WHERE id = ?", (conversation_id,))
            return cur.fetchone() is not None

    # messages

    def history(self, conversation_id: str, limit: int = 10) -> list[Turn]:
        with self._tx() as cur:
            cur.execute(
                "SELECT role, content, params, slugs FROM messages m WHERE conversation_id = ?"
                " AND (role = 'assistant' OR EXISTS"
                " (SELECT 1 FROM messages r WHERE r.reply_to = m.id))"
                " ORDER BY seq DESC LIMIT ?",
                (conversation_id, limit),
            )
            rows = cur.fetchall()
        return [
            Turn(role=r[0], content=r[1], params=json.loads(r[2]), slugs=json.loads(r[3]))
            for r in reversed(rows)
        ]

    def messages(self, conversation_id: str, limit: int = 100) -> list[StoredMessage]:
        with self._tx() as cur:
            cur.execute(
                "SELECT m.id, m.role, m.content, m.answer, f.score FROM messages m"
                " LEFT JOIN feedback f ON f.message_id = m.id"
                " WHERE m.conversation_id = ? ORDER BY m.seq DESC LIMIT ?",
                (conversation_id, limit),
            )
            rows = cur.fetchall()
        return [
            StoredMessage(
                id=r[0],
                role=r[1],
                content=r[2],
                answer=json.loads(r[3]) if r[3] else None,
                feedback=r[4],
            )
            for r in reversed(rows)
        ]

    def add_user_message(self, conversation_id: str, text: str) -> str:
        message_id = new_id()
        with self._tx() as cur:
            cur.execute(
                "INSERT INTO messages (id, conversation_id, role, content, created_at)"
                " VALUES (?, ?, 'user', ?, ?)",
                (message_id, conversation_id, text, time.time()),
            )
            record_question_facts(cur, message_id, conversation_id, text)
        return message_id

    def add_answer(
        self, conversation_id: str, reply_to: str | None, answer: Answer, assistant_turn: Turn
    ) -> str:
        message_id = new_id()
        meta = answer.meta
        with self._tx() as cur:
            cur.execute(
                "INSERT INTO messages (id, conversation_id, role, content, params, slugs, reply_to,"
                " answer, meta, route, refused, confidence, handoff, created_at)"
                " VALUES (?, ?, 'assistant', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    message_id,
                    conversation_id,
                    assistant_turn.content,
                    json.dumps(assistant_turn.params, ensure_ascii=False),
                    json.dumps(assistant_turn.slugs, ensure_ascii=False),
                    reply_to,
                    answer.model_dump_json(),
                    meta.model_dump_json(),
                    answer.route,
                    int(answer.refused),
                    meta.confidence,
                    int(meta.handoff),
                    time.time(),
                ),
            )
            record_answer_facts(cur, message_id, conversation_id, reply_to, answer)
        return message_id

    # feedback

    def add_feedback(self, message_id: str, score: int, comment: str = "") -> None:
        if score not in (1, -1):
            raise ValueError("score must be +1 or -1")
        with self._tx() as cur:
            cur.execute("SELECT role FROM messages WHERE id = ?", (message_id,))
            row = cur.fetchone()
            if row is None or row[0] != "assistant":
                raise UnknownMessageError(message_id)
            cur.execute(
                "INSERT INTO feedback (message_id, score, comment, created_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (message_id) DO UPDATE SET score = excluded.score,"
                " comment = excluded.comment, created_at = excluded.created_at",
                (message_id, score, comment, time.time()),
            )
            record_feedback_facts(cur, message_id)

    # report

    def report_items(self, since: float | None = None) -> list[ReportItem]:
        with self._tx() as cur:
            cur.execute(_REPORT_SQL, (since or 0.0,))
            rows = cur.fetchall()
        return [_report_item(r) for r in rows]

    def ping(self) -> bool:
        """Whether the store can write now: a committed write, not a SELECT (readiness.py)."""
        return can_write(self._tx)


def _active_conversation(cur: Cursor, channel: str, external_id: str) -> str | None:
    cur.execute(
        "SELECT id FROM conversations WHERE channel = ? AND external_id = ? AND active = 1",
        (channel, external_id),
    )
    row = cur.fetchone()
    return str(row[0]) if row else None


def _insert_conversation(cur: Cursor, channel: str, external_id: str | None) -> str:
    """Insert an active conversation; if a concurrent request won the race, return its id."""
    conversation_id = new_id()
    cur.execute(
        "INSERT INTO conversations (id, channel, external_id, active, created_at)"
        " VALUES (?, ?, ?, 1, ?) ON CONFLICT DO NOTHING",
        (conversation_id, channel, external_id, time.time()),
    )
    if external_id is None:
        return conversation_id
    found = _active_conversation(cur, channel, external_id)
    assert found is not None
    return found


def _report_item(r: Row) -> ReportItem:
    meta = json.loads(r[2]) if r[2] else {}
    return ReportItem(
        message_id=r[0],
        question=r[1],
        condensed=str(meta.get("question") or r[1]),
        route=r[3] or "",
        refused=bool(r[4]),
        confidence=r[5] or "",
        handoff=bool(r[6]),
        created_at=float(r[7]),
        feedback=r[8],
        comment=r[9],
        slugs=json.loads(r[10]) if r[10] else [],
    )
