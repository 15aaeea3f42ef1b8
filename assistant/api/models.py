"""HTTP request/response bodies (pydantic) for chat, feedback, the agent helper and sessions."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from assistant.schema import Citation, Evidence, ToolCall


class ChatRequest(BaseModel):
    message: str = Field(description="Вопрос пользователя (русский текст)")
    session_id: str | None = Field(
        default=None, description="Из прошлого ответа: продолжает разговор", max_length=64
    )


class ChatResponse(BaseModel):
    """The engine's public answer object plus where it is stored."""

    answer: str
    citations: list[Citation]
    tool_calls: list[ToolCall]
    refused: bool
    route: str
    generator: str
    session_id: str
    message_id: str


class FeedbackRequest(BaseModel):
    message_id: str = Field(max_length=64)
    score: Literal[1, -1] = Field(description="1 — 👍, -1 — 👎")
    comment: str = Field(default="", max_length=2000)


class FeedbackResponse(BaseModel):
    ok: bool = True


class StoredMessageOut(BaseModel):
    id: str
    role: str
    content: str
    answer: dict[str, Any] | None = None
    feedback: int | None = None


class SessionResponse(BaseModel):
    session_id: str
    messages: list[StoredMessageOut]


class ThreadMessage(BaseModel):
    role: Literal["customer", "agent", "user", "assistant"]
    content: str = Field(max_length=8000)


class SuggestRequest(BaseModel):
    message: str = Field(
        default="",
        description="Сообщение клиента; пусто — последнее сообщение клиента из thread_text",
    )
    thread: list[ThreadMessage] = Field(default_factory=list, max_length=50)
    thread_text: str = Field(
        default="",
        max_length=20_000,
        description="Переписка как есть: строки «клиент: …» / «оператор: …» или выгрузка "
        "хелпдеска «Иван Петров, 10:31 …»; сервер разберёт её на реплики",
    )


class Badge(BaseModel):
    """A short Russian status for the agent page: «Уверенность: высокая», «Передать специалисту»."""

    text: str
    tone: Literal["ok", "info", "warn"]


class SuggestResponse(BaseModel):
    """A draft reply for a support agent, with everything needed to check it."""

    draft: str
    citations: list[Citation]
    evidence: list[Evidence]  # one item per citation, so sources never stand unexplained
    calculations: list[ToolCall]  # each with `display` (DISPLAY.md)
    confidence: Literal["high", "medium", "low"]
    confidence_text: str = Field(description="Уверенность словами: почему такая")
    handoff: bool
    handoff_reason: str = Field(default="", description="Почему передать специалисту")
    refused: bool
    route: str
    generator: str
    badges: list[Badge] = Field(default_factory=list)
    thread_turns: int = Field(default=0, description="Сколько реплик переписки учтено")
    thread_warning: str = Field(default="", description="Переписку не удалось разобрать")
    message_id: str


class OpenAIMessage(BaseModel):
    role: str
    content: str | list[dict[str, Any]] | None = None


class CompletionRequest(BaseModel):
    model: str = "glossary-assistant"
    messages: list[OpenAIMessage] = Field(min_length=1, max_length=100)
    stream: bool = False
    user: str | None = None
