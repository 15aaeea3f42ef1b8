"""Measure the sentence-support threshold of the answer guard (assistant/answer/backing.py:
MIN_COVERAGE, SOURCES_PER_SEGMENT) on the dev half of eval/data/guard_drafts.jsonl only.

    .venv/bin/python eval/tune_backing.py
    .venv/bin/python eval/tune_backing.py --json out.json

For each candidate the dev drafts go through Guard.verify_draft as in eval/guard_drafts.py;
printed: bad drafts delivered, good drafts rejected, their sum. The winner is the lowest sum;
among equals the middle of the widest run of equal sums (a point inside a plateau, not on its
edge). Test rows are never read. The winner goes into backing.py by hand, with the figures in
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.answer import backing  # noqa: E402
from assistant.answer.generation import EmbeddedGenerator, instruction_shingles  # noqa: E402
from assistant.answer.guard import Guard  # noqa: E402
from assistant.corpus.catalog import load_catalog  # noqa: E402
from assistant.corpus.glossary import load_glossary  # noqa: E402
from assistant.evaluation.guard import evaluate  # noqa: E402
from assistant.evaluation.rows import GuardDraftRow  # noqa: E402
from assistant.evaluation.sets import SplitChoice, load  # noqa: E402
from assistant.settings import Settings  # noqa: E402

COVERAGES = [round(0.30 + 0.05 * i, 2) for i in range(14)]  # 0.30 … 0.95
SOURCES = (1, 2, 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", type=Path, help="write every candidate's figures here")
    args = parser.parse_args()
    settings = Settings()
    glossary = load_glossary(settings.corpus_dir)
    catalog = load_catalog(settings.corpus_dir)
    guard = Guard(settings, glossary, catalog, EmbeddedGenerator(settings.prompts_dir), None)
    rows = load(ROOT / "eval" / "data" / "guard_drafts.jsonl", GuardDraftRow, SplitChoice.dev)
    instructions = instruction_shingles(settings.prompts_dir)
    found: list[dict[str, float | int]] = []
    print("источников  порог  плохих пропущено  хороших отклонено  сумма")
    for per in SOURCES:
        for coverage in COVERAGES:
            backing.MIN_COVERAGE, backing.SOURCES_PER_SEGMENT = coverage, per
            report = evaluate(rows, guard, instructions, glossary, catalog)
            bad, good = report.wrong("dev", "bad"), report.wrong("dev", "good")
            found.append({"sources": per, "coverage": coverage, "bad": bad, "good": good})
            print(f"{per:>10}  {coverage:5.2f}  {bad:>16}  {good:>17}  {bad + good:>5}")
    best = _winner(found)
    print(f"\nЛучшее: {best['sources']} предложения, порог {best['coverage']:.2f}")
    if args.json:
        args.json.write_text(json.dumps(found, ensure_ascii=False, indent=1) + "\n")


def _winner(found: list[dict[str, float | int]]) -> dict[str, float | int]:
    """The lowest sum; of equals, the middle of the longest run of neighbouring thresholds
    (one sources-per-segment value) with that sum."""
    low = min(f["bad"] + f["good"] for f in found)
    runs: list[list[dict[str, float | int]]] = []
    previous: dict[str, float | int] | None = None
    for f in found:
        if f["bad"] + f["good"] == low:
            joins = previous is not None and previous["sources"] == f["sources"]
            if joins and runs and runs[-1][-1] is previous:
                runs[-1].append(f)
            else:
                runs.append([f])
        previous = f
    longest = max(runs, key=len)
    return longest[len(longest) // 2]


if __name__ == "__main__":
    main()
