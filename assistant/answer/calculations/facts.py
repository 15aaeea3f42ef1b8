"""ToolResult + what the user stated → Facts (a result read defensively) and the Body a builder
returns: what the per-tool display builders (memory.py, cost.py) share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from assistant.answer.calculations.words import gb, gb_span
from assistant.calculators.base import ToolResult
from assistant.corpus.catalog import Catalog
from assistant.schema import DisplayRow, DisplayTable


@dataclass(frozen=True)
class Facts:
    """A result read defensively: numbers as floats or None, never a KeyError."""

    result: ToolResult
    stated: frozenset[str]
    catalog: Catalog

    @property
    def tool(self) -> str:
        return self.result.tool

    def value(self, key: str) -> float | None:
        return number(self.result.values.get(key))

    def arg(self, key: str) -> Any:
        return self.result.inputs.get(key)

    @property
    def unit(self) -> str:
        return "ГиБ" if str(self.result.values.get("unit", "")).lower() == "gib" else "ГБ"

    def gb(self, x: float) -> str:
        return gb(x, self.unit)

    def span(self, lo: float, hi: float, whole: bool = True) -> str:
        return gb_span(lo, hi, self.unit, whole=whole)


@dataclass(frozen=True)
class Body:
    headline: str
    rows: list[DisplayRow]
    table: DisplayTable | None = None


def number(raw: object) -> float | None:
    """A JSON number as float; bools, strings and None are not numbers."""
    return float(raw) if isinstance(raw, int | float) and not isinstance(raw, bool) else None
