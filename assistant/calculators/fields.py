"""Shared input fields: precision / model / GPU names → canonical ids (or ToolInputError).

Names are resolved against the catalogue handed to validation as context
(`model_validate(data, context={"catalog": catalog})`, done by Tool.validate).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, Field, ValidationInfo

from assistant.calculators.units import PRECISION_BYTES, canonical_precision
from assistant.corpus.catalog import Catalog
from assistant.errors import ToolInputError

MAX_PARAMS_B = 20_000.0  # 20 трлн параметров — заведомо больше любой существующей модели
MAX_CONTEXT = 10_000_000
MAX_BATCH = 100_000
MAX_GPUS = 100_000


def _precision(value: str) -> str:
    return canonical_precision(value)


def catalog_of(info: ValidationInfo) -> Catalog:
    catalog = (info.context or {}).get("catalog")
    if not isinstance(catalog, Catalog):  # a programming error, not a user's
        raise TypeError("tool input validated without a catalogue: use Tool.run(args, catalog)")
    return catalog


def _model(value: str, info: ValidationInfo) -> str:
    catalog = catalog_of(info)
    found = catalog.find_model(value)
    if found is None:
        known = ", ".join(m.name for m in catalog.models.values())
        raise ToolInputError(
            f"Модель «{value}» не найдена в справочнике. Укажите число параметров (например, 70B) "
            f"или одну из моделей: {known}."
        )
    return found.id


def _gpu(value: str, info: ValidationInfo) -> str:
    catalog = catalog_of(info)
    found = catalog.find_gpu(value)
    if found is None:
        known = ", ".join(g.name for g in catalog.gpus.values())
        raise ToolInputError(f"GPU «{value}» нет в каталоге. Доступны: {known}.")
    return found.id


PRECISIONS: list[str] = list(PRECISION_BYTES)


def precision_field(default: str, description: str) -> Any:
    extra: dict[str, Any] = {"enum": list(PRECISIONS)}
    return Field(default=default, description=description, json_schema_extra=extra)


Precision = Annotated[str, AfterValidator(_precision)]
ModelName = Annotated[str, AfterValidator(_model)]
GpuName = Annotated[str, AfterValidator(_gpu)]
