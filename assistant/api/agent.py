"""Support-agent helper: `POST /v1/suggest` (key in `X-API-Key`) → draft, evidence, confidence."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Depends, Request

from assistant.api.deps import ServiceDep, SettingsDep
from assistant.api.errors import ApiError
from assistant.api.models import SuggestRequest, SuggestResponse, ThreadMessage
from assistant.conversation import Where
from assistant.schema import Turn

router = APIRouter(prefix="/v1", tags=["agent"])
API_KEY_HEADER = "X-API-Key"
CHANNEL = "agent"


def require_agent_key(request: Request, settings: SettingsDep) -> None:
    """The configured key must match the header (or `Authorization: Bearer …`)."""
    expected = settings.agent_api_key.get_secret_value()
    if not expected:
        raise ApiError(
            403,
            "agent_disabled",
            "Помощник оператора выключен: задайте ASSISTANT_AGENT_API_KEY на сервере.",
        )
    given = request.headers.get(API_KEY_HEADER, "")
    auth = request.headers.get("Authorization", "")
    if not given and auth.lower().startswith("bearer "):
        given = auth[7:].strip()
    if not given or not secrets.compare_digest(given.encode(), expected.encode()):
        raise ApiError(401, "unauthorized", "Неверный или отсутствующий ключ оператора.")


def thread_turns(thread: list[ThreadMessage]) -> list[Turn]:
    """Customer messages are the user side; agent messages the assistant side."""
    return [
        Turn(role="user" if m.role in ("customer", "user") else "assistant", content=m.content)
        for m in thread
        if m.content.strip()
    ]


@router.post(
    "/suggest",
    response_model=SuggestResponse,
    summary="Черновик ответа для оператора",
    dependencies=[Depends(require_agent_key)],
)
async def suggest(body: SuggestRequest, service: ServiceDep) -> SuggestResponse:
    reply = await service.ask(body.message, Where(CHANNEL, history=thread_turns(body.thread)))
    answer, meta = reply.answer, reply.answer.meta
    return SuggestResponse(
        draft=answer.answer,
        citations=answer.citations,
        evidence=meta.evidence,
        calculations=answer.tool_calls,
        confidence=meta.confidence,
        handoff=meta.handoff,
        refused=answer.refused,
        route=answer.route,
        generator=answer.generator,
        message_id=reply.message_id,
    )
