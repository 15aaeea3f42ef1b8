"""Support-agent helper: `POST /v1/suggest` (key in `X-API-Key`) → draft, evidence, confidence.

The thread comes as structured messages or as pasted text (parsing/thread.py), and becomes the
conversation history. The response explains itself in Russian: badges, confidence in words,
whether and why to hand off (billing, refunds, outages… — routing/triage.py). Every citation
comes with evidence, so «не покрывает» never stands next to cited sources.
"""

from __future__ import annotations

import secrets
from typing import Literal

from fastapi import APIRouter, Depends, Request

from assistant.api.deps import GlossaryDep, LimiterDep, ServiceDep, SettingsDep
from assistant.api.docs import QUESTION, error_responses
from assistant.api.errors import ApiError
from assistant.api.limits import client_keys
from assistant.api.models import Badge, SuggestRequest, SuggestResponse, ThreadMessage
from assistant.conversation import Where
from assistant.conversation.service import Reply
from assistant.corpus.glossary import Entry
from assistant.schema import Answer, Evidence, Turn
from assistant.text.sentences import split_sentences
from assistant.understanding.thread import ParsedThread, parse_thread

router = APIRouter(prefix="/v1", tags=["agent"])
API_KEY_HEADER = "X-API-Key"
CHANNEL = "agent"
LEVEL = {"high": "высокая", "medium": "средняя", "low": "низкая"}
Tone = Literal["ok", "info", "warn"]
TONE: dict[str, Tone] = {"high": "ok", "medium": "info", "low": "warn"}
GENERATOR = {
    "embedded": "Черновик из предложений глоссария",
    "vllm": "Черновик написан моделью и проверен по источникам",
}


async def require_agent_key(request: Request, settings: SettingsDep, limiter: LimiterDep) -> None:
    """The configured key must match the header (or `Authorization: Bearer …`). Every request
    counts against the agent rate; wrong keys also count against the lockout, and a locked-out
    client gets 429 whatever key it sends, so guessing gains nothing."""
    expected = settings.agent_api_key.get_secret_value()
    if not expected:
        raise ApiError(
            403,
            "agent_disabled",
            "Помощник оператора выключен: задайте ASSISTANT_AGENT_API_KEY на сервере.",
        )
    [ip] = client_keys(request)
    await limiter.check("agent", ip)
    await limiter.check_lockout(ip)
    given = request.headers.get(API_KEY_HEADER, "")
    auth = request.headers.get("Authorization", "")
    if not given and auth.lower().startswith("bearer "):
        given = auth[7:].strip()
    if not given or not secrets.compare_digest(given.encode(), expected.encode()):
        await limiter.failed_auth(ip)
        raise ApiError(401, "unauthorized", "Неверный или отсутствующий ключ оператора.")


def thread_turns(thread: list[ThreadMessage]) -> list[Turn]:
    """Customer messages are the user side; agent messages the assistant side."""
    return [
        Turn(role="user" if m.role in ("customer", "user") else "assistant", content=m.content)
        for m in thread
        if m.content.strip()
    ]


def pasted_turns(parsed: ParsedThread) -> list[Turn]:
    return [
        Turn(role="user" if t.role == "customer" else "assistant", content=t.content)
        for t in parsed.turns
    ]


def conversation(body: SuggestRequest) -> tuple[str, list[Turn], str]:
    """(customer message, history, warning): the structured thread wins over pasted text; an
    empty message takes the pasted thread's last customer turn."""
    parsed = parse_thread(body.thread_text) if not body.thread else ParsedThread()
    turns = thread_turns(body.thread) or pasted_turns(parsed)
    message = body.message.strip()
    if not message and turns and turns[-1].role == "user":
        message, turns = turns[-1].content, turns[:-1]
    return message, turns, parsed.warning


@router.post(
    "/suggest",
    response_model=SuggestResponse,
    summary="Черновик ответа для оператора",
    dependencies=[Depends(require_agent_key)],
    responses=error_responses(401, 403, *QUESTION),
)
async def suggest(
    body: SuggestRequest, service: ServiceDep, glossary: GlossaryDep
) -> SuggestResponse:
    message, turns, warning = conversation(body)
    reply = await service.ask(message, Where(CHANNEL, history=turns))
    return suggestion(reply, glossary.by_slug(), thread_warning=warning, turns=len(turns))


def suggestion(
    stored: Reply, entries: dict[str, Entry], *, thread_warning: str = "", turns: int = 0
) -> SuggestResponse:
    answer, meta = stored.answer, stored.answer.meta
    handoff, reason = handoff_of(answer)
    return SuggestResponse(
        draft=draft(answer),
        citations=answer.citations,
        evidence=evidence(answer, entries),
        calculations=answer.tool_calls,
        confidence=meta.confidence,
        confidence_text=confidence_text(answer),
        handoff=handoff,
        handoff_reason=reason,
        refused=answer.refused,
        route=answer.route,
        generator=answer.generator,
        badges=badges(answer, handoff),
        thread_turns=turns,
        thread_warning=thread_warning,
        message_id=stored.message_id,
    )


def draft(answer: Answer) -> str:
    """Triaged questions need a person, not a reply: the draft says so (answer-style.md)."""
    if answer.meta.handoff_reason and not answer.tool_calls:
        return "Черновик не нужен. " + answer.meta.handoff_reason
    return answer.answer


def handoff_of(answer: Answer) -> tuple[bool, str]:
    """Whether to pass the question to a specialist, and why — consistent with what is cited."""
    meta = answer.meta
    if meta.handoff_reason:
        return True, meta.handoff_reason
    if answer.route == "injection":
        return False, ""
    if answer.refused and answer.citations:
        return True, (
            "В глоссарии нет ответа на этот вопрос: ссылки ниже — ближайшие статьи, а не ответ. "
            "Передать специалисту, если клиенту нужен именно этот ответ."
        )
    if answer.refused or meta.handoff:
        return True, "Вопрос вне глоссария и калькуляторов. Передать специалисту."
    if meta.confidence == "low":
        return True, (
            "Уверенность низкая: найденные статьи могут не отвечать на вопрос. Проверьте "
            "черновик по источникам или передайте специалисту."
        )
    return False, ""


def confidence_text(answer: Answer) -> str:
    level = LEVEL[answer.meta.confidence].capitalize()
    if answer.meta.handoff_reason:
        return f"{level}: вопрос не о GPU и не о расчётах — его решают специалисты."
    if answer.route == "clarify":
        return f"{level}: не хватает параметра — черновик задаёт клиенту один уточняющий вопрос."
    if answer.route == "numeric":
        return f"{level}: числа посчитаны калькулятором по формулам глоссария."
    if answer.route in ("greeting", "injection"):
        return f"{level}: готовый ответ без обращения к глоссарию."
    if answer.refused:
        return f"{level}: глоссарий на этот вопрос не отвечает."
    return {
        "high": f"{level}: вопрос прямо о статье глоссария, черновик — её предложения.",
        "medium": f"{level}: ответ собран из близких по смыслу статей — проверьте, что он о том, "
        "о чём спросили.",
        "low": f"{level}: статьи найдены, но уверенности, что они отвечают на вопрос, нет.",
    }[answer.meta.confidence]


def badges(answer: Answer, handoff: bool) -> list[Badge]:
    level = answer.meta.confidence
    out = [Badge(text=f"Уверенность: {LEVEL[level]}", tone=TONE[level])]
    if handoff:
        out.append(Badge(text="Передать специалисту", tone="warn"))
    if answer.route == "clarify":
        out.append(Badge(text="Нужно уточнение", tone="info"))
    if answer.tool_calls:
        out.append(Badge(text="Есть расчёт", tone="info"))
    out.append(Badge(text=GENERATOR.get(answer.generator, "Черновик"), tone="info"))
    return out


def evidence(answer: Answer, entries: dict[str, Entry]) -> list[Evidence]:
    """The answer's own evidence, plus the opening sentence of any cited entry without it
    (calculations and «nearest entries» cite articles without quoting them)."""
    out = list(answer.meta.evidence)
    have = {e.slug for e in out}
    for cite in answer.citations:
        entry = entries.get(cite.slug)
        if cite.slug in have or entry is None:
            continue
        first = split_sentences(entry.text)[:1]
        out.append(Evidence(slug=cite.slug, title=cite.title, url=cite.url, sentences=first))
    return out
