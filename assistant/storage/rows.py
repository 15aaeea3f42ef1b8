"""The console's records: periods, counts, conversations, export rows and gap items (frozen).

Read by `storage/console.py` from SQL rows and handed on, unchanged, to `assistant/console`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Feedback = Literal["up", "down", "any", "none"]


@dataclass(frozen=True)
class Span:
    start: float
    end: float


@dataclass(frozen=True)
class AnswerCount:
    day: int  # days since 1970-01-01 in the console's time zone
    channel: str
    outcome: str
    generator: str
    fallback: bool  # the embedded generator stood in for the LLM
    count: int


@dataclass(frozen=True)
class Percentiles:
    """Question → answer time of a day, a channel, or (both None) the whole period."""

    day: int | None
    channel: str | None
    p50_ms: float
    p95_ms: float


@dataclass(frozen=True)
class AnswerSummary:
    counts: tuple[AnswerCount, ...]
    times: tuple[Percentiles, ...]


@dataclass(frozen=True)
class DayCount:
    """Something counted per day and channel: questions, new conversations, 👍 or 👎."""

    day: int
    channel: str
    count: int
    kind: str = ""  # feedback: "up" / "down"


@dataclass(frozen=True)
class ConversationQuery:
    span: Span
    text: str = ""  # folded (facts.fold); matched anywhere in a customer's question
    channel: str = ""
    outcome: str = ""
    feedback: Feedback | None = None
    offset: int = 0
    limit: int = 50


@dataclass(frozen=True)
class ConversationSummary:
    id: str
    channel: str
    started: float
    last: float
    messages: int
    first_question: str
    outcomes: dict[str, int]
    thumbs_up: int
    thumbs_down: int


@dataclass(frozen=True)
class ConversationPage:
    items: list[ConversationSummary]
    total: int


@dataclass(frozen=True)
class StoredTurn:
    """One message as the console shows it; `answer`/`meta` are the stored JSON objects."""

    role: str
    content: str
    created_at: float
    answer: dict[str, Any] | None = None
    meta: dict[str, Any] | None = None
    outcome: str = ""
    generator: str = ""
    fallback: str = ""
    engine_ms: float | None = None
    total_ms: float | None = None
    score: int | None = None
    comment: str = ""


@dataclass(frozen=True)
class ConversationDetail:
    id: str
    channel: str
    created_at: float
    turns: list[StoredTurn]


@dataclass(frozen=True)
class ExportRow:
    """One exchange: a question and the answer to it (empty when the engine failed)."""

    seq: int
    conversation_id: str
    channel: str
    asked_at: float
    question: str
    answer: str
    outcome: str
    route: str
    generator: str
    fallback: str
    cited: list[str]
    total_ms: float | None
    engine_ms: float | None
    score: int | None
    comment: str


@dataclass(frozen=True)
class GapItem:
    """Declined or 👎 answers of one question (as the engine understood it, self-contained)
    with one comment ('' for none): how many, how many declined, how many 👎, the last one."""

    question: str
    comment: str
    count: int
    declined: int
    disliked: int
    last_seen: float
