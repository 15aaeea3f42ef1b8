"""Per-item check results → metrics per report column, dev misses, and the issue's test targets.

Every section turns each eval row into an `Item`: its id, split, category and named checks
(True/False, a number such as citation precision, or None when the check does not apply to
that row). A metric is the mean of one check over the rows of a column where it applies.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from assistant.evaluation.sets import in_column

Check = bool | float | None


@dataclass
class Item:
    id: str
    split: str
    category: str
    checks: dict[str, Check]
    miss: dict[str, Any] | None = None  # what went wrong, for the dev miss list


@dataclass(frozen=True)
class Target:
    """A figure the issue asks for on the test split, at least `minimum`."""

    section: str
    metric: str
    minimum: float


TARGETS: tuple[Target, ...] = (
    Target("retrieval", "hit@1", 0.93),
    Target("retrieval", "hit@3", 0.99),
    Target("problems", "citation_hit@3", 0.90),
    Target("numeric", "exact", 0.95),
    Target("dialogues", "calc_followup_turns", 0.95),
    Target("robustness", "answered", 1.0),
)


def target_for(section: str, metric: str) -> Target | None:
    return next((t for t in TARGETS if (t.section, t.metric) == (section, metric)), None)


def mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def summarise(items: list[Item], column: str) -> dict[str, Any]:
    """{"n": rows, check: mean, check + "_n": rows it applies to (when fewer than n)}."""
    rows = [i for i in items if in_column(i.split, column)]
    values: dict[str, list[float]] = defaultdict(list)
    for item in rows:
        for key, value in item.checks.items():
            if value is not None:
                values[key].append(float(value))
    out: dict[str, Any] = {"n": len(rows)}
    for key, vals in values.items():
        out[key] = mean(vals)
        if len(vals) != len(rows):
            out[f"{key}_n"] = len(vals)
    return out


def by_category(items: list[Item], column: str, check: str) -> dict[str, dict[str, Any]]:
    """{category: {"n": rows, check: mean}} for one check — where a set is weak."""
    cats = sorted({i.category for i in items if in_column(i.split, column)})
    out = {}
    for cat in cats:
        sub = [i for i in items if i.category == cat]
        s = summarise(sub, column)
        out[cat] = {"n": s.get(f"{check}_n", s["n"]), check: s.get(check)}
    return out


def section(
    items: list[Item], cols: tuple[str, ...], *, category_check: str = ""
) -> dict[str, Any]:
    """Metrics per column (+ per category of one check), and the misses of dev rows only."""
    out: dict[str, Any] = {c: summarise(items, c) for c in cols}
    if category_check:
        out["categories"] = {c: by_category(items, c, category_check) for c in cols}
    out["misses"] = [i.miss for i in items if i.miss is not None and i.split == "dev"]
    return out


def targets(report: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Each target the report can speak to, with the test figure and whether it is met."""
    out = []
    for t in TARGETS:
        test = report.get(t.section, {}).get("test")
        if test is None or t.metric not in test:
            continue
        value = test.get(t.metric)
        met = value is not None and value >= t.minimum - 1e-9
        out.append(
            {
                "section": t.section,
                "metric": t.metric,
                "minimum": t.minimum,
                "test": value,
                "met": met,
            }
        )
    return out


def fmt(value: Any, digits: int = 3) -> str:
    """0.9123 → «0,912»; None → «—» (the check applies to no row of that column)."""
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.{digits}f}".replace(".", ",")
    return str(value)


def target_text(target: Target | None, test_value: Any) -> str:
    """«≥ 0,90 ✓» next to a figure; without a test figure just the threshold."""
    if target is None:
        return ""
    bound = f"≥ {fmt(target.minimum, 2)}"
    if test_value is None:
        return bound
    return f"{bound} {'✓' if test_value >= target.minimum - 1e-9 else '✗'}"
