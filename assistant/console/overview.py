"""A period (and optionally one channel) → the overview: per-day series, totals, per channel.

    overview = build_overview(store, period, channel="")

Every day of the period is in `days`, empty ones as zeros, so a chart's bars line up with the
calendar. Rates are left to the reader of the counts (the page prints them next to each chart);
answer times are percentiles (linear interpolation) of question-stored → answer-stored.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import BaseModel

from assistant.console import labels
from assistant.console.period import Period, day_date
from assistant.storage.console import ConsoleStore
from assistant.storage.rows import Percentiles


class Counts(BaseModel):
    conversations: int = 0  # begun in the period (on the day they began)
    messages: int = 0
    answers: int = 0
    answered: int = 0
    declined: int = 0
    handoff: int = 0
    clarify: int = 0
    up: int = 0
    down: int = 0
    llm: int = 0
    embedded: int = 0
    fallbacks: int = 0
    unanswered: int = 0  # questions the engine failed on: stored, never answered
    p50_ms: float | None = None
    p95_ms: float | None = None


class DayPoint(Counts):
    date: str  # ISO date in the console's time zone


class ChannelRow(Counts):
    channel: str
    label: str


class Overview(BaseModel):
    first: str
    last: str
    timezone: str
    channel: str
    days: list[DayPoint]
    totals: Counts
    channels: list[ChannelRow]


Tally = Counter[str]  # field of Counts → running total, turned into models at the end


def _add_answers(tally: Tally, outcome: str, generator: str, fallback: bool, n: int) -> None:
    tally["answers"] += n
    tally["messages"] += n  # each answer is a message too
    if outcome in ("answered", "declined", "handoff", "clarify"):
        tally[outcome] += n
    tally["llm" if generator == "vllm" else "embedded"] += n
    tally["fallbacks"] += n if fallback else 0


def _fields(tally: Tally, times: Percentiles | None) -> dict[str, Any]:
    unanswered = max(0, tally["messages"] - 2 * tally["answers"])
    p50, p95 = (times.p50_ms, times.p95_ms) if times else (None, None)
    return {**tally, "unanswered": unanswered, "p50_ms": p50, "p95_ms": p95}


def build_overview(store: ConsoleStore, period: Period, channel: str = "") -> Overview:
    span, offset = period.span, period.offset
    summary = store.answer_summary(span, offset, channel)
    questions = store.question_counts(span, offset, channel)
    begun = store.conversation_counts(span, offset, channel)
    rated = store.feedback_counts(span, offset, channel)

    by_day: dict[int, Tally] = {d: Counter() for d in period.days}
    by_channel: dict[str, Tally] = {}
    total: Tally = Counter()

    def tallies(day: int, code: str) -> list[Tally]:
        found = [by_day[day]] if day in by_day else []
        return [*found, by_channel.setdefault(code, Counter()), total]

    for a in summary.counts:
        for tally in tallies(a.day, a.channel):
            _add_answers(tally, a.outcome, a.generator, a.fallback, a.count)
    for name, counted in (("messages", questions), ("conversations", begun)):
        for c in counted:
            for tally in tallies(c.day, c.channel):
                tally[name] += c.count
    for f in rated:
        for tally in tallies(f.day, f.channel):
            tally[f.kind] += f.count

    day_times = {t.day: t for t in summary.times if t.day is not None}
    channel_times = {t.channel: t for t in summary.times if t.day is None and t.channel is not None}
    all_times = next((t for t in summary.times if t.day is None and t.channel is None), None)
    order = list(labels.CHANNELS)
    codes = sorted(by_channel, key=lambda c: (order.index(c) if c in order else len(order), c))
    return Overview(
        first=period.first.isoformat(),
        last=period.last.isoformat(),
        timezone=period.zone,
        channel=channel,
        days=[
            DayPoint(date=day_date(d).isoformat(), **_fields(t, day_times.get(d)))
            for d, t in by_day.items()
        ],
        totals=Counts(**_fields(total, all_times)),
        channels=[
            ChannelRow(
                channel=c,
                label=labels.channel(c),
                **_fields(by_channel[c], channel_times.get(c)),
            )
            for c in codes
        ],
    )
