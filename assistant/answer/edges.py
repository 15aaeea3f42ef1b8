"""What the engine says when there is nothing to compose: the safe reply when understanding a
message failed, the honest «no throughput figure» preface, and the pointer to the people who
handle refunds, outages and accounts.

    safe_answer(message) → Answer(route="clarify"): «Не получилось разобрать вопрос…»
    no_throughput_figure(answer, parsed) → the answer, led by «в глоссарии нет цифры …» when the
                                           question asks for tokens per second
    handoff_answer(handoff, message, carried, prompts_dir) → Answer (no calculation, no sources)
    handoff_reason(handoff) → «Возврат денег, недоступность сервера: … Передать специалисту
                               (оплата и инциденты).» (for the support agent)
"""

from __future__ import annotations

from pathlib import Path

from assistant.calculators.base import Argument
from assistant.schema import Answer, AnswerMeta
from assistant.text.templates import render
from assistant.understanding.reader import ParsedMessage
from assistant.understanding.triage import Handoff, Topic

SAFE_TEXT = (
    "Не получилось разобрать вопрос. Переформулируйте его, пожалуйста, — например: «сколько "
    "памяти нужно Llama 3 70B в FP8?» или «что такое NVLink?»."
)
NO_THROUGHPUT = (
    "В глоссарии нет цифры пропускной способности для такой конфигурации: скорость генерации "
    "зависит от движка, точности, батча и длины контекста. Вот что глоссарий говорит о том, "
    "от чего она зависит."
)
# topic → (what it is about, who decides it)
TOPICS: dict[Topic, tuple[str, str]] = {
    "refund": ("возврат денег", "оплата"),
    "billing": ("оплата и счета", "оплата"),
    "outage": ("недоступность сервера", "инциденты"),
    "complaint": ("жалоба на сервис", "поддержка"),
    "legal": ("юридический вопрос", "юристы"),
    "account": ("доступ к аккаунту", "поддержка"),
}


def safe_answer(message: str) -> Answer:
    meta = AnswerMeta(question=message[:200], confidence="low")
    return Answer(answer=SAFE_TEXT, route="clarify", generator="embedded", meta=meta)


def no_throughput_figure(
    answer: Answer, message: ParsedMessage, *, problem: bool = False
) -> Answer:
    """«Сколько токенов в секунду выдаст H100 на Llama 70B?»: the glossary explains tokens per
    second but gives no figure for a setup — say so first, then the explanation. A problem
    («в бенчмарке 4000 tok/s, а у нас ползёт») asks why, not for a figure: its cause leads."""
    if not message.signals.throughput or answer.refused or problem:
        return answer
    return answer.model_copy(update={"answer": f"{NO_THROUGHPUT}\n\n{answer.answer}"})


def handoff_about(handoff: Handoff) -> str:
    """«возврат денег, недоступность сервера»"""
    return ", ".join(TOPICS[t][0] for t in handoff.topics)


def handoff_teams(handoff: Handoff) -> str:
    """«оплата и инциденты»"""
    names = list(dict.fromkeys(TOPICS[t][1] for t in handoff.topics))
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " и " + names[-1]


def handoff_reason(handoff: Handoff) -> str:
    """Why a person should answer: shown to the support agent next to the draft."""
    about = handoff_about(handoff)
    return (
        f"{about[0].upper() + about[1:]}: глоссарий и калькуляторы на это не отвечают. "
        f"Передать специалисту ({handoff_teams(handoff)})."
    )


def handoff_answer(
    handoff: Handoff, message: str, carried: dict[str, Argument], prompts_dir: Path
) -> Answer:
    """A polite pointer to the people who decide it: no calculation, no glossary sources."""
    text = render(
        prompts_dir,
        "embedded/handoff.j2",
        about=handoff_about(handoff),
        teams=handoff_teams(handoff),
    )
    meta = AnswerMeta(
        question=message,
        params=carried,
        confidence="low",
        handoff=True,
        handoff_reason=handoff_reason(handoff),
    )
    return Answer(answer=text, refused=True, route="out_of_scope", generator="embedded", meta=meta)
