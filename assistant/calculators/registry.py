"""Tool names → Tool definitions: calculators for the engine, the HTTP API, the CLI and the LLM.

Interface (stable; the answer engine is built against it):

    all_tools() -> list[Tool]           vram_inference, vram_training, gpu_fit, gpu_cost
    get_tool(name) -> Tool              unknown name → ToolInputError
    openai_tools() -> list[dict]        [{"type": "function",
                                          "function": {name, description, parameters}}]
    Tool.name / .description (Russian) / .parameters (JSON schema)
    Tool.run(arguments: dict, catalog) -> ToolResult   validates; invalid input → ToolInputError

Each calculator module (memory, training, fit, cost) defines its TOOL next to its formula. The
definitions hold no data; `numeric.Calculations(catalog)` runs them on one catalogue.

ToolResult (assistant.calculators.base): tool, inputs (every input used, defaults included),
defaults (names of defaulted inputs), formula, values (computed numbers), summary_ru,
assumptions_ru.
"""

from __future__ import annotations

from enum import StrEnum

from assistant.calculators import cost, fit, memory, power, training
from assistant.calculators.base import Tool, ToolResult
from assistant.calculators.tool_schema import FunctionTool
from assistant.errors import ToolInputError

__all__ = ["TOOLS", "Tool", "ToolName", "ToolResult", "all_tools", "get_tool", "openai_tools"]


class ToolName(StrEnum):
    """The calculators, by the name the API, the LLM and stored turns use."""

    vram_inference = "vram_inference"
    vram_training = "vram_training"
    gpu_fit = "gpu_fit"
    gpu_cost = "gpu_cost"
    gpu_power = "gpu_power"


TOOLS: tuple[Tool, ...] = (memory.TOOL, training.TOOL, fit.TOOL, cost.TOOL, power.TOOL)


def all_tools() -> list[Tool]:
    return list(TOOLS)


def find_tool(name: str) -> Tool | None:
    """The tool of this name; None for a name this build does not know."""
    return next((t for t in TOOLS if t.name == name), None)


def get_tool(name: str) -> Tool:
    found = find_tool(name)
    if found is not None:
        return found
    known = ", ".join(t.name for t in TOOLS)
    raise ToolInputError(f"Калькулятор «{name}» не найден. Доступны: {known}.")


def openai_tools() -> list[FunctionTool]:
    return [t.openai() for t in TOOLS]
