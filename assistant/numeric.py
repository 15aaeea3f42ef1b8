"""Message (+ the previous turn's params) → a calculation outcome: plan, run the calculators,
phrase the result — the numeric path without retrieval (the engine, `assistant calc`, eval).

    calc = Calculations(catalog, reader)          # the composition root builds one
    plan = calc.plan(parsed, carried)             # understanding: which calculator, with what
    outcome = calc.compute(plan)                  # calculators: the results, or why there are none
    calc.text(outcome)                            # answer/: the Russian text
    calc.solve("сколько памяти нужно 70B в FP8")  # all three → NumericOutcome (public JSON)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import BaseModel, Field

from assistant.answer.calculations.display import build_display
from assistant.answer.calculations.questions import notes, question
from assistant.answer.calculations.text import answer_text
from assistant.calculators.base import Argument, Tool, ToolResult
from assistant.calculators.limits import explain
from assistant.calculators.registry import get_tool
from assistant.corpus.catalog import Catalog
from assistant.errors import ToolInputError
from assistant.schema import Display
from assistant.understanding.calculation import Outcome, Plan, plan_calculation
from assistant.understanding.params import Params
from assistant.understanding.reader import ParsedMessage, Reader


class NumericOutcome(BaseModel):
    """A calculation answer as `assistant calc --json` prints it (one JSON line per question)."""

    is_numeric: bool
    tool: str | None = None
    arguments: dict[str, Argument] = Field(default_factory=dict)
    missing: list[str] = Field(default_factory=list)
    clarify_question: str | None = None
    defaults: list[str] = Field(default_factory=list)
    results: list[ToolResult] = Field(default_factory=list)
    params: dict[str, Argument] = Field(default_factory=dict)
    related_slugs: list[str] = Field(default_factory=list)
    notes_ru: list[str] = Field(default_factory=list)
    rejected: str = ""  # Russian: why these values cannot be computed (out of range, bad dates)
    answer_ru: str = ""


class Calculations:
    """The calculators over one catalogue, with the reader that understands questions for them."""

    def __init__(self, catalog: Catalog, reader: Reader | None = None) -> None:
        self.catalog = catalog
        self.reader = reader or Reader(catalog)

    def get(self, name: str) -> Tool:
        """The tool's definition (unknown name → ToolInputError)."""
        return get_tool(name)

    def run(self, name: str, arguments: Mapping[str, object]) -> ToolResult:
        """Validate and compute; invalid input → ToolInputError with a Russian message."""
        return get_tool(name).run(arguments, self.catalog)

    def plan(self, message: ParsedMessage, carried: Params) -> Plan | None:
        return plan_calculation(message, carried, self.catalog)

    def compute(self, plan: Plan) -> Outcome:
        """Every run of the plan; values no calculator can use become the answer."""
        if plan.problem:
            return Outcome(plan, rejected=_reworded(plan.problem))
        try:
            tool = get_tool(plan.tool)
            results = tuple(tool.execute(inputs, self.catalog) for inputs in plan.runs)
        except ToolInputError as e:  # a case the input model lets through, the formula not
            return Outcome(plan, rejected=_reworded(explain(e.user_message)))
        return Outcome(plan, results)

    def text(self, outcome: Outcome) -> str:
        return answer_text(outcome, self.catalog)

    def display(
        self, result: ToolResult, stated: Iterable[str] | None = None, notes: Iterable[str] = ()
    ) -> Display:
        """The readable presentation of a result, with catalogue names."""
        return build_display(result, self.catalog, stated, notes)

    def solve(
        self, message: str | ParsedMessage, carried: Params | Mapping[str, object] | None = None
    ) -> NumericOutcome:
        """A question (+ the previous turn's params) → the calculation it asks for."""
        parsed = self.reader.read(message) if isinstance(message, str) else message
        state = Params.of(carried or {})
        plan = self.plan(parsed, state)
        if plan is None:
            return NumericOutcome(is_numeric=False, params=state.stored())
        return self.public(self.compute(plan))

    def public(self, outcome: Outcome) -> NumericOutcome:
        plan = outcome.plan
        rejected = bool(outcome.rejected)
        return NumericOutcome(
            is_numeric=True,
            tool=plan.tool.value,
            arguments=outcome.arguments.stored(),
            missing=list(outcome.missing),
            clarify_question=None
            if rejected
            else question(plan.missing, plan.merged, self.catalog),
            defaults=outcome.defaults,
            results=list(outcome.stated),
            params=outcome.params.stored(),
            related_slugs=list(outcome.related_slugs),
            notes_ru=[] if rejected else notes(plan),
            rejected=outcome.rejected,
            answer_ru=self.text(outcome),
        )


def _reworded(text: str) -> str:
    if not text.startswith("Посчитать не получится"):
        text = f"Посчитать не получится: {text}."
    return text
