"""What OpenAI clients ask besides completions: `GET /v1/models` (and one model by id).

Clients that list models first (the official SDK's `models.list()`, chat UIs speaking the OpenAI
API) find the one model the service is; any `model` in a completion request is accepted and
echoed back.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel

from assistant.api.docs import error_responses
from assistant.api.errors import ApiError

router = APIRouter(prefix="/v1", tags=["openai"])
MODEL = "glossary-assistant"
OWNER = "fullgpu"
CREATED = 1_767_225_600  # 2026-01-01: the model's "created" date never changes


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
