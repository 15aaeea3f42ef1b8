"""Public chat routes: /v1/chat, /v1/chat/stream (SSE), /v1/feedback, /v1/sessions/{id}."""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import APIRouter, Request

from assistant.api.errors import ApiError, assistant_error_status, error_body
from assistant.api.models import (
    ChatRequest,
    ChatResponse,
    FeedbackRequest,
    FeedbackResponse,
    SessionResponse,
    StoredMessageOut,
)
from assistant.api.service import ChatService, Prepared
from assistant.api.sse import SSE_HEADERS, EventStream, sse
from assistant.errors import AssistantError

router = APIRouter(prefix="/v1", tags=["chat"])


def _service(request: Request) -> ChatService:
    service: ChatService = request.app.state.service
    return service


def limit(request: Request, session_id: str | None = None) -> None:
    """Per-IP and (when known) per-session rate limits of public endpoints."""
    keys = [f"ip:{request.client.host if request.client else 'unknown'}"]
    if session_id:
        keys.append(f"session:{session_id}")
    request.app.state.limiter.check(*keys)


def chat_payload(
    stored_answer: dict[str, object], session_id: str, message_id: str
) -> dict[str, object]:
    return {**stored_answer, "session_id": session_id, "message_id": message_id}


@router.post("/chat", response_model=ChatResponse, summary="Вопрос → ответ с источниками")
async def chat(body: ChatRequest, request: Request) -> dict[str, object]:
    limit(request, body.session_id)
    service = _service(request)
    stored = await service.answer(await service.prepare(body.message, body.session_id))
    return chat_payload(stored.answer.model_dump(), stored.session_id, stored.message_id)


@router.post(
    "/chat/stream",
    summary="То же, потоком Server-Sent Events",
    response_class=EventStream,
    responses={200: {"content": {"text/event-stream": {}}}},
)
async def chat_stream(body: ChatRequest, request: Request) -> EventStream:
    """Events: `session` → `delta`… → `citations` → `tool_calls` → `done` (or `error`)."""
    limit(request, body.session_id)
    service = _service(request)
    prepared = await service.prepare(body.message, body.session_id)
    return EventStream(_stream(service, prepared), headers=SSE_HEADERS)


async def _stream(service: ChatService, prepared: Prepared) -> AsyncIterator[str]:
    yield sse("session", {"session_id": prepared.session_id})
    completed = False
    try:
        async for event in service.events(prepared):
            if event.kind == "delta":
                yield sse("delta", {"text": event.text})
            elif event.answer is not None:
                stored = await service.store(prepared, event.answer)
                public = stored.answer.model_dump()
                yield sse("citations", {"citations": public["citations"]})
                yield sse("tool_calls", {"tool_calls": public["tool_calls"]})
                completed = True
                yield sse("done", chat_payload(public, stored.session_id, stored.message_id))
    except AssistantError as e:
        completed = True
        _, code = assistant_error_status(e)
        yield sse("error", error_body(code, e.user_message))
    finally:
        if not completed:
            service.metrics.disconnects.inc()


@router.post("/feedback", response_model=FeedbackResponse, summary="👍/👎 и комментарий к ответу")
async def feedback(body: FeedbackRequest, request: Request) -> FeedbackResponse:
    limit(request)
    await _service(request).feedback(body.message_id, body.score, body.comment.strip())
    return FeedbackResponse()


@router.get("/sessions/{session_id}", response_model=SessionResponse, summary="История разговора")
async def session(session_id: str, request: Request) -> SessionResponse:
    """The widget restores a conversation after a reload (the id is an unguessable token)."""
    repo = _service(request).repo
    from anyio import to_thread

    if len(session_id) > 64 or not await to_thread.run_sync(repo.conversation_exists, session_id):
        raise ApiError(404, "unknown_session", "Разговор не найден.")
    stored = await to_thread.run_sync(repo.messages, session_id, 100)
    return SessionResponse(
        session_id=session_id,
        messages=[StoredMessageOut(**vars(m)) for m in stored],
    )
