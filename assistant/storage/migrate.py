"""A database of any earlier version → the current schema: new columns, indexes, filled-in facts.

Runs at every start inside the schema transaction (PostgreSQL: under the advisory lock that
keeps replicas from racing), after `base.SCHEMA` has created any missing table:

    messages  + channel, search_text, understood, outcome, generator, fallback, engine_ms,
              total_ms, cited (facts.py); rows written before them are filled in here from the
              stored answer JSON, so an upgraded database shows its history in the console
    conversations + last_at (the time of the last message)
    feedback  + conversation_id, channel, answered_at (its answer's)
    indexes   for the console's period queries, search and retention
    gap_vectors  question embeddings the content-gap clustering reuses (console/gaps.py)

Filling in is idempotent and also catches rows an older replica wrote during a rolling upgrade
(a partial index keeps finding them instant when there are none).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from assistant.storage.facts import FEEDBACK_FACTS, fold, outcome_of

NEW_COLUMNS = (
    ("channel", "TEXT"),
    ("search_text", "TEXT"),
    ("understood", "TEXT"),
    ("outcome", "TEXT"),
    ("generator", "TEXT"),
    ("fallback", "TEXT"),
    ("engine_ms", "DOUBLE PRECISION"),
    ("total_ms", "DOUBLE PRECISION"),
    ("cited", "TEXT"),
)
FEEDBACK_COLUMNS = (
    ("conversation_id", "TEXT"),
    ("channel", "TEXT"),
    ("answered_at", "DOUBLE PRECISION"),
)
INDEXES = (
    "CREATE INDEX IF NOT EXISTS messages_created ON messages (created_at)",
    # the overview and the conversation filters read a period's messages: index-only scans
    # with every fact they count or filter by (never the wide rows with the answer JSON)
    "CREATE INDEX IF NOT EXISTS messages_facts ON messages"
    " (role, created_at, channel, outcome, generator, fallback, total_ms, conversation_id)",
    "CREATE INDEX IF NOT EXISTS messages_unfilled ON messages (seq) WHERE search_text IS NULL",
    "CREATE INDEX IF NOT EXISTS conversations_external ON conversations (channel, external_id)",
    "CREATE INDEX IF NOT EXISTS conversations_created ON conversations (created_at, channel)",
    "CREATE INDEX IF NOT EXISTS conversations_last ON conversations (last_at)",
    "CREATE INDEX IF NOT EXISTS feedback_answered ON feedback (answered_at, score)",
)
# SQLite scans text fastest from an index holding it; PostgreSQL scans the table fast enough
# and caps a B-tree entry at ~2,7 KB, which a 2 000-character Cyrillic question can exceed
SQLITE_INDEXES = (
    "CREATE INDEX IF NOT EXISTS messages_search ON messages"
    " (role, created_at, search_text, conversation_id)",
    # content gaps read the declined answers' facts without the rows (whose answer JSON makes
    # SQLite walk overflow pages to the columns added after it)
    "CREATE INDEX IF NOT EXISTS messages_declined ON messages"
    " (created_at, route, understood, reply_to, id)"
    " WHERE role = 'assistant' AND outcome = 'declined'",
)
_BATCH = 2000


class Cursor(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ...) -> Any: ...

    def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> Any: ...

    def fetchall(self) -> list[Any]: ...


@dataclass(frozen=True)
class Dialect:
    name: Literal["sqlite", "postgres"]

    @property
    def blob(self) -> str:
        return "BLOB" if self.name == "sqlite" else "BYTEA"

    def columns(self, cur: Cursor, table: str) -> set[str]:
        if self.name == "sqlite":
            cur.execute(f"PRAGMA table_info({table})")
            return {str(r[1]) for r in cur.fetchall()}
        cur.execute(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ?",
            (table,),
        )
        return {str(r[0]) for r in cur.fetchall()}


SQLITE = Dialect("sqlite")
POSTGRES = Dialect("postgres")


def migrate(cur: Cursor, dialect: Dialect) -> int:
    """Bring the schema up to date; returns how many old rows got their facts filled in."""
    have = dialect.columns(cur, "messages")
    for name, kind in NEW_COLUMNS:
        if name not in have:
            cur.execute(f"ALTER TABLE messages ADD COLUMN {name} {kind}")
    if "last_at" not in dialect.columns(cur, "conversations"):
        cur.execute("ALTER TABLE conversations ADD COLUMN last_at DOUBLE PRECISION")
    have = dialect.columns(cur, "feedback")
    for name, kind in FEEDBACK_COLUMNS:
        if name not in have:
            cur.execute(f"ALTER TABLE feedback ADD COLUMN {name} {kind}")
    cur.execute(
        "CREATE TABLE IF NOT EXISTS gap_vectors (key TEXT PRIMARY KEY, model TEXT NOT NULL,"
        f" vector {dialect.blob} NOT NULL, created_at DOUBLE PRECISION NOT NULL)"
    )
    for statement in INDEXES + (SQLITE_INDEXES if dialect.name == "sqlite" else ()):
        cur.execute(statement)
    filled = fill_in(cur)
    cur.execute(FEEDBACK_FACTS + " WHERE answered_at IS NULL")
    cur.execute(
        "UPDATE conversations SET last_at = COALESCE((SELECT MAX(m.created_at) FROM messages m"
        " WHERE m.conversation_id = conversations.id), created_at) WHERE last_at IS NULL"
    )
    return filled


def fill_in(cur: Cursor) -> int:
    """Facts for rows stored without them (older versions): channel from the conversation, the
    answer time from its question, the rest from the stored answer and meta JSON."""
    cur.execute("SELECT 1 FROM messages WHERE search_text IS NULL LIMIT 1")
    if not cur.fetchall():
        return 0
    cur.execute(
        "UPDATE messages SET channel ="
        " (SELECT c.channel FROM conversations c WHERE c.id = messages.conversation_id)"
        " WHERE search_text IS NULL"
    )
    cur.execute(
        "UPDATE messages SET total_ms = 1000 * (created_at -"
        " (SELECT q.created_at FROM messages q WHERE q.id = messages.reply_to))"
        " WHERE search_text IS NULL AND role = 'assistant' AND reply_to IS NOT NULL"
    )
    filled, last = 0, -1
    while True:
        cur.execute(
            "SELECT seq, role, content, answer, meta, route, refused FROM messages"
            " WHERE search_text IS NULL AND seq > ? ORDER BY seq LIMIT ?",
            (last, _BATCH),
        )
        rows = cur.fetchall()
        if not rows:
            return filled
        cur.executemany(
            "UPDATE messages SET search_text = ?, understood = ?, outcome = ?, generator = ?,"
            " fallback = ?, engine_ms = ?, cited = ? WHERE seq = ?",
            [_facts(r) for r in rows],
        )
        filled += len(rows)
        last = rows[-1][0]


def _facts(row: Sequence[Any]) -> tuple[Any, ...]:
    seq, role, content, answer_json, meta_json, route, refused = row
    if role != "assistant":
        return (fold(content), None, None, None, None, None, None, seq)
    answer = _json(answer_json)
    meta = _json(meta_json)
    outcome = outcome_of(route or "", bool(refused), str(meta.get("handoff_reason") or ""))
    cited = [c.get("slug") for c in answer.get("citations") or () if isinstance(c, dict)]
    return (
        "",
        str(meta.get("question") or ""),
        outcome,
        str(answer.get("generator") or "embedded"),
        str(meta.get("fallback_reason") or ""),
        float(meta.get("latency_ms") or 0.0),
        json.dumps([s for s in cited if isinstance(s, str)]),
        seq,
    )


def _json(text: str | None) -> dict[str, Any]:
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
