"""Stored conversations → what the console shows of them: Russian labels, times, no raw codes.

    page = conversation_list(store.conversations(query), zone)
    view = conversation_view(store.conversation(cid), zone)

An answer is shown with its citations (title and link), its calculations as the display
blocks the widget draws (never the raw `result`), its feedback and comment, the generator,
why the LLM was replaced if it was, the question the engine understood, and its timings.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from assistant.console import labels
from assistant.console.period import local_time
from assistant.storage.rows import ConversationDetail, ConversationPage, StoredTurn


class OutcomeBadge(BaseModel):
    outcome: str  # the code, for the page's colours only
    label: str
    count: int


class ConversationItem(BaseModel):
    id: str  # to open it; never printed
    channel: str
    channel_label: str
    started: str
    last: str
    messages: int
    first_question: str
    outcomes: list[OutcomeBadge]
    thumbs_up: int
    thumbs_down: int


class ConversationList(BaseModel):
    items: list[ConversationItem]
    total: int
    offset: int
    limit: int


class Source(BaseModel):
    title: str
    url: str


class TurnView(BaseModel):
    role: str
    text: str
    time: str
    outcome: str = ""
    outcome_label: str = ""
    route_label: str = ""
    generator_label: str = ""
    fallback_label: str = ""
    confidence_label: str = ""
    understood: str = ""  # the self-contained question answered, when it differs
    handoff_reason: str = ""
    sources: list[Source] = []
    calculations: list[dict[str, Any]] = []  # display blocks (display.js draws them)
    feedback: str = ""  # 👍 / 👎
    comment: str = ""
    total_ms: float | None = None
    engine_ms: float | None = None


class ConversationView(BaseModel):
    id: str
    channel_label: str
    started: str
    turns: list[TurnView]


def _iso(epoch: float, zone: str) -> str:
    return local_time(epoch, zone).isoformat(timespec="seconds")


def conversation_list(
    page: ConversationPage, zone: str, offset: int, limit: int
) -> ConversationList:
    items = [
        ConversationItem(
            id=c.id,
            channel=c.channel,
            channel_label=labels.channel(c.channel),
            started=_iso(c.started, zone),
            last=_iso(c.last, zone),
            messages=c.messages,
            first_question=c.first_question,
            outcomes=[
                OutcomeBadge(outcome=code, label=labels.outcome(code), count=n)
                for code, n in c.outcomes.items()
            ],
            thumbs_up=c.thumbs_up,
            thumbs_down=c.thumbs_down,
        )
        for c in page.items
    ]
    return ConversationList(items=items, total=page.total, offset=offset, limit=limit)


def _calculations(answer: dict[str, Any]) -> list[dict[str, Any]]:
    calls = answer.get("tool_calls") or []
    return [
        c["display"] for c in calls if isinstance(c, dict) and isinstance(c.get("display"), dict)
    ]


def _turn(turn: StoredTurn, question: str, zone: str) -> TurnView:
    view = TurnView(role=turn.role, text=turn.content, time=_iso(turn.created_at, zone))
    if turn.role != "assistant":
        return view
    answer, meta = turn.answer or {}, turn.meta or {}
    understood = str(meta.get("question") or "")
    view.outcome = turn.outcome
    view.outcome_label = labels.outcome(turn.outcome)
    view.route_label = labels.route(str(answer.get("route") or ""))
    view.generator_label = labels.generator(turn.generator)
    view.fallback_label = labels.fallback(turn.fallback)
    view.confidence_label = labels.label(labels.CONFIDENCE, str(meta.get("confidence") or ""))
    view.understood = understood if understood.strip() != question.strip() else ""
    view.handoff_reason = str(meta.get("handoff_reason") or "")
    view.sources = [
        Source(title=str(c.get("title") or ""), url=str(c.get("url") or ""))
        for c in answer.get("citations") or []
        if isinstance(c, dict)
    ]
    view.calculations = _calculations(answer)
    view.feedback = labels.FEEDBACK.get(turn.score, "") if turn.score is not None else ""
    view.comment = turn.comment
    view.total_ms, view.engine_ms = turn.total_ms, turn.engine_ms
    return view


def conversation_view(detail: ConversationDetail, zone: str) -> ConversationView:
    turns, question = [], ""
    for turn in detail.turns:
        if turn.role == "user":
            question = turn.content
        turns.append(_turn(turn, question, zone))
    return ConversationView(
        id=detail.id,
        channel_label=labels.channel(detail.channel),
        started=_iso(detail.created_at, zone),
        turns=turns,
    )
