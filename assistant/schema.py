"""Data crossing pipeline stages: retrieval hits, citations, tool calls, the final Answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field


class DisplayItem(BaseModel):
    """One stated input: «Модель» — «Llama 3 70B»."""

    label: str
    value: str


class DisplayRow(BaseModel):
    """One line of the breakdown: «Веса» — «70,6 ГБ» — «70,6 млрд × 1 байт (FP8)»."""

    label: str
    value: str
    note: str = ""
    strong: bool = False  # the total


class DisplayTable(BaseModel):
    caption: str
    columns: list[str]
    rows: list[list[str]]


class Display(BaseModel):
    """A calculation for people, shared by every renderer (answer/calculations/display.py
    builds it; DISPLAY.md)."""

    title: str
    headline: str
    inputs: list[DisplayItem] = Field(default_factory=list)
    rows: list[DisplayRow] = Field(default_factory=list)
    table: DisplayTable | None = None
    assumptions: list[str] = Field(default_factory=list)
    source: str = ""


Route = Literal[
    "term",  # explain one term
    "comparison",  # compare two or more terms
    "numeric",  # answered by a calculator
    "clarify",  # numeric question missing a parameter → one question back
    "greeting",  # hello / what can you do
    "out_of_scope",  # polite refusal
    "injection",  # prompt-injection attempt → refusal, nothing leaked
    "not_found",  # GPU-adjacent but not in the glossary: say so, offer nearest entries
]


@dataclass(frozen=True)
class SearchHit:
    """One retrieved glossary entry with its fused score (higher is better)."""

    slug: str
    title: str
    score: float


class Citation(BaseModel):
    slug: str
    title: str
    url: str


class ToolCall(BaseModel):
    name: str
    arguments: dict[str, Any]
    result: dict[str, Any]  # raw and machine-readable, for integrations
    display: Display | None = None  # the same result for people (DISPLAY.md)


class Turn(BaseModel):
    """One message of a conversation, as stored and fed back to the engine."""

    role: Literal["user", "assistant"]
    content: str
    # numeric parameters carried over between turns (e.g. model size stays when precision changes)
    params: dict[str, Any] = Field(default_factory=dict)
    slugs: list[str] = Field(default_factory=list)


class Evidence(BaseModel):
    """The exact glossary sentences an answer used, per cited entry (for the agent helper)."""

    slug: str
    title: str
    url: str
    sentences: list[str]


# Why the embedded generator answered instead of the LLM: a fixed set of codes (the metric
# label `assistant_fallbacks_total{reason}`); the free-text detail goes to logs only.
FallbackReason = Literal[
    "",  # no fallback
    "llm_unavailable",  # unreachable, connection broken, stream cut
    "llm_circuit_open",  # breaker open: not even tried
    "llm_timeout",  # the whole draft overran ASSISTANT_LLM_TIMEOUT_S
    "llm_error",  # HTTP error status, malformed answer
    "grounding_citations",  # marker without a source, entry outside the context, no citation
    "grounding_numbers",  # a number or name not supported by its cited claim
    "grounding_tool_result",  # a numeric answer without the calculator's result
    "unsupported_text",  # prose that does not stand on its sources
    "echo",  # repeats the prompt's own instructions
    "degenerate",  # repetition loops, a fake source list
    "foreign_link",  # a URL no source contains
    "length",  # too short or too long
]
FALLBACK_REASONS: tuple[str, ...] = tuple(r for r in get_args(FallbackReason) if r)


class AnswerMeta(BaseModel):
    """Engine-internal facts about an answer; not part of the public JSON object."""

    question: str = ""  # the condensed, self-contained question actually answered
    params: dict[str, Any] = Field(default_factory=dict)  # numeric params to carry to next turn
    slugs: list[str] = Field(default_factory=list)  # entries in the retrieved context
    evidence: list[Evidence] = Field(default_factory=list)
    confidence: Literal["high", "medium", "low"] = "medium"
    handoff: bool = False  # "передать специалисту": the glossary does not cover it
    handoff_reason: str = ""  # why, in Russian, for the support agent (answer/edges.py)
    fallback_reason: FallbackReason = ""  # why the embedded generator answered, as a code
    fallback_detail: str = ""  # the same for people reading logs (may quote the draft)
    grounding_violations: int = 0  # caught (and repaired) before the answer left the engine
    latency_ms: float = 0.0


class Answer(BaseModel):
    """What the engine returns and every channel renders; identical to `assistant ask --json`.

    `meta` is excluded from `model_dump()`/JSON: the public object has exactly the six fields.
    """

    answer: str
    citations: list[Citation] = Field(default_factory=list)
    tool_calls: list[ToolCall] = Field(default_factory=list)
    refused: bool = False
    route: Route
    generator: str
    meta: AnswerMeta = Field(default_factory=AnswerMeta, exclude=True)


class StreamEvent(BaseModel):
    """One event of a streamed answer: text deltas first, then metadata, then `done`.

    kind="delta": `text` holds the next piece of the answer;
    kind="done": `answer` holds the complete Answer (citations, tool calls, route, generator).
    """

    kind: Literal["delta", "done"]
    text: str = ""
    answer: Answer | None = None
