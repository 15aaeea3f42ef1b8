"""Deleting: one conversation, every conversation of a chat, or everything older than a date.

Deletion is real (rows are removed, not hidden): a deleted conversation is gone from the
console, the export and `assistant report`, and its feedback and cached question vectors go
with it.

    store.delete_conversation(cid)              → True if it existed
    store.delete_chat("telegram", str(chat))    → how many conversations of that chat went
    store.purge(before=time.time() - days * 86400)  → Purged(messages, conversations)

`purge` (retention) works in batches of `PURGE_BATCH` messages, one short transaction each, so
a large first purge never holds the database for long; an answer goes with its question.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass

from assistant.storage.base import Cursor
from assistant.storage.facts import vector_key

PURGE_BATCH = 2000


@dataclass(frozen=True)
class Purged:
    messages: int = 0
    conversations: int = 0


def _marks(items: Sequence[object]) -> str:
    return ", ".join("?" * len(items))


class SqlForget(ABC):
    @abstractmethod
    def _tx(self) -> AbstractContextManager[Cursor]: ...

    def delete_conversation(self, conversation_id: str) -> bool:
        with self._tx() as cur:
            return _delete_conversations(cur, [conversation_id]) > 0

    def delete_chat(self, channel: str, external_id: str) -> int:
        with self._tx() as cur:
            cur.execute(
                "SELECT id FROM conversations WHERE channel = ? AND external_id = ?",
                (channel, external_id),
            )
            return _delete_conversations(cur, [r[0] for r in cur.fetchall()])

    def purge(self, before: float) -> Purged:
        messages = 0
        while True:
            with self._tx() as cur:
                deleted = _purge_batch(cur, before)
            messages += deleted
            if deleted == 0:
                break
        with self._tx() as cur:
            cur.execute(
                "SELECT id FROM conversations WHERE created_at < ? AND NOT EXISTS"
                " (SELECT 1 FROM messages m WHERE m.conversation_id = conversations.id)",
                (before,),
            )
            empty = [r[0] for r in cur.fetchall()]
            conversations = _delete_conversations(cur, empty)
            cur.execute("DELETE FROM gap_vectors WHERE created_at < ?", (before,))
        return Purged(messages, conversations)


def _purge_batch(cur: Cursor, before: float) -> int:
    cur.execute(
        "SELECT id FROM messages WHERE created_at < ? ORDER BY seq LIMIT ?", (before, PURGE_BATCH)
    )
    ids = [r[0] for r in cur.fetchall()]
    if not ids:
        return 0
    cur.execute(f"SELECT id FROM messages WHERE reply_to IN ({_marks(ids)})", ids)
    known = set(ids)
    ids += [r[0] for r in cur.fetchall() if r[0] not in known]
    _delete_messages(cur, f"id IN ({_marks(ids)})", ids)
    return len(ids)


def _delete_conversations(cur: Cursor, ids: list[str]) -> int:
    if ids:
        cur.execute(f"SELECT id FROM conversations WHERE id IN ({_marks(ids)})", ids)
        ids = [r[0] for r in cur.fetchall()]
    if not ids:
        return 0
    where = f"conversation_id IN ({_marks(ids)})"
    cur.execute(f"SELECT content, meta FROM messages WHERE {where}", ids)
    keys = sorted(set(_vector_keys(cur.fetchall())))
    if keys:
        cur.execute(f"DELETE FROM gap_vectors WHERE key IN ({_marks(keys)})", keys)
    _delete_messages(cur, where, ids)
    cur.execute(f"DELETE FROM conversations WHERE id IN ({_marks(ids)})", ids)
    return len(ids)


def _delete_messages(cur: Cursor, where: str, params: Sequence[object]) -> None:
    cur.execute(
        f"DELETE FROM feedback WHERE message_id IN (SELECT id FROM messages WHERE {where})", params
    )
    cur.execute(f"DELETE FROM messages WHERE {where}", params)


def _vector_keys(rows: Iterable[Sequence[object]]) -> Iterable[str]:
    """Every text of these messages a gap vector may have been made from."""
    for content, meta in rows:
        yield vector_key(str(content))
        if isinstance(meta, str) and meta:
            try:
                asked = json.loads(meta).get("question")
            except (ValueError, AttributeError):
                continue
            if isinstance(asked, str) and asked:
                yield vector_key(asked)
