"""The engine's edges: a thread pasted into one message, the safe answer when understanding a
message fails, and the honest «no throughput figure» note.

    unthread("Иван, 10:31\\nПланируем Qwen 2.5 32B…\\nАнна (поддержка), 10:35\\n…\\nИван, 10:40\\n"
             "Хватит одной H100?", [])  → ("Хватит одной H100?", [Turn(user…), Turn(assistant…)])
    safe_answer(message) → Answer(route="clarify"): «Не получилось разобрать вопрос…»
    no_throughput_figure(answer, parsed) → the answer, led by «в глоссарии нет цифры …» when the
                                           question asks for tokens per second
"""

from __future__ import annotations

from assistant.errors import (
    ConfigError,
    CorpusError,
    EmbeddingError,
    IndexError_,
    LLMUnavailableError,
)
from assistant.schema import Answer, AnswerMeta, Turn
from assistant.understanding.reader import ParsedMessage
from assistant.understanding.thread import parse_thread

# The service's own state, not the message: the channel reports these (HTTP 503).
UNAVAILABLE = (IndexError_, EmbeddingError, CorpusError, ConfigError, LLMUnavailableError)

SAFE_TEXT = (
    "Не получилось разобрать вопрос. Переформулируйте его, пожалуйста, — например: «сколько "
    "памяти нужно Llama 3 70B в FP8?» или «что такое NVLink?»."
)
NO_THROUGHPUT = (
    "В глоссарии нет цифры пропускной способности для такой конфигурации: скорость генерации "
    "зависит от движка, точности, батча и длины контекста. Вот что глоссарий говорит о том, "
    "от чего она зависит."
)


def unthread(message: str, history: list[Turn]) -> tuple[str, list[Turn]]:
    """A support thread pasted as one message («Иван Петров, 10:31 …», «клиент: …»): its last
    customer message is the question, the turns before it are the conversation so far (an
    operator's «уточняю у коллег» after it changes nothing)."""
    if "\n" not in message:
        return message, history
    parsed = parse_thread(message)
    turns = parsed.turns
    asked = [i for i, t in enumerate(turns) if t.role == "customer"]
    if parsed.warning or not asked:
        return message, history
    last = asked[-1]
    earlier = [
        Turn(role="user" if t.role == "customer" else "assistant", content=t.content)
        for t in turns[:last]
    ]
    return turns[last].content, [*history, *earlier]


def safe_answer(message: str) -> Answer:
    meta = AnswerMeta(question=message[:200], confidence="low")
    return Answer(answer=SAFE_TEXT, route="clarify", generator="embedded", meta=meta)


def no_throughput_figure(answer: Answer, message: ParsedMessage) -> Answer:
    """«Сколько токенов в секунду выдаст H100 на Llama 70B?»: the glossary explains tokens per
    second but gives no figure for a setup — say so first, then the explanation."""
    if not message.signals.throughput or answer.refused:
        return answer
    return answer.model_copy(update={"answer": f"{NO_THROUGHPUT}\n\n{answer.answer}"})
