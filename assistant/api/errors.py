"""Exceptions in a request → JSON `{"error": {"code", "message"}}` with a Russian message.

Typed failures are mapped by the handlers below; anything else is caught by CatchAllMiddleware,
which sits inside the CORS middleware, so even a 500 carries the CORS headers a browser needs.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from assistant.errors import AssistantError, InputError, error_status

log = logging.getLogger("assistant.api")

_HTTP_MESSAGES = {
    400: ("bad_request", "Некорректный запрос."),
    401: ("unauthorized", "Нужен ключ доступа."),
    403: ("forbidden", "Доступ запрещён."),
    404: ("not_found", "Не найдено."),
    405: ("method_not_allowed", "Метод не поддерживается."),
    413: ("payload_too_large", "Слишком большой запрос."),
    429: ("rate_limited", "Слишком много запросов. Подождите немного и повторите."),
}


class ApiError(Exception):
    """An expected failure at the edge: status, machine code, Russian message, extra headers."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(f"{status} {code}")
        self.status, self.code, self.message = status, code, message
        self.headers = headers or {}


def error_body(code: str, message: str) -> dict[str, dict[str, str]]:
    return {"error": {"code": code, "message": message}}


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(error_body(code, message), status_code=status, headers=headers)


def assistant_error_status(exc: AssistantError) -> tuple[int, str]:
    """Which HTTP status and code an engine failure becomes: `error_status`, except that a
    rejected input names its rejection (`empty_message`, `message_too_long`, …)."""
    status, code = error_status(exc)
    return status, exc.code if isinstance(exc, InputError) else code


def stream_error(exc: Exception) -> dict[str, dict[str, str]]:
    """The `error` event that ends a stream: the same code and Russian text as a JSON error."""
    if isinstance(exc, AssistantError):
        _, code = assistant_error_status(exc)
        log.warning("assistant error in a stream %s: %s", code, type(exc).__name__)
        return error_body(code, exc.user_message)
    log.error("unhandled %s in a stream", type(exc).__name__, exc_info=exc)
    return error_body("internal_error", AssistantError.user_message)


def _validation_message(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "Некорректный запрос."
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    if first.get("type") == "json_invalid":
        return "Тело запроса — не корректный JSON."
    return f"Некорректное поле «{where or 'тело'}»: проверьте тип и обязательные поля."


async def _on_api_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.code, exc.message, exc.headers)


async def _on_assistant_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AssistantError)
    status, code = assistant_error_status(exc)
    log.warning("assistant error %s: %s", code, type(exc).__name__)
    return error_response(status, code, exc.user_message)


async def _on_validation(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return error_response(422, "invalid_request", _validation_message(exc))


async def _on_http(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code, message = _HTTP_MESSAGES.get(exc.status_code, ("http_error", "Ошибка запроса."))
    return error_response(exc.status_code, code, message, dict(exc.headers or {}))


def install_error_handlers(app: FastAPI) -> None:
    """Typed failures; the untyped rest is CatchAllMiddleware's (see the module docstring)."""
    app.add_exception_handler(ApiError, _on_api_error)
    app.add_exception_handler(AssistantError, _on_assistant_error)
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(StarletteHTTPException, _on_http)


class CatchAllMiddleware:
    """Any exception no handler took → a JSON 500 `internal_error` without internals (logged
    with its traceback). Starlette's own catch-all runs outside every middleware, so its 500
    would lack CORS headers; this one runs inside CORSMiddleware. A failure after the response
    started (a stream) cannot change the status: it is logged and the connection is closed."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_wrapper(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        except Exception as e:
            log.error("unhandled %s in request", type(e).__name__, exc_info=e)
            if started:
                raise
            response = error_response(500, "internal_error", AssistantError.user_message)
            await response(scope, receive, send)
