"""Liveness, readiness and Prometheus routes: /healthz, /readyz, /metrics."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from assistant.api.deps import MetricsDep, ServiceDep

router = APIRouter(tags=["ops"])


@router.get("/healthz", summary="Процесс жив")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz", summary="Индекс загружен; LLM доступна или работает встроенный генератор")
async def readyz(service: ServiceDep) -> JSONResponse:
    status: dict[str, Any] = await service.ready()
    # an unreachable LLM is not "unready": the embedded generator answers meanwhile
    ready = bool(status.get("index")) and bool(status["database"])
    fallback = status.get("llm") != "ok"
    body = {"ready": ready, "fallback_active": fallback, **status}
    return JSONResponse(body, status_code=200 if ready else 503)


@router.get("/metrics", summary="Метрики Prometheus")
async def metrics(app_metrics: MetricsDep) -> Response:
    return Response(generate_latest(app_metrics.registry), media_type=CONTENT_TYPE_LATEST)
