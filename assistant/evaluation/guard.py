"""eval/data/guard_drafts.jsonl + the answer guard → bad drafts delivered and good drafts
rejected per class of draft, dev and test side by side.

Each row is an LLM draft written blind over the sources it lists ([1] is the first: a glossary
entry, a GPU's spec sheet «gpu-<id>», or a model's record from the catalogue). The draft goes
through the guard's own verification of LLM drafts (Guard.verify_draft) on an AnswerContext
holding exactly those sources, as the engine builds it for the LLM: the same checks, the same
claim sources, the user's question as the only user text. Delivered means no problem was found.
The engine itself is not asked: its retrieval would put other entries under the markers.

    report = evaluate(rows, guard, instructions)
    print(render(report))        # per class: bad delivered / good rejected, dev | test
"""

from __future__ import annotations

import statistics
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pydantic import JsonValue

from assistant.answer.generation import AnswerContext
from assistant.answer.guard import Guard
from assistant.answer.specs import spec_entry
from assistant.calculators.units import num
from assistant.corpus.catalog import Catalog, ModelArch
from assistant.corpus.glossary import Entry, Glossary
from assistant.evaluation.rows import DraftSource, GuardDraftRow
from assistant.evaluation.sets import SPLITS
from assistant.schema import Route


def model_sheet(model: ModelArch) -> Entry:
    """A model's catalogue record as a citable source (the product cites none yet): its
    parameters and its attention shape, the figures corpus/models.yaml holds."""
    name = model.name
    active = f", из них на токен активны {num(model.active_b)} млрд" if model.active_b else ""
    text = (
        f"У {name} {num(model.params_b)} млрд параметров{active}. "
        f"У {name} {model.layers} слоёв, {model.heads} голов внимания и {model.kv_heads} "
        f"KV-голов, размерность головы — {model.head_dim}."
    )
    return Entry(
        slug=f"model-{model.id}",
        title=f"Архитектура {name}",
        english=name,
        aliases=tuple(model.aliases),
        related=(),
        see_also=(),
        text=text,
        url=f"/models/{model.id}",
    )


def source_entry(source: DraftSource, glossary: dict[str, Entry], catalog: Catalog) -> Entry:
    if source.entry is not None:
        return glossary[source.entry]
    if source.gpu is not None:
        return spec_entry(catalog.gpus[source.gpu])
    assert source.model is not None
    return model_sheet(catalog.models[source.model])


def context(row: GuardDraftRow, glossary: Glossary, catalog: Catalog) -> AnswerContext:
    """What the engine would hand the LLM for this question with these sources."""
    by_slug = glossary.by_slug()
    entries = tuple(source_entry(s, by_slug, catalog) for s in row.sources)
    route: Route = "comparison" if len(entries) > 1 else "term"
    return AnswerContext(route=route, message=row.question, question=row.question, entries=entries)


@dataclass(frozen=True)
class Judged:
    row: GuardDraftRow
    delivered: bool
    problems: tuple[str, ...]  # the guard's details, for the dev miss list
    ms: float = 0.0  # how long the verification took

    @property
    def wrong(self) -> bool:
        """A bad draft delivered or a good one rejected."""
        return self.delivered == (self.row.verdict == "bad")


def judge(
    row: GuardDraftRow, guard: Guard, instructions: set[tuple[str, ...]], ctx: AnswerContext
) -> Judged:
    start = time.perf_counter()
    _, _, problems = guard.verify_draft(row.draft, ctx, instructions)
    ms = (time.perf_counter() - start) * 1000
    return Judged(row, not problems, tuple(f"{p.code}: {p.detail}" for p in problems), ms)


@dataclass
class Tally:
    rows: int = 0
    wrong: int = 0

    def as_json(self) -> dict[str, JsonValue]:
        return {"rows": self.rows, "wrong": self.wrong}


@dataclass
class GuardReport:
    """Per column (dev, test) and class: rows and wrong verdicts; totals per verdict."""

    verdicts: dict[str, str] = field(default_factory=dict)  # class → good | bad
    tallies: dict[str, dict[str, Tally]] = field(default_factory=dict)  # column → class → tally
    totals: dict[str, dict[str, Tally]] = field(default_factory=dict)  # column → verdict → tally
    misses: list[Judged] = field(default_factory=list)  # dev rows only
    times_ms: list[float] = field(default_factory=list)  # per draft, in the order judged

    def add(self, judged: Judged) -> None:
        row = judged.row
        self.times_ms.append(judged.ms)
        self.verdicts[row.category] = row.verdict
        column = self.tallies.setdefault(row.split, defaultdict(Tally))
        total = self.totals.setdefault(row.split, defaultdict(Tally))
        for tally in (column[row.category], total[row.verdict]):
            tally.rows += 1
            tally.wrong += judged.wrong
        if row.split == "dev" and judged.wrong:
            self.misses.append(judged)

    def wrong(self, column: str, key: str) -> int:
        """Wrong verdicts of a class or of a verdict («bad», «good») in a column."""
        found = self.tallies.get(column, {}).get(key) or self.totals.get(column, {}).get(key)
        return found.wrong if found else 0

    def timing(self) -> dict[str, JsonValue]:
        """Median and 95th percentile of one draft's verification, in milliseconds."""
        if not self.times_ms:
            return {"median_ms": None, "p95_ms": None}
        ordered = sorted(self.times_ms)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        return {"median_ms": round(statistics.median(ordered), 2), "p95_ms": round(p95, 2)}

    def as_json(self) -> dict[str, JsonValue]:
        return {
            "timing": self.timing(),
            "classes": {
                c: {"verdict": v, **{s: self._tally(s, c) for s in SPLITS}}
                for c, v in sorted(self.verdicts.items())
            },
            "totals": {
                s: {v: t.as_json() for v, t in self.totals.get(s, {}).items()} for s in SPLITS
            },
            "dev_misses": [
                {"id": j.row.id, "category": j.row.category, "problems": list(j.problems)}
                for j in self.misses
            ],
        }

    def _tally(self, column: str, category: str) -> dict[str, JsonValue]:
        return self.tallies.get(column, {}).get(category, Tally()).as_json()


def evaluate(
    rows: Iterable[GuardDraftRow],
    guard: Guard,
    instructions: set[tuple[str, ...]],
    glossary: Glossary,
    catalog: Catalog,
) -> GuardReport:
    report = GuardReport()
    for row in rows:
        report.add(judge(row, guard, instructions, context(row, glossary, catalog)))
    return report


_HEAD = ("класс", "ошибка проверки", "dev", "test")


def render(report: GuardReport, *, misses: bool = True) -> str:
    """A table people read: per class, «delivered of bad» or «rejected of good», dev | test."""
    lines = [_line(_HEAD)]
    for verdict, what in (("bad", "плохой пропущен"), ("good", "хороший отклонён")):
        classes = sorted(c for c, v in report.verdicts.items() if v == verdict)
        for category in classes:
            lines.append(_line((category, what, *_cells(report, category))))
        total = "всего плохих" if verdict == "bad" else "всего хороших"
        lines.append(_line((total, what, *_cells(report, verdict, total=True))))
    timing = report.timing()
    if timing["median_ms"] is not None:
        lines += [
            "",
            f"Проверка одного черновика: медиана {_ms(timing['median_ms'])} мс, "
            f"p95 {_ms(timing['p95_ms'])} мс",
        ]
    if misses and report.misses:
        lines += ["", "Ошибки на dev:"]
        lines += [
            f"  {j.row.id} {j.row.category}: {'; '.join(j.problems) or 'пропущен'}"
            for j in report.misses
        ]
    return "\n".join(lines)


def _ms(value: JsonValue) -> str:
    return f"{value:.1f}".replace(".", ",") if isinstance(value, float | int) else "—"


def _cells(report: GuardReport, key: str, *, total: bool = False) -> Sequence[str]:
    out = []
    for split in SPLITS:
        table = report.totals if total else report.tallies
        tally = table.get(split, {}).get(key, Tally())
        out.append(f"{tally.wrong}/{tally.rows}")
    return out


def _line(cells: Sequence[str]) -> str:
    widths = (20, 18, 7, 7)
    return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()
