"""What OpenAI clients expect besides completions: `GET /v1/models` and OpenAI's error shape.

Clients that list models first (the official SDK's `models.list()`, chat UIs speaking the OpenAI
API) find the one model the service is. On the OpenAI routes every error body, whoever wrote it
(a handler, the body-size limit, the catch-all 500), is OpenAI's shape:

    {"error": {"message": "…", "type": "invalid_request_error", "param": null, "code": "…"}}

`code` and the Russian `message` are the ones every other route sends, so a client of both
sees one set of codes; `type` follows the status (OPENAI_TYPES).
"""

from __future__ import annotations

import json
from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from assistant.api.docs import error_responses
from assistant.api.errors import ApiError

router = APIRouter(prefix="/v1", tags=["openai"])
MODEL = "glossary-assistant"
OWNER = "fullgpu"
CREATED = 1_767_225_600  # 2026-01-01: the model's "created" date never changes
OPENAI_PATHS = ("/v1/chat/completions", "/v1/models")
OPENAI_TYPES = {
    401: "authentication_error",
    403: "permission_error",
    429: "rate_limit_error",
}


def openai_type(status: int) -> str:
    if status >= 500:
        return "server_error"
    return OPENAI_TYPES.get(status, "invalid_request_error")


def openai_error(body: dict[str, Any], status: int) -> dict[str, Any]:
    """Our `{"error": {"code", "message"}}` with OpenAI's `type` and `param` added."""
    error = body.get("error")
    if not isinstance(error, dict):
        return body
    return {"error": {"type": openai_type(status), "param": None, **error}}


class ModelCard(BaseModel):
    id: str
    object: Literal["model"] = "model"
    created: int = CREATED
    owned_by: str = OWNER


class ModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[ModelCard]


@router.get("/models", response_model=ModelList, summary="Модели (для клиентов OpenAI)")
async def models() -> ModelList:
    return ModelList(data=[ModelCard(id=MODEL)])


@router.get(
    "/models/{model}",
    response_model=ModelCard,
    summary="Одна модель (для клиентов OpenAI)",
    responses=error_responses(404),
)
async def model(model: str) -> ModelCard:
    if model != MODEL:
        raise ApiError(
            404, "model_not_found", f"Такой модели нет. Модель этого сервиса — «{MODEL}»."
        )
    return ModelCard(id=MODEL)


def is_openai_path(path: str) -> bool:
    return any(path == p or path.startswith(p + "/") for p in OPENAI_PATHS)


class OpenAIErrorMiddleware:
    """Rewrites JSON error bodies on the OpenAI routes into OpenAI's shape (see the module
    docstring). It sits outside the catch-all and the body limit, so their 500 and 413 are
    rewritten too; other routes pass straight through, untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not is_openai_path(scope["path"]):
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []

        async def reshape(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = dict(message.get("headers", []))
                json_body = headers.get(b"content-type", b"").startswith(b"application/json")
                if message["status"] >= 400 and json_body:
                    start = message  # held until the whole (small) error body is in
                    return
                await send(message)
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            await _send_reshaped(send, start, b"".join(chunks))

        await self.app(scope, receive, reshape)


async def _send_reshaped(send: Send, start: Message, body: bytes) -> None:
    try:
        payload = json.loads(body)
    except ValueError:
        payload = None
    if isinstance(payload, dict):
        body = json.dumps(openai_error(payload, start["status"]), ensure_ascii=False).encode()
    headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
    headers.append((b"content-length", str(len(body)).encode()))
    await send({**start, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})
