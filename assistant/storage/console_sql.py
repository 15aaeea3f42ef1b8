"""The console's longer SQL and the row mappers behind storage/console.py (one file each for
the queries and the code that runs them).

    conversation_sql(query)   conversations active in a period, filtered, one page + the total
    summaries(cur, ids)       one page's conversations in full
    EXPORT_SQL, GAP_SQL       the export's keyset page; the declined and 👎 answers of a period
    export_row, json_object   SQL rows → records
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from assistant.storage.base import Cursor
from assistant.storage.facts import OUTCOMES
from assistant.storage.rows import ConversationQuery, ConversationSummary, ExportRow


def case_count(condition: str) -> str:
    """A 0/1 count of rows where `condition` holds (PostgreSQL cannot SUM a boolean)."""
    return f"SUM(CASE WHEN {condition} THEN 1 ELSE 0 END)"


EXPORT_SQL = """
SELECT q.seq, q.conversation_id, q.channel, q.created_at, q.content,
       COALESCE(a.content, ''), COALESCE(a.outcome, ''), COALESCE(a.route, ''),
       COALESCE(a.generator, ''), COALESCE(a.fallback, ''), a.cited, a.total_ms, a.engine_ms,
       f.score, COALESCE(f.comment, '')
FROM messages q
LEFT JOIN messages a ON a.reply_to = q.id
LEFT JOIN feedback f ON f.message_id = a.id
WHERE q.role = 'user' AND (q.created_at, q.seq) > (?, ?) AND q.created_at < ?
ORDER BY q.created_at, q.seq
LIMIT ?
"""

# declined answers (not injections) of the period, then the 👎 ones (found by the feedback
# table's own answer time). The text is the question the engine understood (a follow-up made
# whole), which is what an editor can act on; the typed question is looked up only where none
# was stored.
GAP_TEXT = (
    "CASE WHEN a.understood <> '' THEN a.understood"
    " ELSE (SELECT q.content FROM messages q WHERE q.id = a.reply_to) END"
)
GAP_SQL = f"""
SELECT {GAP_TEXT} AS text, 'declined' AS outcome, f.score AS score, f.comment AS comment,
       a.created_at AS created_at
FROM messages a {{declined}}
LEFT JOIN feedback f ON f.message_id = a.id
WHERE a.role = 'assistant' AND a.outcome = 'declined' AND a.route <> 'injection'
  AND a.created_at >= ? AND a.created_at < ?
UNION ALL
SELECT {GAP_TEXT}, a.outcome, f.score, f.comment, a.created_at
FROM feedback f
JOIN messages a ON a.id = f.message_id
WHERE f.score = -1 AND f.answered_at >= ? AND f.answered_at < ?
  AND NOT (a.outcome = 'declined' AND a.route <> 'injection')
"""


def conversation_sql(q: ConversationQuery, materialized: str = "") -> tuple[str, tuple[Any, ...]]:
    """Conversations active in the period (begun before its end, last message after its
    start), newest activity first. Each filter is one subquery over the period's messages
    (an index scan); their intersection is computed once and joined to the conversations, so
    no filter runs per conversation. `COUNT(*) OVER ()` is the total of every page."""
    where = ["c.created_at < ?", "c.last_at >= ?"]
    params: list[Any] = [q.span.end, q.span.start]
    period = (q.span.start, q.span.end)
    parts: list[tuple[str, tuple[Any, ...]]] = []
    if q.text:
        pattern = "%" + _like_escape(q.text) + "%"
        parts.append(
            (
                "SELECT conversation_id FROM messages WHERE role = 'user'"
                " AND created_at >= ? AND created_at < ? AND search_text LIKE ? ESCAPE '\\'",
                (*period, pattern),
            )
        )
    if q.outcome:
        parts.append(
            (
                "SELECT conversation_id FROM messages WHERE role = 'assistant'"
                " AND created_at >= ? AND created_at < ? AND outcome = ?",
                (*period, q.outcome),
            )
        )
    rated = "SELECT conversation_id FROM feedback f WHERE answered_at >= ? AND answered_at < ?"
    if q.feedback in ("up", "down", "any"):
        score = {"up": " AND f.score = 1", "down": " AND f.score = -1"}.get(q.feedback, "")
        parts.append((rated + score, period))
    if q.channel:
        where.append("c.channel = ?")
        params.append(q.channel)
    if q.feedback == "none":
        where.append(f"c.id NOT IN ({rated})")
        params += period
    head, source = "", "conversations c"
    if parts:
        hits = " INTERSECT ".join(sql for sql, _ in parts)
        if len(parts) == 1:  # INTERSECT removes duplicates; one subquery alone must too
            hits = hits.replace("SELECT ", "SELECT DISTINCT ", 1)
        head = f"WITH hits AS {materialized} ({hits}) "
        source = "hits h JOIN conversations c ON c.id = h.conversation_id"
        params = [p for _, part in parts for p in part] + params
    sql = (
        f"{head}SELECT c.id, COUNT(*) OVER () FROM {source} WHERE "
        + " AND ".join(where)
        + " ORDER BY c.last_at DESC, c.id LIMIT ? OFFSET ?"
    )
    return sql, (*params, q.limit, q.offset)


def _like_escape(text: str) -> str:
    """`%` and `_` typed into the search box are characters, not wildcards."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def summaries(cur: Cursor, ids: list[str]) -> dict[str, ConversationSummary]:
    """One page's conversations in full: counts over all their messages, the first question."""
    if not ids:
        return {}
    marks = ", ".join("?" * len(ids))
    counts = ", ".join(
        [case_count(f"m.outcome = '{name}'") for name in OUTCOMES]
        + [case_count("f.score = 1"), case_count("f.score = -1")]
    )
    cur.execute(
        "SELECT c.id, c.channel, c.created_at, c.last_at, COUNT(m.seq), "
        + counts
        + " FROM conversations c JOIN messages m ON m.conversation_id = c.id"
        " LEFT JOIN feedback f ON f.message_id = m.id"
        f" WHERE c.id IN ({marks}) GROUP BY c.id, c.channel, c.created_at, c.last_at",
        ids,
    )
    rows = cur.fetchall()
    cur.execute(
        "SELECT m.conversation_id, m.content FROM messages m WHERE m.seq IN"
        f" (SELECT MIN(seq) FROM messages WHERE role = 'user' AND conversation_id IN ({marks})"
        " GROUP BY conversation_id)",
        ids,
    )
    firsts = {r[0]: r[1] for r in cur.fetchall()}
    return {
        r[0]: ConversationSummary(
            id=r[0],
            channel=r[1] or "",
            started=float(r[2]),
            last=float(r[3] if r[3] is not None else r[2]),
            messages=int(r[4]),
            first_question=firsts.get(r[0], ""),
            outcomes={name: int(n) for name, n in zip(OUTCOMES, r[5:9], strict=True) if n},
            thumbs_up=int(r[9] or 0),
            thumbs_down=int(r[10] or 0),
        )
        for r in rows
    }


def export_row(r: Sequence[Any]) -> ExportRow:
    return ExportRow(
        seq=int(r[0]),
        conversation_id=r[1],
        channel=r[2] or "",
        asked_at=float(r[3]),
        question=r[4],
        answer=r[5],
        outcome=r[6],
        route=r[7],
        generator=r[8],
        fallback=r[9],
        cited=_slugs(r[10]),
        total_ms=r[11],
        engine_ms=r[12],
        score=r[13],
        comment=r[14],
    )


def _slugs(text: str | None) -> list[str]:
    value = json.loads(text) if text else []
    return [s for s in value if isinstance(s, str)] if isinstance(value, list) else []


def json_object(text: str | None) -> dict[str, Any] | None:
    """A stored JSON object, or None for nothing or anything else."""
    if not text:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
