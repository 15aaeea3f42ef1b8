"""The overview of a period: totals, every day of the calendar, per channel, one channel alone,
answer-time percentiles (stored answers written as the service writes them)."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from assistant.console.overview import build_overview
from assistant.console.period import Period, PeriodError
from assistant.storage.console import ConsoleRepository
from tests.console.seed import backdate
from tests.storage.test_facts import answer, store

ZONE = "Europe/Moscow"


def _history(repo: ConsoleRepository) -> None:
    cases = [
        ("web", answer(), 0, 1),
        ("web", answer("out_of_scope", refused=True), 0, -1),
        ("telegram", answer("clarify"), 2, None),
        ("telegram", answer(generator="vllm"), 2, 1),
        (
            "agent",
            answer("out_of_scope", refused=True, handoff_reason="Возвраты решают люди."),
            5,
            None,
        ),
        ("openai", answer(fallback_reason="llm_timeout"), 9, -1),
    ]
    for channel, reply, days_ago, score in cases:
        mid = store(repo, channel, "вопрос", reply)
        if score is not None:
            repo.add_feedback(mid, score)
        backdate(repo, _conversation_of(repo, mid), days_ago)
    unanswered = repo.get_or_create_conversation("web", None)
    repo.add_user_message(unanswered, "вопрос, на котором движок упал")


def _conversation_of(repo: ConsoleRepository, message_id: str) -> str:
    with repo._tx() as cur:  # type: ignore[attr-defined]
        cur.execute("SELECT conversation_id FROM messages WHERE id = ?", (message_id,))
        return str(cur.fetchone()[0])


def _today() -> datetime:
    return datetime.now(ZoneInfo(ZONE))


def test_totals_and_rates_of_a_period(repo: ConsoleRepository) -> None:
    _history(repo)
    o = build_overview(repo, Period.last_days(7, ZONE))
    t = o.totals
    # the 9-days-old exchange is outside; the question the engine failed on is in
    assert (t.conversations, t.messages, t.answers) == (6, 11, 5)
    assert (t.answered, t.declined, t.handoff, t.clarify) == (2, 1, 1, 1)
    assert (t.up, t.down, t.llm, t.embedded, t.fallbacks) == (2, 1, 1, 4, 0)
    assert t.unanswered == 1 and t.p50_ms is not None and t.p95_ms is not None
    everything = build_overview(repo, Period.last_days(30, ZONE)).totals
    assert (everything.answers, everything.fallbacks, everything.down) == (6, 1, 2)


def test_every_day_is_charted_and_counts_fall_on_their_day(repo: ConsoleRepository) -> None:
    _history(repo)
    o = build_overview(repo, Period.last_days(7, ZONE))
    assert len(o.days) == 7 and o.days[-1].date == _today().date().isoformat()
    by_date = {d.date: d for d in o.days}
    two_days_ago = (_today() - timedelta(days=2)).date().isoformat()
    assert by_date[two_days_ago].answers == 2 and by_date[two_days_ago].clarify == 1
    assert sum(d.answers for d in o.days) == o.totals.answers
    assert sum(1 for d in o.days if d.answers == 0) >= 4  # quiet days are zeros, not missing


def test_per_channel_rows_and_one_channel_alone(repo: ConsoleRepository) -> None:
    _history(repo)
    o = build_overview(repo, Period.last_days(30, ZONE))
    rows = {r.channel: r for r in o.channels}
    assert [r.label for r in o.channels] == [
        "Виджет",
        "Telegram",
        "Помощник оператора",
        "API (OpenAI)",
    ]
    assert rows["telegram"].answers == 2 and rows["telegram"].llm == 1
    assert rows["agent"].handoff == 1 and rows["web"].conversations == 3
    alone = build_overview(repo, Period.last_days(30, ZONE), channel="telegram")
    assert alone.totals.answers == 2 and [r.channel for r in alone.channels] == ["telegram"]


def test_answer_time_percentiles(repo: ConsoleRepository) -> None:
    for _ in range(10):
        store(repo, "web", "вопрос", answer())
    with repo._tx() as cur:  # type: ignore[attr-defined]
        cur.execute("SELECT seq FROM messages WHERE role = 'assistant' ORDER BY seq")
        for i, (seq,) in enumerate(cur.fetchall(), 1):
            cur.execute("UPDATE messages SET total_ms = ? WHERE seq = ?", (100.0 * i, seq))
    t = build_overview(repo, Period.last_days(1, ZONE)).totals
    assert (t.p50_ms, t.p95_ms) == (550.0, 955.0)  # 100…1000 ms, interpolated


@pytest.mark.parametrize(
    ("first", "last", "message"),
    [
        ("2026-13-01", "2026-12-31", "ГГГГ-ММ-ДД"),
        ("2026-03-10", "2026-03-01", "раньше"),
        ("2020-01-01", "2026-01-01", "длиннее"),
    ],
)
def test_a_bad_period_says_why_in_russian(first: str, last: str, message: str) -> None:
    with pytest.raises(PeriodError) as info:
        Period.parse(first, last, ZONE)
    assert message in str(info.value)


def test_days_start_at_midnight_in_the_console_time_zone() -> None:
    p = Period.parse("2026-03-01", "2026-03-02", "Europe/Moscow")
    assert p.span.start == datetime(2026, 2, 28, 21, tzinfo=ZoneInfo("UTC")).timestamp()
    assert p.span.end - p.span.start == 2 * 86400 and p.offset == 3 * 3600
