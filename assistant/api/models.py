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
    message: str = Field(description="Сообщение клиента")
    thread: list[ThreadMessage] = Field(default_factory=list, max_length=50)


class SuggestResponse(BaseModel):
    """A draft reply for a support agent, with everything needed to check it."""

    draft: str
    citations: list[Citation]
    evidence: list[Evidence]
    calculations: list[ToolCall]
    confidence: Literal["high", "medium", "low"]
    handoff: bool
    refused: bool
    route: str
    generator: str
    message_id: str


class OpenAIMessage(BaseModel):
    role: str
    content: str | list[dict[str, Any]] | None = None


class CompletionRequest(BaseModel):
    model: str = "glossary-assistant"
    messages: list[OpenAIMessage] = Field(min_length=1, max_length=100)
    stream: bool = False
    user: str | None = None
