"""eval/retrieval.jsonl + a retriever → Recall@1/3/5 and MRR@10 per mode and category."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from assistant.errors import CorpusError, CorpusProblem
from assistant.search.retrieval import HybridRetriever, Mode

MODES: tuple[Mode, ...] = ("dense", "bm25", "hybrid")
CUTOFFS = (1, 3, 5)


@dataclass(frozen=True)
class EvalRow:
    id: str
    question: str
    gold: tuple[str, ...]
    category: str


def load_dataset(path: Path) -> list[EvalRow]:
    problems: list[CorpusProblem] = []
    rows: list[EvalRow] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise CorpusError([CorpusProblem(str(path), "-", "-", f"не читается: {e}")]) from e
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            rows.append(EvalRow(raw["id"], raw["question"], tuple(raw["gold"]), raw["category"]))
        except (ValueError, KeyError, TypeError) as e:
            problems.append(CorpusProblem(path.name, f"строка {n}", "-", f"некорректно: {e}"))
    if problems:
        raise CorpusError(problems)
    return rows


def recall_at(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    """Share of gold slugs found in the top k (comparisons have two gold slugs)."""
    return len(set(ranked[:k]) & set(gold)) / len(gold)


def reciprocal_rank(ranked: Sequence[str], gold: Sequence[str], k: int = 10) -> float:
    for rank, slug in enumerate(ranked[:k], 1):
        if slug in gold:
            return 1.0 / rank
    return 0.0


def _metrics(ranked_lists: list[list[str]], rows: list[EvalRow]) -> dict[str, float]:
    n = max(len(rows), 1)
    out = {
        f"recall@{k}": sum(
            recall_at(r, row.gold, k) for r, row in zip(ranked_lists, rows, strict=True)
        )
        / n
        for k in CUTOFFS
    }
    out["mrr@10"] = (
        sum(reciprocal_rank(r, row.gold) for r, row in zip(ranked_lists, rows, strict=True)) / n
    )
    return {k: round(v, 4) for k, v in out.items()}


def evaluate(retriever: HybridRetriever, rows: list[EvalRow]) -> dict[str, Any]:
    ranked: dict[str, list[list[str]]] = {m: [] for m in MODES}
    for row in rows:
        for mode in MODES:
            ranked[mode].append([h.slug for h in retriever.search(row.question, 10, mode)])
    by_cat: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        by_cat[row.category].append(i)
    report: dict[str, Any] = {"n": len(rows), "overall": {}, "categories": {}}
    for mode in MODES:
        report["overall"][mode] = _metrics(ranked[mode], rows)
        for cat, idx in sorted(by_cat.items()):
            sub = _metrics([ranked[mode][i] for i in idx], [rows[i] for i in idx])
            report["categories"].setdefault(cat, {"n": len(idx)})[mode] = sub
    report["misses"] = [
        {
            "id": row.id,
            "question": row.question,
            "gold": list(row.gold),
            "top3": ranked["hybrid"][i][:3],
        }
        for i, row in enumerate(rows)
        if recall_at(ranked["hybrid"][i], row.gold, 3) < 1.0
    ]
    return report


def render_table(report: dict[str, Any], console: Console) -> None:
    """One row per slice and mode, so it reads at any terminal width."""
    table = Table(title=f"Retrieval: {report['n']} вопросов")
    for name in ("срез", "n", "режим", "R@1", "R@3", "R@5", "MRR@10"):
        table.add_column(name, justify="left" if name in ("срез", "режим") else "right")
    sections = [("всего", report["n"], report["overall"])]
    sections += [(cat, v["n"], v) for cat, v in report["categories"].items()]
    for name, n, data in sections:
        for i, mode in enumerate(MODES):
            m = data[mode]
            metrics = [f"{m[k]:.3f}" for k in ("recall@1", "recall@3", "recall@5", "mrr@10")]
            table.add_row(name if i == 0 else "", str(n) if i == 0 else "", mode, *metrics)
        table.add_section()
    console.print(table)
    if report["misses"]:
        console.print(f"[dim]Промахи hybrid@3: {len(report['misses'])}[/dim]")
        for miss in report["misses"][:30]:
            line = f"{miss['id']}: {miss['question']} → {miss['top3']} (gold {miss['gold']})"
            console.print(f"[dim]  {line}[/dim]")
