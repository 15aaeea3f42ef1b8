"""eval/data/retrieval.jsonl (+ problems.jsonl) + a retriever → hit@1/3, Recall@1/3/5 and MRR@10
per mode, per split column and per category; the issue's targets on test (hybrid, retrieval.jsonl).

hit@k: at least one gold entry in the top k. Recall@k: the share of gold entries in the top k
(a comparison with one of its two entries found scores 0,5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from assistant.evaluation.rows import ProblemRow, RetrievalRow
from assistant.evaluation.scoring import (
    JsonObject,
    TargetResult,
    fmt,
    target_for,
    target_text,
    targets,
)
from assistant.evaluation.sets import SplitChoice, columns, in_column, load
from assistant.search.retrieval import Mode, Searcher

MODES: tuple[Mode, ...] = ("dense", "bm25", "hybrid")
TARGET_SET = "retrieval"  # the set the retrieval targets are about
# problems.jsonl rows carry expectations of their own; any other set is a plain retrieval set
ROW_OF_SET: dict[str, type[RetrievalRow]] = {"problems": ProblemRow}


@dataclass(frozen=True)
class Figures:
    """One mode over some rows, each figure rounded to 4 places."""

    hit1: float
    hit3: float
    recall1: float
    recall3: float
    recall5: float
    mrr10: float

    def named(self) -> dict[str, float]:
        """The figures under the names the report and the targets use."""
        return {
            "hit@1": self.hit1,
            "hit@3": self.hit3,
            "recall@1": self.recall1,
            "recall@3": self.recall3,
            "recall@5": self.recall5,
            "mrr@10": self.mrr10,
        }

    def as_json(self) -> JsonObject:
        return {**self.named()}


@dataclass(frozen=True)
class Slice:
    """Some rows (a category of a column) and each mode's figures on them."""

    n: int
    modes: Mapping[Mode, Figures]

    def as_json(self) -> JsonObject:
        out: JsonObject = {"n": self.n}
        return out | {mode: figures.as_json() for mode, figures in self.modes.items()}


@dataclass(frozen=True)
class ColumnFigures:
    """One report column: every mode over its rows, and per category."""

    n: int
    overall: Mapping[Mode, Figures]
    categories: Mapping[str, Slice]

    def as_json(self) -> JsonObject:
        return {
            "n": self.n,
            "overall": {mode: figures.as_json() for mode, figures in self.overall.items()},
            "categories": {cat: s.as_json() for cat, s in self.categories.items()},
        }


@dataclass(frozen=True)
class RetrievalMiss:
    """A dev row whose gold entries hybrid search did not all put in its top 3."""

    id: str
    question: str
    gold: tuple[str, ...]
    top3: tuple[str, ...]

    def as_json(self) -> JsonObject:
        return {
            "id": self.id,
            "question": self.question,
            "gold": list(self.gold),
            "top3": list(self.top3),
        }


@dataclass(frozen=True)
class SetReport:
    """One eval set: figures per split column, and the dev misses."""

    n: int
    columns: tuple[str, ...]
    by_column: Mapping[str, ColumnFigures]
    misses: tuple[RetrievalMiss, ...]

    def as_json(self) -> JsonObject:
        return {
            "n": self.n,
            "columns": list(self.columns),
            "by_column": {c: f.as_json() for c, f in self.by_column.items()},
            "misses": [m.as_json() for m in self.misses],
        }


@dataclass(frozen=True)
class RetrievalReport:
    """Each set by its file stem, and the issue's targets on the hybrid test figures."""

    sets: Mapping[str, SetReport]
    targets: tuple[TargetResult, ...]

    def as_json(self) -> JsonObject:
        return {
            "sets": {name: r.as_json() for name, r in self.sets.items()},
            "targets": [t.as_json() for t in self.targets],
        }


def load_dataset(path: Path, choice: SplitChoice = SplitChoice.both) -> list[RetrievalRow]:
    return load(path, ROW_OF_SET.get(path.stem, RetrievalRow), choice)


def recall_at(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    """Share of gold slugs found in the top k (comparisons have two gold slugs)."""
    return len(set(ranked[:k]) & set(gold)) / len(gold)


def hit_at(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    return 1.0 if set(ranked[:k]) & set(gold) else 0.0


def reciprocal_rank(ranked: Sequence[str], gold: Sequence[str], k: int = 10) -> float:
    for rank, slug in enumerate(ranked[:k], 1):
        if slug in gold:
            return 1.0 / rank
    return 0.0


def _figures(ranked_lists: list[list[str]], rows: list[RetrievalRow]) -> Figures:
    n = max(len(rows), 1)
    pairs = list(zip(ranked_lists, rows, strict=True))

    def mean(score: float) -> float:
        return round(score / n, 4)

    return Figures(
        hit1=mean(sum(hit_at(r, row.gold, 1) for r, row in pairs)),
        hit3=mean(sum(hit_at(r, row.gold, 3) for r, row in pairs)),
        recall1=mean(sum(recall_at(r, row.gold, 1) for r, row in pairs)),
        recall3=mean(sum(recall_at(r, row.gold, 3) for r, row in pairs)),
        recall5=mean(sum(recall_at(r, row.gold, 5) for r, row in pairs)),
        mrr10=mean(sum(reciprocal_rank(r, row.gold) for r, row in pairs)),
    )


def _slice(ranked: dict[Mode, list[list[str]]], rows: list[RetrievalRow], idx: list[int]) -> Slice:
    picked = [rows[i] for i in idx]
    return Slice(len(idx), {m: _figures([ranked[m][i] for i in idx], picked) for m in MODES})


def _column(
    ranked: dict[Mode, list[list[str]]], rows: list[RetrievalRow], col: str
) -> ColumnFigures:
    idx = [i for i, row in enumerate(rows) if in_column(row.split, col)]
    cats = sorted({rows[i].category for i in idx})
    categories = {
        cat: _slice(ranked, rows, [i for i in idx if rows[i].category == cat]) for cat in cats
    }
    return ColumnFigures(len(idx), _slice(ranked, rows, idx).modes, categories)


def _missed(row: RetrievalRow, top: list[str]) -> bool:
    """A comparison needs both entries in the top 3; any other row one of its gold entries."""
    if row.category == "comparison":
        return recall_at(top, row.gold, 3) < 1.0
    return hit_at(top, row.gold, 3) == 0.0


def evaluate(
    retriever: Searcher, rows: list[RetrievalRow], choice: SplitChoice = SplitChoice.both
) -> SetReport:
    """Metrics per split column; misses (hybrid, not every gold in the top 3) for dev only."""
    ranked: dict[Mode, list[list[str]]] = {m: [] for m in MODES}
    for row in rows:
        for mode in MODES:
            ranked[mode].append([h.slug for h in retriever.search(row.question, 10, mode)])
    misses = tuple(
        RetrievalMiss(row.id, row.question, row.gold, tuple(top[:3]))
        for row, top in zip(rows, ranked["hybrid"], strict=True)
        if row.split == "dev" and _missed(row, top)
    )
    cols = columns(choice)
    return SetReport(len(rows), cols, {c: _column(ranked, rows, c) for c in cols}, misses)


def evaluate_sets(
    retriever: Searcher, paths: Sequence[Path], choice: SplitChoice = SplitChoice.both
) -> RetrievalReport:
    """Each set by its file stem; the targets read the hybrid test figures of retrieval.jsonl."""
    sets = {p.stem: evaluate(retriever, load_dataset(p, choice), choice) for p in paths}
    test = {
        name: r.by_column["test"].overall["hybrid"].named()
        for name, r in sets.items()
        if "test" in r.by_column
    }
    return RetrievalReport(sets, targets(test))


HEAD = ("hit@1", "hit@3", "recall@3", "mrr@10")  # the table; JSON also has R@1 and R@5
SHORT = {"hit@1": "h@1", "hit@3": "h@3", "recall@3": "R@3", "mrr@10": "MRR"}


def _slices(report: SetReport) -> list[tuple[str, str, Slice]]:
    """(slice, column, figures) for the whole set and each category, columns side by side."""
    out = []
    cats = sorted({c for col in report.columns for c in report.by_column[col].categories})
    for cat in ["всего", *cats]:
        for col in report.columns:
            data = report.by_column[col]
            if cat == "всего":
                out.append((cat, col, Slice(data.n, data.overall)))
            else:
                out.append((cat, col, data.categories.get(cat, Slice(0, {}))))
    return out


def render_table(report: SetReport, console: Console, name: str = "") -> None:
    """One row per slice, mode and split, so it reads at any terminal width."""
    table = Table(title=f"Retrieval, {name}: {report.n} вопросов" if name else "Retrieval")
    for head in ("срез", "режим", "сплит"):
        table.add_column(head, no_wrap=True)
    for head in ("n", *HEAD):
        table.add_column(SHORT.get(head, head), justify="right", no_wrap=True)
    last = ""
    for cat, col, data in _slices(report):
        if cat != last and last:
            table.add_section()
        for i, mode in enumerate(MODES):
            figures = data.modes.get(mode)
            m = figures.named() if figures else {}
            label = cat if cat != last and i == 0 else ""
            n = str(data.n) if i == 0 else ""
            table.add_row(label, mode, col, n, *(fmt(m.get(k)) for k in HEAD))
            last = cat
    console.print(table)
    _render_misses(report, console)


def render_targets(report: RetrievalReport, console: Console) -> None:
    target_set = report.sets.get(TARGET_SET)
    test = target_set.by_column.get("test") if target_set else None
    if test is None:
        return
    hybrid = test.overall["hybrid"]
    parts = []
    for metric, value in (("hit@1", hybrid.hit1), ("hit@3", hybrid.hit3)):
        parts.append(
            f"{metric} {fmt(value)} (цель {target_text(target_for('retrieval', metric), value)})"
        )
    console.print(
        f"Цели на test (hybrid, {TARGET_SET}.jsonl): " + "; ".join(parts), highlight=False
    )


def _render_misses(report: SetReport, console: Console) -> None:
    if not report.misses:
        return
    console.print(f"Промахи hybrid в топ-3 на dev: {len(report.misses)}", style="dim")
    for miss in report.misses[:30]:
        line = f"{miss.id}: {miss.question} → {list(miss.top3)} (gold {list(miss.gold)})"
        console.print(f"  {line}", style="dim", markup=False, highlight=False)
