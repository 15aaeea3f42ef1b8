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
│   └── GroundingError              answer failed citation/number checks
└── InputError                      user input rejected at an edge (empty, too long…)
"""

from __future__ import annotations

from dataclasses import dataclass


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


class InputError(AssistantError):
    """The message is Russian and user-facing; `code` names the rejection for machines (the
    HTTP error code: `empty_message`, `message_too_long`, …)."""

    def __init__(self, message: str, *, code: str = "invalid_input") -> None:
        super().__init__(message, user_message=message)
        self.code = code
