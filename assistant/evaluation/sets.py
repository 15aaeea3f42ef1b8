"""eval/data/*.jsonl → validated rows; which rows a report column holds (dev and test side by
side, or one).

Every row of every set carries `split`: "dev" (tune on it) or "test" (report only). A report
shows dev and test side by side by default; `--split dev|test` keeps one, `--split all` pools
both into one column. Misses are listed for dev rows only: nobody tunes on test misses.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError

from assistant.errors import CorpusError, CorpusProblem
from assistant.evaluation.rows import Row

SPLITS = ("dev", "test")
R = TypeVar("R", bound=Row)


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


def wanted(rows: Sequence[R], choice: SplitChoice) -> list[R]:
    """Rows any column of this choice needs (dev only for `--split dev`, and so on)."""
    cols = columns(choice)
    return [r for r in rows if any(in_column(r.split, c) for c in cols)]


def _problems(file: str, record: str, err: ValidationError) -> list[CorpusProblem]:
    """Each field pydantic rejected, in Russian where the cause is a common one."""
    out = []
    for item in err.errors():
        field = ".".join(str(p) for p in item["loc"]) or "-"
        if field == "split":
            message = "нужно dev или test"
        elif item["type"] == "missing":
            message = "нет поля"
        elif item["type"] == "extra_forbidden":
            message = "неизвестное поле (опечатка?)"
        else:
            message = item["msg"]
        out.append(CorpusProblem(file, record, field, message))
    return out


def read_rows(path: Path, model: type[R]) -> list[R]:
    """One JSON object per non-empty line (`#` starts a comment line), each a valid `model`;
    every bad row is reported with its file, id (or line) and field."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise CorpusError([CorpusProblem(str(path), "-", "-", f"не читается: {e}")]) from e
    rows: list[R] = []
    problems: list[CorpusProblem] = []
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as e:
            problems.append(CorpusProblem(path.name, f"строка {n}", "-", f"не JSON: {e}"))
            continue
        record = str(raw.get("id", n)) if isinstance(raw, dict) else str(n)
        try:
            rows.append(model.model_validate(raw))
        except ValidationError as e:
            problems += _problems(path.name, record, e)
    if problems:
        raise CorpusError(problems)
    return rows


def load(path: Path, model: type[R], choice: SplitChoice, limit: int = 0) -> list[R]:
    """The rows this choice needs, at most `limit` per split (0 — all)."""
    rows = wanted(read_rows(path, model), choice)
    if not limit:
        return rows
    kept: dict[str, int] = {}
    out = []
    for row in rows:
        if kept.get(row.split, 0) < limit:
            kept[row.split] = kept.get(row.split, 0) + 1
            out.append(row)
    return out
