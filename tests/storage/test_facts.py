"""Each stored answer carries its outcome, channel, generator, fallback and timings; a database
written by an earlier version gets them filled in when it is opened (SQLite and PostgreSQL)."""

from __future__ import annotations

import sqlite3
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from assistant.schema import Answer, AnswerMeta, Citation, Turn
from assistant.storage.base import SCHEMA
from assistant.storage.console import ConsoleRepository, ConversationQuery, Span
from assistant.storage.facts import outcome_of
from tests.storage.conftest import PG_DSN, PG_SKIP

EVERYTHING = Span(0, time.time() + 86400)


def answer(route: str = "term", text: str = "NVLink — интерконнект [1].", **meta: Any) -> Answer:
    refused = meta.pop("refused", False)
    return Answer(
        answer=text,
        citations=[Citation(slug="nvlink", title="NVLink", url="/glossary/nvlink")],
        refused=refused,
        route=route,  # type: ignore[arg-type]
        generator=meta.pop("generator", "embedded"),
        meta=AnswerMeta(**meta),
    )


def store(repo: ConsoleRepository, channel: str, question: str, reply: Answer) -> str:
    cid = repo.get_or_create_conversation(channel, None)
    qid = repo.add_user_message(cid, question)
    return repo.add_answer(cid, qid, reply, Turn(role="assistant", content=reply.answer))


@pytest.mark.parametrize(
    ("route", "refused", "reason", "expected"),
    [
        ("term", False, "", "answered"),
        ("greeting", False, "", "answered"),
        ("numeric", False, "", "answered"),
        ("clarify", False, "", "clarify"),
        ("not_found", True, "", "declined"),
        ("injection", True, "", "declined"),
        ("out_of_scope", True, "Возврат денег решают специалисты.", "handoff"),
    ],
)
def test_outcome_of_an_answer(route: str, refused: bool, reason: str, expected: str) -> None:
    assert outcome_of(route, refused, reason) == expected


def test_answer_facts_are_stored_with_the_answer(repo: ConsoleRepository) -> None:
    store(repo, "telegram", "что такое NVLink", answer(latency_ms=12.5))
    reply = answer(generator="embedded", fallback_reason="llm_timeout", latency_ms=40.0)
    store(repo, "openai", "чем NVLink отличается от PCIe", reply)
    refused = answer("out_of_scope", refused=True, handoff_reason="Оплату решают специалисты.")
    store(repo, "web", "верните деньги", refused)

    summary = repo.answer_summary(EVERYTHING, 0)
    assert sorted((c.channel, c.outcome, c.fallback, c.count) for c in summary.counts) == [
        ("openai", "answered", True, 1),
        ("telegram", "answered", False, 1),
        ("web", "handoff", False, 1),
    ]
    [overall] = [t for t in summary.times if t.day is None and t.channel is None]
    assert 0 <= overall.p50_ms <= overall.p95_ms < 5000
    questions = {m.channel: m.count for m in repo.question_counts(EVERYTHING, 0)}
    assert questions == {"telegram": 1, "openai": 1, "web": 1}  # questions carry the channel too


def _old_rows(when: float) -> list[tuple[str, tuple[Any, ...]]]:
    """What the previous version wrote: no facts columns, everything in the JSON."""
    cid, q1, a1, q2, a2 = (uuid.uuid4().hex for _ in range(5))
    old = answer("not_found", refused=True, latency_ms=30.0)
    vllm = answer(generator="vllm", latency_ms=900.0)
    insert = (
        "INSERT INTO messages (id, conversation_id, role, content, reply_to, answer, meta, route,"
        " refused, confidence, handoff, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    return [
        (
            "INSERT INTO conversations (id, channel, external_id, active, created_at)"
            " VALUES (?, 'telegram', '7', 1, ?)",
            (cid, when),
        ),
        (insert, (q1, cid, "user", "Что такое ТПУ?", None, None, None, None, 0, None, 0, when)),
        (
            insert,
            (
                a1,
                cid,
                "assistant",
                old.answer,
                q1,
                old.model_dump_json(),
                old.meta.model_dump_json(),
                "not_found",
                1,
                "low",
                1,
                when + 0.25,
            ),
        ),
        (insert, (q2, cid, "user", "а NVLink?", None, None, None, None, 0, None, 0, when + 5)),
        (
            insert,
            (
                a2,
                cid,
                "assistant",
                vllm.answer,
                q2,
                vllm.model_dump_json(),
                vllm.meta.model_dump_json(),
                "term",
                0,
                "high",
                0,
                when + 6,
            ),
        ),
        (
            "INSERT INTO feedback (message_id, score, comment, created_at) VALUES (?, -1, ?, ?)",
            (a2, "не то", when + 60),
        ),
    ]


def _check_upgraded(repo: ConsoleRepository) -> None:
    summary = repo.answer_summary(EVERYTHING, 0)
    assert sorted((c.channel, c.outcome, c.generator) for c in summary.counts) == [
        ("telegram", "answered", "vllm"),
        ("telegram", "declined", "embedded"),
    ]
    [overall] = [t for t in summary.times if t.day is None and t.channel is None]
    # the answer times, 250 and 1 000 ms, rebuilt from the question times
    assert (overall.p50_ms, overall.p95_ms) == pytest.approx((625, 962.5))
    [row, second] = [r for batch in repo.export_batches(EVERYTHING) for r in batch]
    assert row.question == "Что такое ТПУ?" and row.cited == ["nvlink"]
    assert row.engine_ms == 30.0 and second.generator == "vllm"
    found = repo.conversations(ConversationQuery(EVERYTHING, text="тпу"))
    assert found.total == 1  # the search column is filled in for old rows too
    assert found.items[0].last > found.items[0].started  # and the conversation's last message
    [rated] = repo.feedback_counts(EVERYTHING, 0)
    assert (rated.channel, rated.kind, rated.count) == ("telegram", "down", 1)
    assert repo.conversations(ConversationQuery(EVERYTHING, feedback="down")).total == 1


def test_an_old_sqlite_database_is_upgraded_when_opened(tmp_path: Path) -> None:
    from assistant.storage.sqlite import SqliteRepository

    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    for statement in SCHEMA:
        conn.execute(statement.format(serial="INTEGER PRIMARY KEY AUTOINCREMENT"))
    for sql, params in _old_rows(time.time() - 3600):
        conn.execute(sql, params)
    conn.commit()
    conn.close()
    repo = SqliteRepository(path)
    try:
        _check_upgraded(repo)
    finally:
        repo.close()
    again = SqliteRepository(path)  # opening twice changes nothing
    try:
        _check_upgraded(again)
    finally:
        again.close()


def test_an_old_postgres_database_is_upgraded_when_opened() -> None:
    if not PG_DSN:
        pytest.skip(PG_SKIP)
    import psycopg

    from assistant.storage.postgres import PostgresRepository

    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS feedback, messages, conversations, gap_vectors")
        for statement in SCHEMA:
            conn.execute(statement.format(serial="BIGSERIAL PRIMARY KEY"))
        for sql, params in _old_rows(time.time() - 3600):
            conn.execute(sql.replace("?", "%s"), params)
    repo = PostgresRepository(PG_DSN)
    try:
        _check_upgraded(repo)
    finally:
        repo.close()
