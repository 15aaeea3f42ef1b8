"""Benchmark: the hand-written period readers (assistant/understanding/periods.py, amounts.py)
against maintained Russian parsers — dateparser's Russian `search_dates` and natasha's
DatesExtractor (yargy grammars) — on the dev rows that name dates, ranges, durations in words
and years.

    .venv/bin/python eval/compare_date_parsers.py [--json]

The parsers are optional imports (not project dependencies): install them beside the venv to
re-measure, e.g. `pip install --target /tmp/parsers dateparser natasha` and PYTHONPATH=/tmp/parsers.
Each reader must give the rental hours the row expects (durations and inclusive ranges), and
no hours for the year / date rows of robustness.jsonl. Per-message time is the median.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from assistant.evaluation.tools import HOURS_PER
from assistant.text.numbers import normalise
from tests.helpers import read

ROOT = Path(__file__).resolve().parent.parent
CATEGORIES = ("duration-words", "date-range", "year-in-text")


def cases() -> list[tuple[str, float | None]]:
    """(question, expected rental hours or None) for the dev rows that exercise dates."""
    out: list[tuple[str, float | None]] = []
    for line in (ROOT / "eval" / "data" / "numeric_phrased.jsonl").read_text("utf-8").splitlines():
        row = json.loads(line)
        if row["split"] == "dev" and row["category"] in CATEGORIES:
            out.append(
                (
                    row["question"],
                    float(row["values"]["hours"]) if "hours" in row["values"] else None,
                )
            )
    for line in (ROOT / "eval" / "data" / "robustness.jsonl").read_text("utf-8").splitlines():
        row = json.loads(line)
        dated = row["split"] == "dev" and row["category"] in ("year", "date")
        if dated and "gpu_cost" in str(row.get("expect", {}).get("not_tool", "")):
            out.append((row["text"], None))
    return out


def hand_written(text: str) -> float | None:
    p = read(text).quantities.params
    if "duration" not in p:
        return None
    return float(p["duration"]) * HOURS_PER[str(p.get("duration_unit", "hours"))]


def _inclusive_days(found: list[date]) -> float | None:
    if len(found) < 2:
        return None
    first, last = found[0], found[-1]
    days = (last - first).days + 1
    return days * 24.0 if days > 0 else None


def dateparser_reader() -> Callable[[str], float | None] | None:
    try:
        from dateparser.search import search_dates
    except ImportError:
        return None
    settings = {"PREFER_DATES_FROM": "future"}

    def parse(text: str) -> float | None:
        found = search_dates(normalise(text), languages=["ru"], settings=settings) or []
        return _inclusive_days([d.date() for _, d in found])

    return parse


def natasha_reader() -> Callable[[str], float | None] | None:
    try:
        from natasha import DatesExtractor, MorphVocab
    except Exception:  # natasha needs pymorphy2, which needs setuptools' pkg_resources
        return None
    extractor = DatesExtractor(MorphVocab())
    this = date.today().year

    def parse(text: str) -> float | None:
        days: list[date] = []
        for match in extractor(text):
            f = match.fact
            if f.month and f.day:
                try:
                    days.append(date(f.year or this, f.month, f.day))
                except ValueError:
                    continue
        return _inclusive_days(days)

    return parse


def measure(name: str, reader: Callable[[str], float | None]) -> dict[str, Any]:
    right, times, misses = 0, [], []
    for text, hours in cases():
        start = time.perf_counter()
        got = reader(text)
        times.append(time.perf_counter() - start)
        ok = got is None if hours is None else got is not None and abs(got - hours) < 0.5
        right += ok
        if not ok:
            misses.append({"q": text[:80], "expected_h": hours, "got_h": got})
    n = len(times)
    return {
        "reader": name,
        "cases": n,
        "right": right,
        "accuracy": round(right / n, 3),
        "p50_ms": round(statistics.median(times) * 1e3, 3),
        "max_ms": round(max(times) * 1e3, 3),
        "misses": misses,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    readers: list[tuple[str, Callable[[str], float | None] | None]] = [
        ("hand-written (periods.py + amounts.py)", hand_written),
        ("dateparser search_dates (ru) + inclusive days", dateparser_reader()),
        ("natasha DatesExtractor (yargy) + inclusive days", natasha_reader()),
    ]
    hand_written("прогрев")  # load pymorphy3 and the catalogue before timing
    report = []
    for name, reader in readers:
        if reader is None:
            report.append({"reader": name, "skipped": "not installed"})
            continue
        reader("с 10 по 24 июня")  # first call loads the parser's data
        report.append(measure(name, reader))
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
        return
    for r in report:
        if "skipped" in r:
            print(f"{r['reader']}: {r['skipped']}")
            continue
        print(
            f"{r['reader']}: {r['right']}/{r['cases']} = {r['accuracy']}, "
            f"p50 {r['p50_ms']} ms, max {r['max_ms']} ms"
        )


if __name__ == "__main__":
    main()
