"""Catalogue → Toolbox: the calculators bound to one corpus, for the engine, CLI, API and eval.

    toolbox = Toolbox(load_catalog(settings.corpus_dir))
    toolbox.run("vram_inference", {"params_b": 70, "precision": "fp8"}) -> ToolResult
    toolbox.solve("сколько памяти нужно 70B в FP8", carried) -> NumericOutcome
    toolbox.get(name).openai() -> the tool's JSON schema for an LLM (independent of the corpus)

The tool definitions themselves live in tools/registry.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from assistant.answer.calculations.display import build_display
from assistant.calculators.base import Tool, ToolResult
from assistant.calculators.registry import get_tool
from assistant.corpus.catalog import Catalog
from assistant.schema import Display
from assistant.understanding.calculation import NumericOutcome, solve
from assistant.understanding.reader import ParsedMessage, Reader


class Toolbox:
    """The deterministic calculators over one catalogue (GPUs, models, prices)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.reader = Reader(catalog)  # for plain-text questions (CLI, eval, tests)

    def get(self, name: str) -> Tool:
        """The tool's definition (unknown name → ToolInputError)."""
        return get_tool(name)

    def run(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        """Validate and compute; invalid input → ToolInputError with a Russian message."""
        return get_tool(name).run(arguments, self.catalog)

    def display(
        self, result: ToolResult, stated: Iterable[str] | None = None, notes: Iterable[str] = ()
    ) -> Display:
        """The readable presentation of a result (tools/display.py), with catalogue names."""
        return build_display(result, self.catalog, stated, notes)

    def solve(
        self, message: str | ParsedMessage, carried: dict[str, Any] | None = None
    ) -> NumericOutcome:
        """A question (+ the previous turn's params) → the calculation it asks for."""
        if isinstance(message, str):
            message = self.reader.read(message)
        return solve(message, carried, self.catalog)
