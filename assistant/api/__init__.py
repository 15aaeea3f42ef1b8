"""(pipeline, settings, repository) → the FastAPI app: chat, SSE, OpenAI-compat, agent, widget.

    app = create_app(build_pipeline(settings), settings, open_repository(settings))
    uvicorn.run(app, host=settings.host, port=settings.port)

Routes: POST /v1/chat, /v1/chat/stream (SSE), /v1/chat/completions + GET /v1/models (OpenAI),
/v1/feedback, /v1/suggest (agent key), GET and DELETE /v1/sessions/{id}, /healthz, /readyz,
/metrics, /docs; /admin/api/* (the console, its own key); static pages: / (demo with the
widget), /agent, /admin (the console), /widget.js, /widget.css. See docs/http.md.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from assistant.api import (
    admin,
    agent,
    chat,
    glossary_pages,
    gpu_pages,
    health,
    openai,
    openai_compat,
    pages,
)
from assistant.api.allow import AllowHeaderMiddleware
from assistant.api.deps import ApiContext, ServedPipeline
from assistant.api.disconnect import CancelOnDisconnect
from assistant.api.docs import openapi_document
from assistant.api.errors import CatchAllMiddleware, install_error_handlers
from assistant.api.limits import BodyLimitMiddleware, limiter_for
from assistant.api.metrics import Metrics, MetricsMiddleware
from assistant.api.openai_compat import OpenAIErrorMiddleware
from assistant.api.text_edge import SurrogateRepairMiddleware
from assistant.api.usage import TokenCounter, tokenizer_counter, warm
from assistant.console.lens import lens_of
from assistant.conversation import ChatService
from assistant.conversation.retention import Retention
from assistant.settings import Settings
from assistant.storage.console import ConsoleRepository


def create_app(
    pipeline: ServedPipeline,
    settings: Settings,
    repository: ConsoleRepository,
    *,
    tokens: TokenCounter | None = None,
) -> FastAPI:
    """Compose routers, middleware and shared state; owns nothing heavy itself (`tokens`, the
    OpenAI usage counter, loads the embedding model's tokenizer on first use)."""
    app = FastAPI(
        title="FullGPU glossary assistant",
        description="Ответы по глоссарию FullGPU с источниками и калькуляторами.",
        version="0.1.0",
    )
    metrics = Metrics()
    limiter = limiter_for(settings)
    tokens = tokens or tokenizer_counter(settings)
    service = ChatService(pipeline, settings, repository, observer=metrics)
    app.state.context = ApiContext(
        settings=settings,
        pipeline=pipeline,
        service=service,
        repository=repository,
        limiter=limiter,
        metrics=metrics,
        tokens=tokens,
        lens=lens_of(pipeline, settings.public_base_url),
    )
    install_error_handlers(app)
    app.openapi = lambda: openapi_document(app, settings)  # type: ignore[method-assign]
    routers = (chat, openai, openai_compat, agent, admin, health, pages, glossary_pages, gpu_pages)
    for module in routers:
        app.include_router(module.router)
    app.router.on_shutdown.append(limiter.close)
    app.router.on_startup.append(lambda: warm(tokens))
    retention = Retention(repository, settings.retention_days)  # off when the days are 0
    app.router.on_startup.append(retention.start)
    app.router.on_shutdown.append(retention.stop)
    if settings.telegram_token.get_secret_value():
        _mount_telegram(app, service, settings)
    # add_middleware wraps: the last added runs first. Outside in: metrics (sees every final
    # status) → CORS (on every response, errors included) → OpenAI's error shape on its routes
    # → catch-all 500 → body limit (413) → unpaired surrogates repaired (api/text_edge.py),
    # before any route reads the body → a 405's Allow naming every method of the path → a
    # client that leaves cancels its route (api/disconnect.py).
    app.add_middleware(CancelOnDisconnect)
    app.add_middleware(AllowHeaderMiddleware)
    app.add_middleware(SurrogateRepairMiddleware)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(CatchAllMiddleware)
    app.add_middleware(OpenAIErrorMiddleware)
    app.add_middleware(
        CORSMiddleware,
        allow_origins=list(settings.cors_origins),
        allow_methods=["GET", "POST", "DELETE"],  # DELETE: «удалить разговор» in the widget
        allow_headers=["Content-Type"],
        expose_headers=["Retry-After"],  # the widget reads how long to wait after a 429
        max_age=600,
    )
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    return app


def _mount_telegram(app: FastAPI, service: ChatService, settings: Settings) -> None:
    """Production webhook mode: POST /telegram/webhook on this same service; Telegram answers
    share the HTTP answers' admission cap (one ChatService per process)."""
    from assistant.channels.telegram import create_telegram, telegram_webhook_router
    from assistant.channels.telegram.retry import install_log_redaction

    install_log_redaction(settings.telegram_token.get_secret_value())
    tg = create_telegram(settings, service)
    app.include_router(telegram_webhook_router(tg.bot, tg.dispatcher, settings))
    app.router.on_shutdown.append(tg.bot.session.close)


__all__ = ["create_app"]
