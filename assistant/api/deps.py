"""The app's shared objects → typed FastAPI dependencies (`Annotated[ChatService, Depends(…)]`).

`create_app` stores one `ApiContext` on `app.state.context`; routes declare what they use:

    async def chat(body: ChatRequest, request: Request, service: ServiceDep,
                   limiter: LimiterDep) -> …:
        await limiter.check("chat", *client_keys(request, body.session_id))  # or 429

Tests and new routers reach the same objects with `context_of(app)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Protocol

from fastapi import Depends, FastAPI, Request

from assistant.api.limits import RateLimiter
from assistant.api.metrics import Metrics
from assistant.api.usage import TokenCounter
from assistant.console.lens import GlossaryLens
from assistant.conversation import ChatService
from assistant.conversation.service import AnswerEngine
from assistant.corpus.catalog import Catalog
from assistant.corpus.glossary import Glossary
from assistant.settings import Settings
from assistant.storage.console import ConsoleRepository


class ServedPipeline(AnswerEngine, Protocol):
    """What the app needs from `assistant.pipeline.Pipeline`: answers, its glossary and its
    catalogue."""

    @property
    def glossary(self) -> Glossary: ...

    @property
    def catalog(self) -> Catalog: ...


@dataclass(frozen=True)
class ApiContext:
    """Everything the routes share, built once by `create_app`."""

    settings: Settings
    pipeline: ServedPipeline
    service: ChatService
    repository: ConsoleRepository
    limiter: RateLimiter
    metrics: Metrics
    tokens: TokenCounter  # OpenAI `usage` (api/usage.py)
    lens: GlossaryLens | None = None  # the console's content gaps (console/lens.py)


def context_of(app: FastAPI) -> ApiContext:
    context = app.state.context
    if not isinstance(context, ApiContext):  # only create_app sets it
        raise TypeError("app.state.context is not an ApiContext: build the app with create_app")
    return context


def get_context(request: Request) -> ApiContext:
    return context_of(request.app)


def get_settings(request: Request) -> Settings:
    return get_context(request).settings


def get_service(request: Request) -> ChatService:
    return get_context(request).service


def get_repository(request: Request) -> ConsoleRepository:
    return get_context(request).repository


def get_limiter(request: Request) -> RateLimiter:
    return get_context(request).limiter


def get_metrics(request: Request) -> Metrics:
    return get_context(request).metrics


def get_lens(request: Request) -> GlossaryLens | None:
    return get_context(request).lens


def get_tokens(request: Request) -> TokenCounter:
    return get_context(request).tokens


def get_glossary(request: Request) -> Glossary:
    """The glossary the composition root loaded for the engine (not a second copy)."""
    return get_context(request).pipeline.glossary


def get_catalog(request: Request) -> Catalog:
    """The catalogue the engine calculates with (GPU pages show the same one)."""
    return get_context(request).pipeline.catalog


SettingsDep = Annotated[Settings, Depends(get_settings)]
ServiceDep = Annotated[ChatService, Depends(get_service)]
RepositoryDep = Annotated[ConsoleRepository, Depends(get_repository)]
LimiterDep = Annotated[RateLimiter, Depends(get_limiter)]
MetricsDep = Annotated[Metrics, Depends(get_metrics)]
GlossaryDep = Annotated[Glossary, Depends(get_glossary)]
CatalogDep = Annotated[Catalog, Depends(get_catalog)]
TokensDep = Annotated[TokenCounter, Depends(get_tokens)]
LensDep = Annotated[GlossaryLens | None, Depends(get_lens)]
