"""Per-item check results → metrics per report column, dev misses, and the issue's test targets.

Every section turns each eval row into an `Item`: its id, split, category and named checks
(True/False, a number such as citation precision, or None when the check does not apply to
that row). A metric is the mean of one check over the rows of a column where it applies.
Results are frozen; `as_json` gives the shape `assistant eval … --json` prints.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pydantic import JsonValue

from assistant.evaluation.sets import in_column

Check = bool | float | None
JsonObject = dict[str, JsonValue]


@dataclass(frozen=True)
class Miss:
    """What went wrong with one dev question, for the miss list."""

    id: str
    question: str
    problems: tuple[str, ...]
    gold: tuple[str, ...] | None = None  # the entries a retrieval or problem row expects
    route: str | None = None  # None: no answer came back (an exception)
    cited: tuple[str, ...] = ()
    got: JsonObject | None = None  # the first calculation's values, when one was made

    def as_json(self) -> JsonObject:
        out: JsonObject = {"id": self.id, "q": self.question[:160]}
        if self.gold is not None:
            out["gold"] = list(self.gold)
        if self.route is not None:
            out |= {"route": self.route, "cited": list(self.cited)}
            if self.got is not None:
                out["got"] = self.got
        return out | {"problems": list(self.problems)}


@dataclass(frozen=True)
class Item:
    id: str
    split: str
    category: str
    checks: Mapping[str, Check]
    miss: Miss | None = None  # what went wrong, for the dev miss list


@dataclass(frozen=True)
class Metrics:
    """One column of a section: its rows, and each check's mean over the rows it applies to."""

    n: int
    means: Mapping[str, float]  # in the order the checks first come up
    counts: Mapping[str, int] = field(default_factory=dict)  # only where fewer than n

    def value(self, check: str) -> float | None:
        return self.means.get(check)

    def count(self, check: str) -> int:
        return self.counts.get(check, self.n)

    def as_json(self) -> JsonObject:
        """{"n": rows, check: mean, check + "_n": rows it applies to (when fewer than n)}."""
        out: JsonObject = {"n": self.n}
        for key, mean in self.means.items():
            out[key] = mean
            if key in self.counts:
                out[f"{key}_n"] = self.counts[key]
        return out


@dataclass(frozen=True)
class CategoryFigure:
    """One check over the rows of one category: where a set is weak."""

    n: int
    value: float | None


@dataclass(frozen=True)
class Section:
    """Metrics per column (+ one check per category), and the misses of dev rows."""

    columns: Mapping[str, Metrics]
    misses: tuple[Miss, ...]
    category_check: str = ""
    categories: Mapping[str, Mapping[str, CategoryFigure]] = field(default_factory=dict)

    def as_json(self) -> JsonObject:
        out: JsonObject = {c: m.as_json() for c, m in self.columns.items()}
        if self.category_check:
            out["categories"] = {
                col: {cat: {"n": f.n, self.category_check: f.value} for cat, f in figures.items()}
                for col, figures in self.categories.items()
            }
        out["misses"] = [m.as_json() for m in self.misses]
        return out


@dataclass(frozen=True)
class Target:
    """A figure the issue asks for on the test split, at least `minimum`."""

    section: str
    metric: str
    minimum: float


@dataclass(frozen=True)
class TargetResult:
    """A target with its test figure and whether it is met."""

    section: str
    metric: str
    minimum: float
    test: float
    met: bool

    def as_json(self) -> JsonObject:
        return {
            "section": self.section,
            "metric": self.metric,
            "minimum": self.minimum,
            "test": self.test,
            "met": self.met,
        }


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


def summarise(items: Sequence[Item], column: str) -> Metrics:
    """The rows of one column, and each check's mean over the rows where it applies."""
    rows = [i for i in items if in_column(i.split, column)]
    values: dict[str, list[float]] = defaultdict(list)
    for item in rows:
        for key, value in item.checks.items():
            if value is not None:
                values[key].append(float(value))
    means = {key: round(sum(vals) / len(vals), 4) for key, vals in values.items()}
    counts = {key: len(vals) for key, vals in values.items() if len(vals) != len(rows)}
    return Metrics(len(rows), means, counts)


def by_category(items: Sequence[Item], column: str, check: str) -> dict[str, CategoryFigure]:
    """{category: rows and mean of one check} — where a set is weak."""
    cats = sorted({i.category for i in items if in_column(i.split, column)})
    out = {}
    for cat in cats:
        metrics = summarise([i for i in items if i.category == cat], column)
        out[cat] = CategoryFigure(metrics.count(check), metrics.value(check))
    return out


def section(items: Sequence[Item], cols: tuple[str, ...], *, category_check: str = "") -> Section:
    """Metrics per column (+ per category of one check), and the misses of dev rows only."""
    categories = {c: by_category(items, c, category_check) for c in cols} if category_check else {}
    return Section(
        {c: summarise(items, c) for c in cols},
        tuple(i.miss for i in items if i.miss is not None and i.split == "dev"),
        category_check,
        categories,
    )


def targets(test: Mapping[str, Mapping[str, float]]) -> tuple[TargetResult, ...]:
    """Each target the test figures (section → metric → value) speak to, and whether it is met."""
    out = []
    for t in TARGETS:
        value = test.get(t.section, {}).get(t.metric)
        if value is None:
            continue
        out.append(TargetResult(t.section, t.metric, t.minimum, value, value >= t.minimum - 1e-9))
    return tuple(out)


def fmt(value: object, digits: int = 3) -> str:
    """0.9123 → «0,912»; None → «—» (the check applies to no row of that column)."""
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.{digits}f}".replace(".", ",")
    return str(value)


def target_text(target: Target | None, test_value: float | None) -> str:
    """«≥ 0,90 ✓» next to a figure; without a test figure just the threshold."""
    if target is None:
        return ""
    bound = f"≥ {fmt(target.minimum, 2)}"
    if test_value is None:
        return bound
    return f"{bound} {'✓' if test_value >= target.minimum - 1e-9 else '✗'}"
