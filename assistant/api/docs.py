"""(app, settings) → the OpenAPI document as the service behaves: the documented error statuses
of each route (one `ErrorResponse` body), and the configured message limit in the schema.

    responses=error_responses(413, 422, 429)     # in a route decorator
    app.openapi = lambda: openapi_document(app, settings)
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from assistant.api.models import ErrorResponse
from assistant.settings import Settings

_WHY = {
    400: "Тело запроса не читается (например, не UTF-8)",
    401: "Нет ключа оператора или он неверный",
    403: "Помощник оператора выключен (не задан ASSISTANT_AGENT_API_KEY)",
    404: "Не найдено",
    413: "Тело запроса больше ASSISTANT_MAX_BODY_BYTES",
    422: "Пустое или слишком длинное сообщение, неверный тип поля или не-JSON тело; "
    "answer_failed — на этот вопрос не получилось составить ответ",
    429: "Слишком много запросов (или неверных ключей); ждать Retry-After секунд",
    500: "Внутренняя ошибка (без подробностей)",
    503: "Индекс, модель поиска, LLM или хранилище разговоров сейчас недоступны, или сервис "
    "перегружен",
}
_RETRY_AFTER = {
    "Retry-After": {"description": "Через сколько секунд повторить", "schema": {"type": "integer"}}
}
QUESTION = (400, 413, 422, 429, 500, 503)  # every route that takes a question


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` for a route: each status with the error body (and Retry-After on 429)."""
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        out[status] = {"model": ErrorResponse, "description": _WHY[status]}
        if status == 429:
            out[status]["headers"] = _RETRY_AFTER
    return out


def _json_data(schema: dict[str, Any]) -> dict[str, Any]:
    """An SSE `data:` field that holds JSON of `schema`."""
    return {"type": "string", "contentMediaType": "application/json", "contentSchema": schema}


def _event(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["event", "data"],
        "properties": {"event": {"const": name}, "data": _json_data(schema)},
    }


def _fields(**properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": list(properties), "properties": properties}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


# One SSE event each (OpenAPI 3.1 reads a text/event-stream `schema` as the schema of an event).
CHAT_EVENT = {
    "oneOf": [
        _event("session", _fields(session_id={"type": "string"})),
        _event("delta", _fields(text={"type": "string"})),
        _event("citations", _fields(citations={"type": "array", "items": _ref("Citation")})),
        _event("tool_calls", _fields(tool_calls={"type": "array", "items": _ref("ToolCall")})),
        _event("done", _ref("ChatResponse")),
        _event("error", _ref("ErrorResponse")),
    ]
}
COMPLETION_CHUNK = {
    "type": "object",
    "required": ["data"],
    "properties": {
        "data": {
            "anyOf": [
                {"const": "[DONE]"},
                _json_data(
                    {
                        "anyOf": [
                            _fields(
                                id={"type": "string"},
                                object={"const": "chat.completion.chunk"},
                                choices={"type": "array"},
                            ),
                            _ref("ErrorResponse"),
                        ]
                    }
                ),
            ]
        }
    },
}


def event_stream(description: str, event: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"text/event-stream": {"schema": event}}}


_ERROR_REF = "#/components/schemas/ErrorResponse"
_VALIDATION_REF = "#/components/schemas/HTTPValidationError"


def _one_error_body(doc: dict[str, Any]) -> None:
    """Every error is JSON `ErrorResponse`, streams included: FastAPI files a stream route's
    error bodies under text/event-stream and documents 422 as its own HTTPValidationError,
    which our handler never sends."""
    for operation in (op for path in doc["paths"].values() for op in path.values()):
        for status, response in operation["responses"].items():
            refs = {c.get("schema", {}).get("$ref") for c in response.get("content", {}).values()}
            if status >= "400" and refs & {_ERROR_REF, _VALIDATION_REF}:
                response["content"] = {"application/json": {"schema": {"$ref": _ERROR_REF}}}
                if status == "422":
                    response["description"] = _WHY[422]
        stream = operation["responses"].get("200", {}).get("content", {}).get("text/event-stream")
        if stream and "oneOf" in stream.get("schema", {}):
            # FastAPI merges its own `{"type": "string"}` into the declared event schema
            stream["schema"].pop("type", None)
    for unused in ("HTTPValidationError", "ValidationError"):
        doc["components"]["schemas"].pop(unused, None)


def openapi_document(app: FastAPI, settings: Settings) -> dict[str, Any]:
    """FastAPI's document, once, with the message limit the validator enforces."""
    if app.openapi_schema is None:
        doc = get_openapi(
            title=app.title,
            version=app.version,
            description=app.description,
            routes=app.routes,
        )
        schemas = doc.setdefault("components", {}).setdefault("schemas", {})
        _one_error_body(doc)
        for model in ("ChatRequest", "SuggestRequest"):
            message = schemas.get(model, {}).get("properties", {}).get("message")
            if message is not None:
                message["maxLength"] = settings.max_message_chars
                message["description"] += f" Сейчас максимум {settings.max_message_chars}."
        app.openapi_schema = doc
    return app.openapi_schema
