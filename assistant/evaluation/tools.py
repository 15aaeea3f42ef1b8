"""eval/numeric.jsonl → extraction exact-match and result correctness of the calculators.

One case per line:
    {"id": "v01", "question": "…", "after": ["previous question", …],   # optional follow-up chain
     "expect": {"is_numeric": true, "tool": "vram_inference",
                "arguments": {"params_b": 70, "precision": "bf16"}, "missing": []},
     "values": {"weights_gb": 140}}                                      # checked on results[0]
Extraction is exact when is_numeric, tool, arguments and missing all match. A result is correct
when every expected value matches (numbers within 0,5 % or 0,01). Result correctness is counted
over the cases whose extraction was exact and which list expected values.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.errors import CorpusError, CorpusProblem
from assistant.tools.solve import NumericOutcome
from assistant.tools.toolbox import Toolbox


@dataclass
class CaseResult:
    id: str
    question: str
    extraction_ok: bool
    result_ok: bool | None  # None: no values to check or extraction wrong
    problems: list[str] = field(default_factory=list)


@dataclass
class Report:
    cases: list[CaseResult]

    @property
    def extraction_rate(self) -> float:
        return sum(c.extraction_ok for c in self.cases) / max(1, len(self.cases))

    @property
    def checked(self) -> list[CaseResult]:
        return [c for c in self.cases if c.result_ok is not None]

    @property
    def result_rate(self) -> float:
        return sum(bool(c.result_ok) for c in self.checked) / max(1, len(self.checked))

    def as_dict(self) -> dict[str, Any]:
        return {
            "cases": len(self.cases),
            "extraction_exact": round(self.extraction_rate, 4),
            "results_checked": len(self.checked),
            "results_correct": round(self.result_rate, 4),
            "failures": [
                {"id": c.id, "question": c.question, "problems": c.problems}
                for c in self.cases
                if c.problems
            ],
        }


def load(path: Path) -> list[dict[str, Any]]:
    cases = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            case = json.loads(line)
        except json.JSONDecodeError as e:
            raise CorpusError([CorpusProblem(path.name, f"строка {i}", "-", str(e))]) from e
        if "question" not in case or "expect" not in case:
            problem = CorpusProblem(
                path.name, str(case.get("id", i)), "question/expect", "нет поля"
            )
            raise CorpusError([problem])
        cases.append(case)
    return cases


def same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=0.005, abs_tol=0.01)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def run_case(case: dict[str, Any], toolbox: Toolbox) -> CaseResult:
    carried: dict[str, Any] | None = None
    for prev in case.get("after", []):
        carried = toolbox.solve(prev, carried).params
    out = toolbox.solve(case["question"], carried)
    problems = _extraction_problems(case["expect"], out)
    extraction_ok = not problems
    result_ok = None
    if extraction_ok and case.get("values"):
        value_problems = _value_problems(case["values"], out)
        problems += value_problems
        result_ok = not value_problems
    return CaseResult(case.get("id", ""), case["question"], extraction_ok, result_ok, problems)


def _extraction_problems(expect: dict[str, Any], out: NumericOutcome) -> list[str]:
    problems = []
    if expect.get("is_numeric", True) != out.is_numeric:
        problems.append(f"is_numeric: ожидалось {expect.get('is_numeric', True)}")
    if not out.is_numeric:
        return problems
    if expect.get("tool") != out.tool:
        problems.append(f"tool: ожидался {expect.get('tool')}, получен {out.tool}")
    want = expect.get("arguments", {})
    if set(want) != set(out.arguments) or not all(same(want[k], out.arguments[k]) for k in want):
        problems.append(f"arguments: ожидались {want}, получены {out.arguments}")
    if expect.get("missing", []) != out.missing:
        problems.append(f"missing: ожидалось {expect.get('missing', [])}, получено {out.missing}")
    return problems


def _value_problems(values: dict[str, Any], out: NumericOutcome) -> list[str]:
    if not out.results:
        return ["нет результата расчёта"]
    got = out.results[0].values
    return [
        f"{k}: ожидалось {v}, получено {got.get(k)}"
        for k, v in values.items()
        if k not in got or not same(v, got[k])
    ]


def evaluate(path: Path, toolbox: Toolbox) -> Report:
    return Report([run_case(c, toolbox) for c in load(path)])
