"""Tool definitions → ToolResult: the typed result model and the Tool wrapper used by the registry.

    ToolResult(tool, inputs, defaults, formula, values, summary_ru, assumptions_ru)
    Tool(name, description, input_model, compute).run(arguments, catalog) -> ToolResult

`run` validates `arguments` with the tool's pydantic input model (model and GPU names resolved
against `catalog`, handed over as validation context); every validation failure
becomes a ToolInputError with a Russian message. `inputs` records every input used (defaults
included) and `defaults` names the inputs that were not given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError
from typing_extensions import TypedDict

from assistant.calculators.tool_schema import FunctionTool, JsonObject
from assistant.calculators.units import num
from assistant.corpus.catalog import Catalog
from assistant.errors import ToolInputError

# One input of a calculator or one scalar value of its result: a number, a name (model, GPU,
# precision, unit), a flag or nothing; exactly what the JSON of `arguments`/`result` holds.
Scalar = float | int | str | bool | None
Inputs = dict[str, Scalar]


class GpuOption(TypedDict):
    """One row of gpu_fit's catalogue options (`values["options"]`), keys in output order."""

    gpu: str
    name: str
    memory_gb: float
    gpus_needed: int
    offered: bool


# a result value: a scalar, a list of catalogue ids (`fitting_gpus`) or gpu_fit's options
Value = Scalar | list[str] | list[GpuOption]
Values = dict[str, Value]
# arguments as the readers store them (understanding/params.py): present values only (None is
# never stored), and a list for the precisions or methods compared side by side
Argument = float | int | str | bool | list[str]
Arguments = Mapping[str, Argument]


class ToolResult(BaseModel):
    """What every calculator returns; `model_dump()` is JSON-serialisable."""

    tool: str
    inputs: Inputs
    defaults: list[str]
    formula: str
    values: Values
    summary_ru: str
    assumptions_ru: list[str]


class ToolInput(BaseModel):
    """Base of every tool's input model: unknown keys are rejected."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class Computation:
    """What a compute function hands back; Tool.run adds inputs/defaults."""

    formula: str
    values: Values
    summary_ru: str
    assumptions_ru: list[str] = field(default_factory=list)
    inputs: Mapping[str, Scalar] = field(default_factory=dict)  # derived inputs (e.g. model layers)
    unused: frozenset[str] = frozenset()  # inputs irrelevant to this case (not "defaulted")


Related = Callable[[Arguments, Catalog], list[str]]


def _no_entries(arguments: Arguments, catalog: Catalog) -> list[str]:
    return []


@dataclass(frozen=True)
class Tool:
    """A deterministic calculator offered to the engine, the API, the CLI and the LLM, with
    everything the other stages need to know of it: one module declares a calculator."""

    name: str
    description: str  # for the LLM's tool schema and the API docs
    input_model: type[BaseModel]
    compute: Callable[[Any, Catalog], Computation]
    labels: dict[str, str] = field(default_factory=dict)  # input → its name in error messages
    title: str = "Расчёт"  # the display block's title: «Подбор GPU»
    short: str = "калькулятор"  # «Расчёт: подбор GPU» under an answer
    source: str = "Расчёт: калькулятор"  # the display block's source line
    # values an answer must state (the guard checks one of them): the calculator's headline
    headline: tuple[str, ...] = ()
    # glossary entries the calculation relates to, most specific first (answers cite two)
    related: Related = _no_entries

    @property
    def parameters(self) -> JsonObject:
        """The input model's JSON Schema, without pydantic's titles."""
        schema = self.input_model.model_json_schema()
        schema.pop("title", None)
        for prop in schema.get("properties", {}).values():
            prop.pop("title", None)
        return schema

    def openai(self) -> FunctionTool:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }

    def validate(self, arguments: Mapping[str, object], catalog: Catalog) -> BaseModel:
        """Arguments as they arrive (API, CLI, an LLM's tool call: not yet checked) → the input
        model; anything but a mapping of valid values is a ToolInputError."""
        if not isinstance(arguments, dict):
            raise ToolInputError("Аргументы калькулятора должны быть объектом (словарём).")
        clean = {k: v for k, v in arguments.items() if v is not None}
        try:
            return self.input_model.model_validate(clean, context={"catalog": catalog})
        except ValidationError as e:
            raise ToolInputError(self._message(e)) from e

    def run(self, arguments: Mapping[str, object], catalog: Catalog) -> ToolResult:
        return self.execute(self.validate(arguments, catalog), catalog)

    def execute(self, parsed: BaseModel, catalog: Catalog) -> ToolResult:
        """Compute from arguments this tool validated (`validate`); a case the input model
        lets through but the formula cannot take is a ToolInputError too."""
        comp = self.compute(parsed, catalog)
        given = parsed.model_fields_set
        inputs = {**parsed.model_dump(), **comp.inputs}
        fields = type(parsed).model_fields
        defaults = [
            k
            for k, f in fields.items()
            if k not in given and f.default is not None and k not in comp.unused and k != "gib"
        ]
        return ToolResult(
            tool=self.name,
            inputs=inputs,
            defaults=defaults,
            formula=comp.formula,
            values=comp.values,
            summary_ru=comp.summary_ru,
            assumptions_ru=comp.assumptions_ru,
        )

    def _message(self, err: ValidationError) -> str:
        parts = []
        for item in err.errors():
            name = str(item["loc"][0]) if item["loc"] else "?"
            label = self.labels.get(name, name)
            parts.append(f"{label}: {_reason(item)}")
        return "Неверные параметры расчёта — " + "; ".join(parts) + "."


def _reason(item: Any) -> str:
    kind = item["type"]
    ctx = item.get("ctx") or {}
    if kind in ("greater_than", "greater_than_equal"):
        bound = ctx.get("gt", ctx.get("ge"))
        return "должно быть больше нуля" if bound == 0 else f"должно быть не меньше {bound}"
    if kind in ("less_than", "less_than_equal"):
        return f"нереалистично большое значение (максимум {_num(ctx.get('lt', ctx.get('le')))})"
    if kind == "finite_number":
        return "должно быть конечным числом"
    if kind == "extra_forbidden":
        return "неизвестный параметр"
    if kind == "missing":
        return "не указано"
    if kind.endswith("_parsing") or kind.endswith("_type"):
        return "ожидается число" if "float" in kind or "int" in kind else "неверный тип значения"
    if kind == "literal_error":
        return f"допустимые значения: {ctx.get('expected', '')}"
    if kind == "value_error":
        return str(ctx.get("error", item["msg"]))
    return str(item["msg"])


def _num(x: Any) -> str:
    return num(float(x)) if isinstance(x, int | float) else str(x)
