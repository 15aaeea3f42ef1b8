"""Public chat routes: /v1/chat, /v1/chat/stream (SSE), /v1/feedback, /v1/sessions/{id} (read
and delete)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

from anyio import to_thread
from fastapi import APIRouter, Request

from assistant.api.deps import LimiterDep, MetricsDep, RepositoryDep, ServiceDep
from assistant.api.docs import CHAT_EVENT, QUESTION, error_responses, event_stream
from assistant.api.errors import ApiError, stream_error
from assistant.api.limits import client_keys
from assistant.api.models import (
    ID_PATTERN,
    ChatRequest,
    ChatResponse,
    DeletedResponse,
    FeedbackRequest,
    FeedbackResponse,
    SessionResponse,
    StoredMessageOut,
)
from assistant.api.sse import SSE_HEADERS, EventStream, sse
from assistant.api.streams import counted
from assistant.conversation import ChatService, Reply, Where

router = APIRouter(prefix="/v1", tags=["chat"])
CHANNEL = "web"
_ID = re.compile(ID_PATTERN)


def chat_payload(reply: Reply) -> dict[str, object]:
    return {
        **reply.answer.model_dump(),
        "session_id": reply.session_id,
        "message_id": reply.message_id,
    }


@router.post(
    "/chat",
    response_model=ChatResponse,
    summary="Вопрос → ответ с источниками",
    responses=error_responses(*QUESTION),
)
async def chat(
    body: ChatRequest, request: Request, service: ServiceDep, limiter: LimiterDep
) -> dict[str, object]:
    await limiter.check("chat", *client_keys(request, body.session_id))
    reply = await service.ask(body.message, Where(CHANNEL, session_id=body.session_id))
    return chat_payload(reply)


@router.post(
    "/chat/stream",
    summary="То же, потоком Server-Sent Events",
    response_class=EventStream,
    responses={
        200: event_stream(
            "События: session → delta… → citations → tool_calls → done (JSON в data:), или "
            "error с телом ошибки — последним событием потока",
            CHAT_EVENT,
        ),
        **error_responses(*QUESTION),
    },
)
async def chat_stream(
    body: ChatRequest,
    request: Request,
    service: ServiceDep,
    limiter: LimiterDep,
    metrics: MetricsDep,
) -> EventStream:
    """Events: `session` → `delta`… → `citations` → `tool_calls` → `done` (or `error`)."""
    await limiter.check("chat", *client_keys(request, body.session_id))
    service.validate(body.message)  # a bad message is a JSON 422, not a stream
    where = Where(CHANNEL, session_id=body.session_id)
    events = counted(_stream(service, body.message, where), metrics)
    return EventStream(events, headers=SSE_HEADERS)


async def _stream(service: ChatService, message: str, where: Where) -> AsyncIterator[str]:
    try:
        async with service.turn(message, where) as question:
            yield sse("session", {"session_id": question.session_id})
            async for item in service.stream(question):
                if isinstance(item, str):
                    yield sse("delta", {"text": item})
                    continue
                public = chat_payload(item)
                yield sse("citations", {"citations": public["citations"]})
                yield sse("tool_calls", {"tool_calls": public["tool_calls"]})
                yield sse("done", public)
    except Exception as e:  # the stream has started: failures become its last event
        yield sse("error", stream_error(e))


@router.post(
    "/feedback",
    response_model=FeedbackResponse,
    summary="👍/👎 и комментарий к ответу",
    responses=error_responses(400, 404, 413, 422, 429, 500),
)
async def feedback(
    body: FeedbackRequest, request: Request, service: ServiceDep, limiter: LimiterDep
) -> FeedbackResponse:
    await limiter.check("feedback", *client_keys(request))
    if not await service.feedback(body.message_id, body.score, body.comment):
        raise ApiError(404, "unknown_message", "Сообщение не найдено.")
    return FeedbackResponse()


def _known_shape(session_id: str) -> None:
    if not _ID.fullmatch(session_id) or len(session_id) > 64:
        raise ApiError(404, "unknown_session", "Разговор не найден.")


@router.get(
    "/sessions/{session_id}",
    response_model=SessionResponse,
    summary="История разговора",
    responses=error_responses(404, 500),
)
async def session(session_id: str, repo: RepositoryDep) -> SessionResponse:
    """The widget restores a conversation after a reload (the id is an unguessable token); an
    id that is not one of ours is simply not found."""
    _known_shape(session_id)
    if not await to_thread.run_sync(repo.conversation_exists, session_id):
        raise ApiError(404, "unknown_session", "Разговор не найден.")
    stored = await to_thread.run_sync(repo.messages, session_id, 100)
    return SessionResponse(
        session_id=session_id,
        messages=[StoredMessageOut(**vars(m)) for m in stored],
    )


@router.delete(
    "/sessions/{session_id}",
    response_model=DeletedResponse,
    summary="Удалить разговор («удалить разговор» в виджете)",
    responses=error_responses(404, 429, 500),
)
async def forget_session(
    session_id: str, request: Request, service: ServiceDep, limiter: LimiterDep
) -> DeletedResponse:
    """Deletes the conversation with its messages and feedback for good (after the answer in
    flight, if any, is stored). Whoever holds the session token may delete it, as they may
    read it."""
    await limiter.check("feedback", *client_keys(request))
    _known_shape(session_id)
    if not await service.forget(Where(CHANNEL, session_id=session_id)):
        raise ApiError(404, "unknown_session", "Разговор не найден.")
    return DeletedResponse()
