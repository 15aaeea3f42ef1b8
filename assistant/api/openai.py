"""OpenAI-compatible `POST /v1/chat/completions` (plain and `stream: true`) over the engine.

The last user message is the question and earlier messages are the history, so any OpenAI SDK
or chat UI can use the assistant as a "model". Citations and calculator results travel in
extra top-level fields (`citations`, `glossary`) that OpenAI clients ignore. `usage` counts the
tokens of what the client sent and of the answer (api/usage.py says how); a stream carries it in
a last chunk when asked (`stream_options: {"include_usage": true}`), as OpenAI's does.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request

from assistant.api.deps import LimiterDep, MetricsDep, ServiceDep, TokensDep
from assistant.api.docs import COMPLETION_CHUNK, QUESTION, error_responses
from assistant.api.errors import ApiError, assistant_error_status, stream_error
from assistant.api.limits import client_keys
from assistant.api.models import CompletionRequest, CompletionResponse, OpenAIMessage
from assistant.api.openai_compat import MODEL, openai_error
from assistant.api.sse import SSE_HEADERS, EventStream, sse
from assistant.api.streams import counted
from assistant.api.usage import TokenCounter, usage
from assistant.conversation import ChatService, Reply, Where
from assistant.errors import AssistantError
from assistant.schema import Turn

router = APIRouter(prefix="/v1", tags=["openai"])
CHANNEL = "openai"


def _text(message: OpenAIMessage) -> str:
    if isinstance(message.content, list):  # content parts: keep the text ones
        return "".join(str(p.get("text", "")) for p in message.content if p.get("type") == "text")
    return message.content or ""


def split_messages(messages: list[OpenAIMessage]) -> tuple[str, list[Turn]]:
    """Last user message → the question; earlier user/assistant messages → history."""
    last_user = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
    if last_user < 0:
        raise ApiError(422, "invalid_request", "Нужно хотя бы одно сообщение с role=user.")
    history = [
        Turn(role=m.role, content=_text(m))
        for m in messages[:last_user]
        if m.role in ("user", "assistant") and _text(m).strip()
    ]
    return _text(messages[last_user]), history


def _extras(stored: Reply) -> dict[str, Any]:
    public = stored.answer.model_dump()
    return {
        "citations": public["citations"],
        "glossary": {
            "tool_calls": public["tool_calls"],
            "refused": public["refused"],
            "route": public["route"],
            "generator": public["generator"],
            "message_id": stored.message_id,
        },
    }


def _completion(stored: Reply, model: str, tally: dict[str, int]) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{stored.message_id}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": stored.answer.answer},
                "finish_reason": "stop",
            }
        ],
        "usage": tally,
        **_extras(stored),
    }


@router.post(
    "/chat/completions",
    response_model=None,  # a dict or a stream; CompletionResponse documents the JSON one
    summary="OpenAI-совместимый чат (stream: true — SSE)",
    responses={
        200: {
            "model": CompletionResponse,
            "description": "chat.completion; при stream: true — поток chat.completion.chunk в "
            "data:, ошибка — кадр с телом ошибки, в конце data: [DONE]",
            "content": {"text/event-stream": {"schema": COMPLETION_CHUNK}},
        },
        **error_responses(*QUESTION),
    },
)
async def completions(
    body: CompletionRequest,
    request: Request,
    service: ServiceDep,
    limiter: LimiterDep,
    metrics: MetricsDep,
    tokens: TokensDep,
) -> Any:
    await limiter.check("chat", *client_keys(request))
    question, history = split_messages(body.messages)
    service.validate(question)  # a bad message is a JSON 422, also for `stream: true`
    where = Where(CHANNEL, history=history)
    model = body.model or MODEL
    sent = [_text(m) for m in body.messages]
    if body.stream:
        counter = tokens if body.stream_options and body.stream_options.include_usage else None
        chunks = counted(_chunks(service, question, where, model, (counter, sent)), metrics)
        return EventStream(chunks, headers=SSE_HEADERS)
    stored = await service.ask(question, where)
    return _completion(stored, model, usage(tokens, sent, stored.answer.answer))


def _chunk(
    cid: str,
    model: str,
    delta: dict[str, Any],
    finish: str | None = None,
    extra: dict[str, Any] | None = None,
) -> str:
    body = {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return sse(None, {**body, **(extra or {})})


async def _chunks(
    service: ChatService,
    message: str,
    where: Where,
    model: str,
    counting: tuple[TokenCounter | None, list[str]],
) -> AsyncIterator[str]:
    tokens, sent = counting
    try:
        async with service.turn(message, where) as question:
            cid = f"chatcmpl-{question.question_id}"
            yield _chunk(cid, model, {"role": "assistant", "content": ""})
            async for item in service.stream(question):
                if isinstance(item, str):
                    yield _chunk(cid, model, {"content": item})
                    continue
                yield _chunk(cid, model, {}, "stop", _extras(item))
                if tokens is not None:  # OpenAI's usage chunk: no choices, only the counts
                    yield _usage_chunk(cid, model, usage(tokens, sent, item.answer.answer))
    except Exception as e:  # the stream has started: failures become an error frame
        status = assistant_error_status(e)[0] if isinstance(e, AssistantError) else 500
        yield sse(None, openai_error(stream_error(e), status))
    yield sse(None, "[DONE]")


def _usage_chunk(cid: str, model: str, tally: dict[str, int]) -> str:
    body = {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
        "choices": [],
        "usage": tally,
    }
    return sse(None, body)
