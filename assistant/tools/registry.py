"""Tool names → Tool definitions: calculators for the engine, the HTTP API, the CLI and the LLM.

Interface (stable; the answer engine is built against it):

    all_tools() -> list[Tool]           vram_inference, vram_training, gpu_fit, gpu_cost
    get_tool(name) -> Tool              unknown name → ToolInputError
    openai_tools() -> list[dict]        [{"type": "function",
                                          "function": {name, description, parameters}}]
    Tool.name / .description (Russian) / .parameters (JSON schema)
    Tool.run(arguments: dict, catalog) -> ToolResult   validates; invalid input → ToolInputError

The definitions hold no data; `Toolbox(catalog)` (tools/toolbox.py) runs them on one catalogue.

ToolResult (assistant.tools.base): tool, inputs (every input used, defaults included), defaults
(names of defaulted inputs), formula, values (computed numbers), summary_ru, assumptions_ru.
"""

from __future__ import annotations

from typing import Any

from assistant.errors import ToolInputError
from assistant.tools import cost, fit, memory, training
from assistant.tools.base import Tool, ToolResult

__all__ = ["TOOLS", "Tool", "ToolResult", "all_tools", "get_tool", "openai_tools"]

TOOLS: tuple[Tool, ...] = (
    Tool(
        name="vram_inference",
        description=(
            "Сколько видеопамяти нужно для инференса модели: веса (параметры × байт на "
            "параметр), KV-кэш (слои × KV-головы × размерность × контекст × запросы) и "
            "запас 10–30 %. Модель можно указать по имени (Llama 3 70B) или числом параметров."
        ),
        input_model=memory.InferenceInput,
        compute=memory.compute,
        labels=memory.LABELS,
    ),
    Tool(
        name="vram_training",
        description=(
            "Сколько видеопамяти нужно для обучения/дообучения: полное дообучение с Adam "
            "(~16 байт на параметр), LoRA, QLoRA, шардирование ZeRO-1/2/3 и FSDP на N GPU. "
            "Активации не включены."
        ),
        input_model=training.TrainingInput,
        compute=training.compute,
        labels=training.LABELS,
    ),
    Tool(
        name="gpu_fit",
        description=(
            "Поместится ли модель на GPU или сервер (1 или 8 GPU), сколько GPU нужно с "
            "тензорным параллелизмом и какие GPU из каталога подходят."
        ),
        input_model=fit.FitInput,
        compute=fit.compute,
        labels=fit.LABELS,
    ),
    Tool(
        name="gpu_cost",
        description=(
            "Стоимость GPU: цена в месяц ↔ цена за GPU-час (730 часов в месяце), GPU-часы = "
            "GPU × часы, стоимость задачи на часы, сутки, недели или месяцы, включённый "
            "исходящий трафик (20 ТБ на тарифе с одним GPU, 50 ТБ на 8-GPU-сервере)."
        ),
        input_model=cost.CostInput,
        compute=cost.compute,
        labels=cost.LABELS,
    ),
)


def all_tools() -> list[Tool]:
    return list(TOOLS)


def get_tool(name: str) -> Tool:
    for t in TOOLS:
        if t.name == name:
            return t
    known = ", ".join(t.name for t in TOOLS)
    raise ToolInputError(f"Калькулятор «{name}» не найден. Доступны: {known}.")


def openai_tools() -> list[dict[str, Any]]:
    return [t.openai() for t in TOOLS]
