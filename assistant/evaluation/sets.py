"""eval/data/*.jsonl → rows; which rows a report column holds (dev and test side by side, or one).

Every row of every set carries `split`: "dev" (tune on it) or "test" (report only). A report
shows dev and test side by side by default; `--split dev|test` keeps one, `--split all` pools
both into one column. Misses are listed for dev rows only: nobody tunes on test misses.
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Any

from assistant.errors import CorpusError, CorpusProblem

SPLITS = ("dev", "test")


class SplitChoice(StrEnum):
    """What `--split` selects: both columns, one of them, or everything pooled."""

    both = "both"
    dev = "dev"
    test = "test"
    all = "all"


def columns(choice: SplitChoice) -> tuple[str, ...]:
    """Report columns for a choice: ("dev", "test"), ("dev",), ("test",) or ("all",)."""
    return SPLITS if choice is SplitChoice.both else (choice.value,)


def in_column(split: str, column: str) -> bool:
    return column == "all" or split == column


def wanted(rows: list[dict[str, Any]], choice: SplitChoice) -> list[dict[str, Any]]:
    """Rows any column of this choice needs (dev only for `--split dev`, and so on)."""
    cols = columns(choice)
    return [r for r in rows if any(in_column(str(r.get("split")), c) for c in cols)]


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """One JSON object per non-empty line; each must name its split (dev or test)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise CorpusError([CorpusProblem(str(path), "-", "-", f"не читается: {e}")]) from e
    rows, problems = [], []
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            problems.append(CorpusProblem(path.name, f"строка {n}", "-", f"не JSON: {e}"))
            continue
        if not isinstance(row, dict) or row.get("split") not in SPLITS:
            record = str(row.get("id", n)) if isinstance(row, dict) else str(n)
            problems.append(CorpusProblem(path.name, record, "split", "нужно dev или test"))
            continue
        rows.append(row)
    if problems:
        raise CorpusError(problems)
    return rows


def load(path: Path, choice: SplitChoice, limit: int = 0) -> list[dict[str, Any]]:
    """The rows this choice needs, at most `limit` per split (0 — all)."""
    rows = wanted(read_jsonl(path), choice)
    if not limit:
        return rows
    kept: dict[str, int] = {}
    out = []
    for row in rows:
        split = str(row["split"])
        if kept.get(split, 0) < limit:
            kept[split] = kept.get(split, 0) + 1
            out.append(row)
    return out
