"""A stored question or answer → the facts the console filters and counts by (one row each).

Written in the same transaction as the message itself (storage/base.py calls these two
functions), so a message never exists without them:

    channel      the conversation's channel, copied onto the message (counts need no join)
    search_text  a question folded for search: lower case, «ё» → «е» (SQLite's LIKE folds ASCII
                 only); '' on answers (the console searches what customers asked)
    understood   the self-contained question the engine answered (a follow-up condensed)
    outcome      answered | declined | handoff | clarify (answers only, `outcome_of`)
    generator    embedded | vllm;  fallback: why the embedded generator stood in for the LLM
    engine_ms    the engine's own time;  total_ms: question stored → answer stored (queue included)
    cited        the cited entries' slugs, JSON (the export lists them without parsing answers)

and the conversation's `last_at`, the time of its last message (the console lists conversations
by it without grouping their messages); feedback carries its answer's conversation, channel and
time (`answered_at`), so 👍/👎 are counted from the small feedback table alone.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any, Literal, Protocol, get_args

from assistant.schema import Answer

Outcome = Literal["answered", "declined", "handoff", "clarify"]
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)


class Cursor(Protocol):
    def execute(self, sql: str, params: Any = ...) -> Any: ...

    def fetchone(self) -> Any: ...


def outcome_of(route: str, refused: bool, handoff_reason: str) -> Outcome:
    """Handed to people (triage: billing, refunds, outages…), declined (outside the glossary,
    an injection), a clarifying question back, or answered (greetings included)."""
    if handoff_reason:
        return "handoff"
    if refused:
        return "declined"
    if route == "clarify":
        return "clarify"
    return "answered"


def fold(text: str) -> str:
    """What search compares: case and «ё» do not make two texts different."""
    return text.lower().replace("ё", "е")


FEEDBACK_FACTS = (
    "UPDATE feedback SET (conversation_id, channel, answered_at) = (SELECT conversation_id,"
    " channel, created_at FROM messages m WHERE m.id = feedback.message_id)"
)


def record_feedback_facts(cur: Cursor, message_id: str) -> None:
    cur.execute(FEEDBACK_FACTS + " WHERE message_id = ?", (message_id,))


def vector_key(text: str) -> str:
    """The cache key of a question's embedding: the digest of its folded text (not the text)."""
    return hashlib.sha256(fold(" ".join(text.split())).encode()).hexdigest()[:32]


def _touch(cur: Cursor, conversation_id: str, message_id: str) -> None:
    cur.execute(
        "UPDATE conversations SET last_at = (SELECT created_at FROM messages WHERE id = ?)"
        " WHERE id = ?",
        (message_id, conversation_id),
    )


def record_question_facts(cur: Cursor, message_id: str, conversation_id: str, text: str) -> None:
    cur.execute(
        "UPDATE messages SET search_text = ?,"
        " channel = (SELECT channel FROM conversations WHERE id = ?) WHERE id = ?",
        (fold(text), conversation_id, message_id),
    )
    _touch(cur, conversation_id, message_id)


def record_answer_facts(
    cur: Cursor, message_id: str, conversation_id: str, reply_to: str | None, answer: Answer
) -> None:
    meta = answer.meta
    asked_at = None
    if reply_to is not None:
        cur.execute("SELECT created_at FROM messages WHERE id = ?", (reply_to,))
        row = cur.fetchone()
        asked_at = float(row[0]) if row else None
    total_ms = round((time.time() - asked_at) * 1000, 1) if asked_at is not None else None
    cur.execute(
        "UPDATE messages SET search_text = '', understood = ?, outcome = ?, generator = ?,"
        " fallback = ?, engine_ms = ?, total_ms = ?, cited = ?,"
        " channel = (SELECT channel FROM conversations WHERE id = ?) WHERE id = ?",
        (
            meta.question,
            outcome_of(answer.route, answer.refused, meta.handoff_reason),
            answer.generator,
            meta.fallback_reason,
            meta.latency_ms,
            total_ms,
            json.dumps([c.slug for c in answer.citations]),
            conversation_id,
            message_id,
        ),
    )


__all__ = [
    "OUTCOMES",
    "Outcome",
    "fold",
    "outcome_of",
    "record_answer_facts",
    "record_feedback_facts",
    "record_question_facts",
    "vector_key",
]
