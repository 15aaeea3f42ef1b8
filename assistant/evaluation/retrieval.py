"""eval/data/retrieval.jsonl (+ problems.jsonl) + a retriever → hit@1/3, Recall@1/3/5 and MRR@10
per mode, per split column and per category; the issue's targets on test (hybrid, retrieval.jsonl).

hit@k: at least one gold entry in the top k. Recall@k: the share of gold entries in the top k
(a comparison with one of its two entries found scores 0,5).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from assistant.evaluation.rows import ProblemRow, RetrievalRow
from assistant.evaluation.scoring import fmt, target_for, target_text, targets
from assistant.evaluation.sets import SplitChoice, columns, in_column, load
from assistant.search.retrieval import Mode, Searcher

MODES: tuple[Mode, ...] = ("dense", "bm25", "hybrid")
CUTOFFS = (1, 3, 5)
TARGET_SET = "retrieval"  # the set the retrieval targets are about
# problems.jsonl rows carry expectations of their own; any other set is a plain retrieval set
ROW_OF_SET: dict[str, type[RetrievalRow]] = {"problems": ProblemRow}


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


def _metrics(ranked_lists: list[list[str]], rows: list[RetrievalRow]) -> dict[str, float]:
    n = max(len(rows), 1)
    pairs = list(zip(ranked_lists, rows, strict=True))
    out = {f"hit@{k}": sum(hit_at(r, row.gold, k) for r, row in pairs) / n for k in (1, 3)}
    for k in CUTOFFS:
        out[f"recall@{k}"] = sum(recall_at(r, row.gold, k) for r, row in pairs) / n
    out["mrr@10"] = sum(reciprocal_rank(r, row.gold) for r, row in pairs) / n
    return {k: round(v, 4) for k, v in out.items()}


def _column(
    ranked: dict[str, list[list[str]]], rows: list[RetrievalRow], col: str
) -> dict[str, Any]:
    idx = [i for i, row in enumerate(rows) if in_column(row.split, col)]
    out: dict[str, Any] = {"n": len(idx), "overall": {}, "categories": {}}
    cats = sorted({rows[i].category for i in idx})
    for mode in MODES:
        out["overall"][mode] = _metrics([ranked[mode][i] for i in idx], [rows[i] for i in idx])
        for cat in cats:
            sub = [i for i in idx if rows[i].category == cat]
            cell = out["categories"].setdefault(cat, {"n": len(sub)})
            cell[mode] = _metrics([ranked[mode][i] for i in sub], [rows[i] for i in sub])
    return out


def _missed(row: RetrievalRow, top: list[str]) -> bool:
    """A comparison needs both entries in the top 3; any other row one of its gold entries."""
    if row.category == "comparison":
        return recall_at(top, row.gold, 3) < 1.0
    return hit_at(top, row.gold, 3) == 0.0


def evaluate(
    retriever: Searcher, rows: list[RetrievalRow], choice: SplitChoice = SplitChoice.both
) -> dict[str, Any]:
    """Metrics per split column; misses (hybrid, not every gold in the top 3) for dev only."""
    ranked: dict[str, list[list[str]]] = {m: [] for m in MODES}
    for row in rows:
        for mode in MODES:
            ranked[mode].append([h.slug for h in retriever.search(row.question, 10, mode)])
    report: dict[str, Any] = {"n": len(rows), "columns": columns(choice)}
    report["by_column"] = {c: _column(ranked, rows, c) for c in columns(choice)}
    report["misses"] = [
        {"id": row.id, "question": row.question, "gold": list(row.gold), "top3": top[:3]}
        for row, top in zip(rows, ranked["hybrid"], strict=True)
        if row.split == "dev" and _missed(row, top)
    ]
    return report


def evaluate_sets(
    retriever: Searcher, paths: Sequence[Path], choice: SplitChoice = SplitChoice.both
) -> dict[str, Any]:
    """Each set by its file stem; the targets read the hybrid test figures of retrieval.jsonl."""
    sets = {p.stem: evaluate(retriever, load_dataset(p, choice), choice) for p in paths}
    test = {
        name: r["by_column"]["test"]["overall"]["hybrid"]
        for name, r in sets.items()
        if "test" in r["by_column"]
    }
    return {"sets": sets, "targets": [t.as_json() for t in targets(test)]}


HEAD = ("hit@1", "hit@3", "recall@3", "mrr@10")  # the table; JSON also has R@1 and R@5
SHORT = {"hit@1": "h@1", "hit@3": "h@3", "recall@3": "R@3", "mrr@10": "MRR"}


def _slices(report: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(slice, column, data) for the whole set and each category, columns side by side."""
    out = []
    cats = sorted({c for col in report["columns"] for c in report["by_column"][col]["categories"]})
    for cat in ["всего", *cats]:
        for col in report["columns"]:
            data = report["by_column"][col]
            if cat != "всего":
                data = data["categories"].get(cat, {"n": 0})
            out.append((cat, col, data))
    return out


def render_table(report: dict[str, Any], console: Console, name: str = "") -> None:
    """One row per slice, mode and split, so it reads at any terminal width."""
    table = Table(title=f"Retrieval, {name}: {report['n']} вопросов" if name else "Retrieval")
    for head in ("срез", "режим", "сплит"):
        table.add_column(head, no_wrap=True)
    for head in ("n", *HEAD):
        table.add_column(SHORT.get(head, head), justify="right", no_wrap=True)
    last = ""
    for cat, col, data in _slices(report):
        if cat != last and last:
            table.add_section()
        for i, mode in enumerate(MODES):
            m = (data["overall"] if cat == "всего" else data).get(mode, {})
            label = cat if cat != last and i == 0 else ""
            n = str(data["n"]) if i == 0 else ""
            table.add_row(label, mode, col, n, *(fmt(m.get(k)) for k in HEAD))
            last = cat
    console.print(table)
    _render_misses(report, console)


def render_targets(report: dict[str, Any], console: Console) -> None:
    test = report["sets"].get(TARGET_SET, {}).get("by_column", {}).get("test")
    if test is None:
        return
    parts = []
    for metric in ("hit@1", "hit@3"):
        value = test["overall"]["hybrid"][metric]
        parts.append(
            f"{metric} {fmt(value)} (цель {target_text(target_for('retrieval', metric), value)})"
        )
    console.print(
        f"Цели на test (hybrid, {TARGET_SET}.jsonl): " + "; ".join(parts), highlight=False
    )


def _render_misses(report: dict[str, Any], console: Console) -> None:
    if not report["misses"]:
        return
    console.print(f"Промахи hybrid в топ-3 на dev: {len(report['misses'])}", style="dim")
    for miss in report["misses"][:30]:
        line = f"{miss['id']}: {miss['question']} → {miss['top3']} (gold {miss['gold']})"
        console.print(f"  {line}", style="dim", markup=False, highlight=False)
