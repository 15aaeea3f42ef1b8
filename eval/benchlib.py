"""Helpers the benchmark scripts share: the question sets and the percentile they report.

The scripts run as `python eval/bench_*.py`, so this folder is on sys.path and
`from benchlib import …` works without installing anything.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RETRIEVAL = ROOT / "eval" / "data" / "retrieval.jsonl"


def questions(path: Path = RETRIEVAL) -> list[str]:
    """The `question` field of every row of a JSONL evaluation set, in file order."""
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    return [r["question"] for r in rows]


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile, q in 0–100; NaN for no values."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]
