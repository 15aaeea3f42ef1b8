"""HTTP request/response bodies (pydantic) for chat, feedback, the agent helper and sessions.

Request bodies are strict: JSON `true` is not the score 1, `"yes"` is not `stream: true`. The
message limits are checked by the one validator (conversation/validation.py), not by pydantic,
so every channel reports them with the same Russian text; their JSON Schema (minLength 1, a
non-space character, maxLength = ASSISTANT_MAX_MESSAGE_CHARS) is filled in by api/docs.py.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from assistant.schema import Citation, Evidence, ToolCall

ID_PATTERN = r"^[0-9A-Za-z_-]+$"  # stored ids are 32 hex digits; anything else is no id of ours
MESSAGE_DOC = (
    "Вопрос пользователя (русский текст): хотя бы один непробельный символ, не длиннее "
    "ASSISTANT_MAX_MESSAGE_CHARS символов после удаления пробелов по краям."
)


class StrictBody(BaseModel):
    """A request body: no type coercion (booleans are not numbers, numbers are not strings)."""

    model_config = ConfigDict(strict=True)


class ErrorDetail(BaseModel):
    code: str = Field(
        description="Код для программ: empty_message, message_too_long, invalid_request, "
        "answer_failed, rate_limited, unauthorized, payload_too_large, unavailable…"
    )
    message: str = Field(description="Сообщение для человека, по-русски")
    type: str | None = Field(
        default=None,
        description="Только на маршрутах OpenAI (/v1/chat/completions, /v1/models): тип ошибки "
        "OpenAI — invalid_request_error, authentication_error, permission_error, "
        "rate_limit_error, server_error",
    )
    param: str | None = Field(default=None, description="Только на маршрутах OpenAI: всегда null")


class ErrorResponse(BaseModel):
    """The one error body of every route."""

    error: ErrorDetail


class ChatRequest(StrictBody):
    message: str = Field(
        description=MESSAGE_DOC, json_schema_extra={"minLength": 1, "pattern": r"\S"}
    )
    session_id: str | None = Field(
        default=None,
        description="Из прошлого ответа: продолжает разговор (неизвестный — новый разговор)",
        max_length=64,
        pattern=ID_PATTERN,
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


class FeedbackRequest(StrictBody):
    message_id: str = Field(max_length=64, pattern=ID_PATTERN)
    score: Literal[1, -1] = Field(description="1 — 👍, -1 — 👎 (целое число, не true/false)")
    comment: str = Field(default="", max_length=2000)

    @field_validator("score", mode="before")
    @classmethod
    def _integer_only(cls, value: Any) -> Any:
        # Literal[1, -1] alone takes True and 1.0 (they equal 1), strict mode or not
        if type(value) is not int:
            raise ValueError("score must be the integer 1 or -1")
        return value


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


class DeletedResponse(BaseModel):
    """The conversation and everything stored with it are gone."""

    deleted: bool = True


class ThreadMessage(StrictBody):
    role: Literal["customer", "agent", "user", "assistant"]
    content: str = Field(max_length=8000)


class SuggestRequest(StrictBody):
    message: str = Field(
        default="",
        description="Сообщение клиента, не длиннее ASSISTANT_MAX_MESSAGE_CHARS символов; пусто — "
        "последнее сообщение клиента из переписки (thread или thread_text), и тогда переписка "
        "должна кончаться сообщением клиента, иначе 422 empty_message",
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


class OpenAIMessage(StrictBody):
    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[dict[str, Any]] | None = None


class StreamOptions(StrictBody):
    include_usage: bool = Field(
        default=False, description="Последний кусок потока — счётчики токенов (usage)"
    )


class CompletionRequest(StrictBody):
    """Other OpenAI fields (temperature, max_tokens…) are accepted and ignored."""

    model: str = "glossary-assistant"
    messages: list[OpenAIMessage] = Field(
        min_length=1,
        max_length=100,
        description="Последнее сообщение role=user — вопрос (те же ограничения, что у message в "
        "/v1/chat, иначе 422), предыдущие — история",
        # necessary for a 200 (the question needs a user message with text), stated as schema
        json_schema_extra={
            "contains": {
                "type": "object",
                "required": ["role", "content"],
                "properties": {
                    "role": {"const": "user"},
                    "content": {
                        "anyOf": [
                            {"type": "string", "pattern": r"\S"},
                            {"type": "array", "minItems": 1},
                        ]
                    },
                },
            }
        },
    )
    stream: bool = False
    stream_options: StreamOptions | None = None
    user: str | None = None


class CompletionMessage(BaseModel):
    role: Literal["assistant"]
    content: str


class CompletionChoice(BaseModel):
    index: int
    message: CompletionMessage
    finish_reason: str


class CompletionGlossary(BaseModel):
    tool_calls: list[ToolCall]
    refused: bool
    route: str
    generator: str
    message_id: str


class CompletionResponse(BaseModel):
    """`chat.completion` as OpenAI clients read it, plus `citations` and `glossary`."""

    id: str
    object: Literal["chat.completion"]
    created: int
    model: str
    choices: list[CompletionChoice]
    usage: dict[str, int] = Field(
        description="prompt_tokens (все присланные сообщения), completion_tokens (ответ), "
        "total_tokens — токенизатором модели поиска (multilingual-e5-small, SentencePiece)"
    )
    citations: list[Citation]
    glossary: CompletionGlossary


class ReadyResponse(BaseModel):
    """/readyz: 200 when ready, 503 with the same body when not."""

    model_config = ConfigDict(extra="allow")

    ready: bool
    fallback_active: bool = Field(description="LLM недоступна: отвечает встроенный генератор")
    index: bool
    database: bool
    llm: str = Field(description="disabled | ok | down")
    generator: str
