"""eval/data/numeric*.jsonl → extraction exact-match and result correctness of the calculators,
dev and test side by side.

One case per line:
    {"id": "v01", "question": "…", "after": ["previous question", …],   # optional follow-up chain
     "expect": {"is_numeric": true, "tool": "vram_inference",
                "arguments": {"params_b": 70, "precision": "bf16"}, "missing": []},
     "values": {"weights_gb": 140}}                                      # checked on results[0]
Extraction is exact when is_numeric, tool, arguments and missing all match; a duration is
compared in hours, so «15 days» equals «360 hours» (a month is 730 h, a year 12 months). A
result is correct when every expected value matches (numbers within 0,5 % or 0,01). Result
correctness is counted over the cases whose extraction was exact and which list expected
values. Failures are listed for dev cases only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from assistant.evaluation.rows import NumericExpect, NumericRow, Values
from assistant.evaluation.scoring import JsonObject
from assistant.evaluation.sets import SplitChoice, columns, in_column, load
from assistant.numeric import NumericOutcome

HOURS_PER = {"hours": 1.0, "days": 24.0, "weeks": 168.0, "months": 730.0, "years": 8760.0}


class Solving(Protocol):
    """What the evaluation needs from the calculators (`numeric.Calculations` has it): a
    question, and the parameters the previous turn carried, → the calculation it asks for."""

    def solve(
        self, message: str, carried: Mapping[str, object] | None = None
    ) -> NumericOutcome: ...


@dataclass(frozen=True)
class CaseResult:
    id: str
    question: str
    extraction_ok: bool
    result_ok: bool | None  # None: no values to check or extraction wrong
    problems: tuple[str, ...] = ()
    split: str = "dev"
    category: str = ""


@dataclass(frozen=True)
class Figures:
    """Extraction exact-match over the cases, result correctness over those checked."""

    cases: int
    extraction_exact: float
    results_checked: int
    results_correct: float

    def as_json(self) -> JsonObject:
        return {
            "cases": self.cases,
            "extraction_exact": self.extraction_exact,
            "results_checked": self.results_checked,
            "results_correct": self.results_correct,
        }


@dataclass(frozen=True)
class Report:
    cases: tuple[CaseResult, ...]
    cols: tuple[str, ...] = ("all",)

    @property
    def extraction_rate(self) -> float:
        return sum(c.extraction_ok for c in self.cases) / max(1, len(self.cases))

    @property
    def checked(self) -> list[CaseResult]:
        return [c for c in self.cases if c.result_ok is not None]

    @property
    def result_rate(self) -> float:
        return sum(bool(c.result_ok) for c in self.checked) / max(1, len(self.checked))

    @property
    def failures(self) -> tuple[CaseResult, ...]:
        """The dev cases with a problem: test failures are never listed."""
        return tuple(c for c in self.cases if c.problems and c.split == "dev")

    def column(self, col: str) -> Report:
        return Report(tuple(c for c in self.cases if in_column(c.split, col)), (col,))

    def figures(self) -> Figures:
        return Figures(
            len(self.cases),
            round(self.extraction_rate, 4),
            len(self.checked),
            round(self.result_rate, 4),
        )

    def as_json(self) -> JsonObject:
        """Figures over every case of the chosen splits, then per column; dev failures only."""
        return self.figures().as_json() | {
            "columns": list(self.cols),
            "by_column": {col: self.column(col).figures().as_json() for col in self.cols},
            "failures": [
                {"id": c.id, "question": c.question, "problems": list(c.problems)}
                for c in self.failures
            ],
        }


def same(a: object, b: object) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=0.005, abs_tol=0.01)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _solve_chain(case: NumericRow, toolbox: Solving) -> NumericOutcome:
    carried: Mapping[str, object] | None = None
    for prev in case.after:
        carried = toolbox.solve(prev, carried).params
    return toolbox.solve(case.question, carried)


def run_case(case: NumericRow, toolbox: Solving) -> CaseResult:
    """Solve the case (after its follow-up chain); an exception is a failed case, not the end."""
    out: NumericOutcome | None = None
    try:
        out = _solve_chain(case, toolbox)
    except Exception as e:  # one broken question must not stop the evaluation
        problems = [f"исключение {type(e).__name__}: {e}"]
    if out is not None:
        problems = _extraction_problems(case.expect, out)
    extraction_ok = not problems
    result_ok = None
    if out is not None and extraction_ok and case.values:
        value_problems = _value_problems(case.values, out)
        problems += value_problems
        result_ok = not value_problems
    return CaseResult(
        case.id,
        case.question,
        extraction_ok,
        result_ok,
        tuple(problems),
        case.split,
        case.category,
    )


def in_hours(arguments: Mapping[str, object]) -> dict[str, object]:
    """duration + duration_unit → one duration in hours, so equal spans compare equal."""
    if "duration" not in arguments:
        return dict(arguments)
    out = {k: v for k, v in arguments.items() if k not in ("duration", "duration_unit")}
    unit = str(arguments.get("duration_unit", "hours"))
    duration = arguments["duration"]
    hours = float(duration) if isinstance(duration, int | float | str) else float("nan")
    out["duration_hours"] = hours * HOURS_PER.get(unit, float("nan"))
    return out


def _extraction_problems(expect: NumericExpect, out: NumericOutcome) -> list[str]:
    problems = []
    if expect.is_numeric != out.is_numeric:
        problems.append(f"is_numeric: ожидалось {expect.is_numeric}")
    if not out.is_numeric:
        return problems
    if expect.tool != out.tool:
        problems.append(f"tool: ожидался {expect.tool}, получен {out.tool}")
    want, got = in_hours(expect.arguments), in_hours(out.arguments)
    if set(want) != set(got) or not all(same(want[k], got[k]) for k in want):
        problems.append(f"arguments: ожидались {want}, получены {out.arguments}")
    if list(expect.missing) != out.missing:
        missing = list(expect.missing)
        problems.append(f"missing: ожидалось {missing}, получено {out.missing}")
    return problems


def _value_problems(values: Values, out: NumericOutcome) -> list[str]:
    if not out.results:
        return ["нет результата расчёта"]
    got = out.results[0].values
    return [
        f"{k}: ожидалось {v}, получено {got.get(k)}"
        for k, v in values.items()
        if k not in got or not same(v, got[k])
    ]


def evaluate(path: Path, toolbox: Solving, choice: SplitChoice = SplitChoice.both) -> Report:
    cases = load(path, NumericRow, choice)
    return Report(tuple(run_case(c, toolbox) for c in cases), columns(choice))
