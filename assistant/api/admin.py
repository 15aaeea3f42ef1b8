"""The operations console's routes: `/admin/api/*` behind the console key (admin_auth.py).

    POST/GET/DELETE /admin/api/session       sign in (key → cookie), check, sign out
    GET /admin/api/meta                      labels of channels, outcomes, feedback; default period
    GET /admin/api/overview?from&to&channel  per-day charts' data, totals, per channel
    GET /admin/api/gaps?from&to              content gaps (declined and 👎, grouped by meaning)
    GET /admin/api/conversations?from&to&q&channel&outcome&feedback&offset
    GET/DELETE /admin/api/conversations/{id}
    GET /admin/api/export?from&to&format=csv|jsonl   streamed as a download

Dates are ISO days in ASSISTANT_CONSOLE_TIMEZONE, both ends included (default: the last 30 days).
Everything runs off the event loop; every answer is `Cache-Control: no-store`. The routes are
not in the public OpenAPI document: the console is the page at /admin.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from anyio import to_thread
from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from assistant.api.admin_auth import require_console, sign_in, sign_out
from assistant.api.deps import (
    GlossaryDep,
    LensDep,
    LimiterDep,
    RepositoryDep,
    ServiceDep,
    SettingsDep,
)
from assistant.api.errors import ApiError
from assistant.api.models import ID_PATTERN, StrictBody
from assistant.console import labels
from assistant.console.conversations import (
    ConversationList,
    ConversationView,
    conversation_list,
    conversation_view,
)
from assistant.console.export import FORMATS, MEDIA, Format, export_chunks, filename
from assistant.console.gaps import Gap, content_gaps
from assistant.console.overview import Overview, build_overview
from assistant.console.period import Period, PeriodError
from assistant.conversation import Where
from assistant.settings import Settings
from assistant.storage.facts import fold
from assistant.storage.rows import ConversationQuery, Feedback

NO_STORE = {"Cache-Control": "no-store"}
PAGE = 50
router = APIRouter(prefix="/admin/api", include_in_schema=False)
Session = Annotated[int, Depends(require_console)]


class SignIn(StrictBody):
    key: str = Field(max_length=512)


class SessionOut(BaseModel):
    signed_in: bool
    expires_at: int


class Option(BaseModel):
    value: str
    label: str


class Meta(BaseModel):
    channels: list[Option]
    outcomes: list[Option]
    feedback: list[Option]
    timezone: str
    timezone_label: str  # «московское (UTC+3)»
    first: str
    last: str
    retention_days: float


def _period(settings: Settings, first: str | None, last: str | None) -> Period:
    zone = settings.console_timezone
    try:
        if not first and not last:
            return Period.last_days(30, zone)
        default = Period.last_days(30, zone)
        return Period.parse(
            first or default.first.isoformat(), last or default.last.isoformat(), zone
        )
    except PeriodError as e:
        raise ApiError(422, "invalid_period", str(e)) from None


From = Annotated[str | None, Query(alias="from", max_length=10)]
To = Annotated[str | None, Query(alias="to", max_length=10)]
Channel = Annotated[str, Query(max_length=20)]


def _known(value: str, table: dict[str, str], what: str) -> str:
    if value and value not in table:
        raise ApiError(422, "invalid_request", f"Неизвестное значение фильтра «{what}».")
    return value


def _zone_label(period: Period) -> str:
    hours = period.offset / 3600
    utc = "UTC" + (f"{hours:+g}" if hours else "")
    return f"московское ({utc})" if period.zone == "Europe/Moscow" else f"{period.zone} ({utc})"


@router.post("/session", response_model=SessionOut)
async def create_session(
    body: SignIn, request: Request, response: Response, settings: SettingsDep, limiter: LimiterDep
) -> SessionOut:
    expires = await sign_in(request, response, body.key, settings, limiter)
    response.headers.update(NO_STORE)
    return SessionOut(signed_in=True, expires_at=expires)


@router.get("/session", response_model=SessionOut)
async def read_session(expires: Session, response: Response) -> SessionOut:
    response.headers.update(NO_STORE)
    return SessionOut(signed_in=True, expires_at=expires)


@router.delete("/session", response_model=SessionOut)
async def delete_session(request: Request, response: Response) -> SessionOut:
    sign_out(request, response)
    return SessionOut(signed_in=False, expires_at=0)


@router.get("/meta", response_model=Meta)
async def meta(_: Session, settings: SettingsDep, response: Response) -> Meta:
    response.headers.update(NO_STORE)
    default = Period.last_days(30, settings.console_timezone)
    return Meta(
        channels=[Option(value=k, label=v) for k, v in labels.CHANNELS.items()],
        outcomes=[Option(value=k, label=v) for k, v in labels.OUTCOMES.items()],
        feedback=[
            Option(value="down", label="С оценкой «не помогло»"),
            Option(value="up", label="С оценкой «полезно»"),
            Option(value="any", label="С любой оценкой"),
            Option(value="none", label="Без оценок"),
        ],
        timezone=settings.console_timezone,
        timezone_label=_zone_label(default),
        first=default.first.isoformat(),
        last=default.last.isoformat(),
        retention_days=settings.retention_days,
    )


@router.get("/overview", response_model=Overview)
async def overview(
    _: Session,
    settings: SettingsDep,
    repo: RepositoryDep,
    response: Response,
    first: From = None,
    last: To = None,
    channel: Channel = "",
) -> Overview:
    period = _period(settings, first, last)
    _known(channel, labels.CHANNELS, "канал")
    response.headers.update(NO_STORE)
    return await to_thread.run_sync(build_overview, repo, period, channel)


@router.get("/gaps", response_model=list[Gap])
async def gaps(
    _: Session,
    settings: SettingsDep,
    repo: RepositoryDep,
    lens: LensDep,
    response: Response,
    first: From = None,
    last: To = None,
) -> list[Gap]:
    period = _period(settings, first, last)
    if lens is None:
        raise ApiError(
            503, "unavailable", "Группы вопросов недоступны: у сервиса нет модели поиска."
        )
    response.headers.update(NO_STORE)
    return await to_thread.run_sync(content_gaps, repo, lens, period)


@router.get("/conversations", response_model=ConversationList)
async def conversations(
    _: Session,
    settings: SettingsDep,
    repo: RepositoryDep,
    response: Response,
    first: From = None,
    last: To = None,
    q: Annotated[str, Query(max_length=200)] = "",
    channel: Channel = "",
    outcome: Annotated[str, Query(max_length=20)] = "",
    feedback: Annotated[Feedback | None, Query()] = None,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> ConversationList:
    period = _period(settings, first, last)
    query = ConversationQuery(
        period.span,
        text=fold(" ".join(q.split())),
        channel=_known(channel, labels.CHANNELS, "канал"),
        outcome=_known(outcome, labels.OUTCOMES, "исход"),
        feedback=feedback,
        offset=offset,
        limit=PAGE,
    )
    page = await to_thread.run_sync(repo.conversations, query)
    response.headers.update(NO_STORE)
    return conversation_list(page, settings.console_timezone, offset, PAGE)


def _conversation_id(conversation_id: str) -> str:
    if not re.fullmatch(ID_PATTERN, conversation_id) or len(conversation_id) > 64:
        raise ApiError(404, "unknown_session", "Разговор не найден.")
    return conversation_id


@router.get("/conversations/{conversation_id}", response_model=ConversationView)
async def conversation(
    conversation_id: str, _: Session, settings: SettingsDep, repo: RepositoryDep, response: Response
) -> ConversationView:
    detail = await to_thread.run_sync(repo.conversation, _conversation_id(conversation_id))
    if detail is None:
        raise ApiError(404, "unknown_session", "Разговор не найден.")
    response.headers.update(NO_STORE)
    return conversation_view(detail, settings.console_timezone)


@router.delete("/conversations/{conversation_id}")
async def delete_conversation(
    conversation_id: str, _: Session, service: ServiceDep
) -> dict[str, bool]:
    where = Where("console", session_id=_conversation_id(conversation_id))
    if not await service.forget(where):
        raise ApiError(404, "unknown_session", "Разговор не найден.")
    return {"deleted": True}


@router.get("/export")
async def export(
    _: Session,
    settings: SettingsDep,
    repo: RepositoryDep,
    glossary: GlossaryDep,
    first: From = None,
    last: To = None,
    format: Annotated[str, Query(max_length=5)] = "csv",
) -> StreamingResponse:
    if format not in FORMATS:
        raise ApiError(422, "invalid_request", "Формат выгрузки — csv или jsonl.")
    fmt: Format = "csv" if format == "csv" else "jsonl"
    period = _period(settings, first, last)
    titles = {e.slug: e.title for e in glossary.entries}
    headers: dict[str, Any] = {
        **NO_STORE,
        "Content-Disposition": f'attachment; filename="{filename(period, fmt)}"',
    }
    chunks = export_chunks(repo, period, fmt, titles)
    return StreamingResponse(chunks, media_type=MEDIA[fmt], headers=headers)
