"""Liveness, readiness and Prometheus routes: /healthz, /readyz, /metrics."""

from __future__ import annotations

from typing import Any

from anyio import to_thread
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

router = APIRouter(tags=["ops"])


@router.get("/healthz", summary="Процесс жив")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz", summary="Индекс загружен; LLM доступна или работает встроенный генератор")
async def readyz(request: Request) -> JSONResponse:
    service = request.app.state.service
    engine: dict[str, Any] = await to_thread.run_sync(service.pipeline.ready)
    database = await to_thread.run_sync(service.repo.ping)
    # an unreachable LLM is not "unready": the embedded generator answers meanwhile
    ready = bool(engine.get("index")) and database
    fallback = engine.get("llm") != "ok"
    body = {"ready": ready, "database": database, "fallback_active": fallback, **engine}
    return JSONResponse(body, status_code=200 if ready else 503)


@router.get("/metrics", summary="Метрики Prometheus")
async def metrics(request: Request) -> Response:
    registry = request.app.state.metrics.registry
    return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)
