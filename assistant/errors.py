"""Error tree of the assistant: typed failures inside → one Russian message per channel.

AssistantError                      base; every error carries a Russian `user_message`
├── ConfigError                     bad settings or environment
├── CorpusError                     glossary/catalogue files invalid (list of CorpusProblem)
├── IndexError_                     index missing, stale or unreadable
│   └── StaleIndexError             manifest does not match corpus/model and rebuild disabled
├── EmbeddingError                  model cannot be loaded or converted
├── ToolError                       calculator failure
│   ├── ToolInputError              invalid argument (zero, negative, absurd, unknown GPU…)
│   └── MissingParameterError       a required argument is absent (engine asks a question)
├── GenerationError                 answer generation failed
│   ├── LLMUnavailableError         server unreachable, timed out, or circuit open
│   │   ├── LLMTimeoutError         the whole answer overran ASSISTANT_LLM_TIMEOUT_S
│   │   └── LLMCircuitOpenError     refused without a call: the circuit breaker is open
│   ├── GroundingError              answer failed citation/number checks
│   └── AnswerFailedError           the engine raised something untyped (a bug); the channel
│                                   says so in Russian, the question stays stored
├── StorageError                    the conversation store failed a read or write (full disk,
│                                   database down); nothing was acknowledged
└── InputError                      user input rejected at an edge (empty, too long…)

error_status(error) -> (HTTP status, machine code)   the same codes on every channel:
    InputError 422 invalid_input, AnswerFailedError 422 answer_failed, ToolError 422
    calculation_failed, index/model/corpus/LLM/store down 503 unavailable, ConfigError 503
    misconfigured, anything else 500 internal_error
first_match(error, ((Class, value), …), default) -> the value of the first class it is
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")
Kind = type[BaseException] | tuple[type[BaseException], ...]


class AssistantError(Exception):
    """Base class; `user_message` is safe to show to a customer (Russian, no internals)."""

    user_message = "Произошла внутренняя ошибка. Попробуйте ещё раз чуть позже."

    def __init__(self, message: str, *, user_message: str | None = None) -> None:
        super().__init__(message)
        if user_message is not None:
            self.user_message = user_message


class ConfigError(AssistantError):
    user_message = "Сервис настроен неверно. Мы уже разбираемся."


@dataclass(frozen=True)
class CorpusProblem:
    """One problem in a data file: where exactly, and what is wrong."""

    file: str
    record: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: запись «{self.record}», поле «{self.field}»: {self.message}"


class CorpusError(AssistantError):
    user_message = "Глоссарий сейчас недоступен. Попробуйте позже."

    def __init__(self, problems: list[CorpusProblem]) -> None:
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"найдено проблем в данных: {len(self.problems)}\n{lines}")


class IndexError_(AssistantError):
    user_message = "Поисковый индекс недоступен. Попробуйте позже."


class StaleIndexError(IndexError_):
    pass


class EmbeddingError(AssistantError):
    user_message = "Модель поиска недоступна. Попробуйте позже."


class ToolError(AssistantError):
    user_message = "Не получилось выполнить расчёт."


class ToolInputError(ToolError):
    """Invalid calculator input; the message itself is Russian and user-facing."""

    def __init__(self, message: str) -> None:
        super().__init__(message, user_message=message)


class MissingParameterError(ToolError):
    def __init__(self, missing: list[str], question: str) -> None:
        self.missing = list(missing)
        super().__init__(f"missing parameters: {', '.join(missing)}", user_message=question)


class GenerationError(AssistantError):
    user_message = "Не получилось составить ответ. Попробуйте переформулировать вопрос."


class LLMUnavailableError(GenerationError):
    pass


class LLMTimeoutError(LLMUnavailableError):
    """The whole draft took longer than its deadline (a slow server is an unavailable one)."""


class LLMCircuitOpenError(LLMUnavailableError):
    """Recent calls failed: the client refuses at once until the breaker lets a trial through."""


class GroundingError(GenerationError):
    pass


class AnswerFailedError(GenerationError):
    """An untyped exception escaped the engine while answering (OverflowError on a 400-digit
    number, a bug): channels show this Russian text instead of a server error. The original
    exception is the `__cause__`; its text never reaches a user."""

    def __init__(self) -> None:
        super().__init__(self.user_message)


class StorageError(AssistantError):
    """The database refused a read or write (a full disk, a lost connection): the client is
    told its message was not taken, with a status a load balancer understands (503)."""

    user_message = (
        "Не удалось сохранить сообщение: хранилище разговоров сейчас недоступно. "
        "Повторите, пожалуйста, через минуту."
    )


class InputError(AssistantError):
    """The message is Russian and user-facing; `code` names the rejection for machines (the
    HTTP error code: `empty_message`, `message_too_long`, …)."""

    def __init__(self, message: str, *, code: str = "invalid_input") -> None:
        super().__init__(message, user_message=message)
        self.code = code


def first_match(error: BaseException, table: Sequence[tuple[Kind, T]], default: T) -> T:
    """The value of the first row whose class(es) `error` is an instance of; else `default`."""
    return next((value for kind, value in table if isinstance(error, kind)), default)


_STATUS: tuple[tuple[Kind, tuple[int, str]], ...] = (
    (InputError, (422, "invalid_input")),
    (AnswerFailedError, (422, "answer_failed")),  # the engine cannot answer this question
    (ToolError, (422, "calculation_failed")),
    (
        (IndexError_, EmbeddingError, CorpusError, LLMUnavailableError, StorageError),
        (503, "unavailable"),
    ),
    (ConfigError, (503, "misconfigured")),
)


def error_status(error: AssistantError) -> tuple[int, str]:
    """Which HTTP status and machine code a failure becomes (the CLI reports the same codes)."""
    return first_match(error, _STATUS, (500, "internal_error"))


# The service's own state, not the message: the channel reports these (HTTP 503).
UNAVAILABLE: tuple[type[AssistantError], ...] = (
    IndexError_,
    EmbeddingError,
    CorpusError,
    ConfigError,
    LLMUnavailableError,
)
