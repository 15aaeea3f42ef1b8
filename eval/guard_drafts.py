"""Blind LLM drafts through the answer guard: bad drafts delivered and good drafts rejected per
class, dev and test side by side (assistant/evaluation/guard.py).

    .venv/bin/python eval/guard_drafts.py                  # the table, dev misses below it
    .venv/bin/python eval/guard_drafts.py --split dev      # tune on dev only
    .venv/bin/python eval/guard_drafts.py --json out.json  # the figures as one JSON object

The set is eval/data/guard_drafts.jsonl: 261 drafts written by someone who never saw the
guard. Misses are listed for dev rows only; nobody tunes on test misses.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.answer.generation import EmbeddedGenerator, instruction_shingles  # noqa: E402
from assistant.answer.guard import Guard  # noqa: E402
from assistant.corpus.catalog import load_catalog  # noqa: E402
from assistant.corpus.glossary import load_glossary  # noqa: E402
from assistant.evaluation.guard import evaluate, render  # noqa: E402
from assistant.evaluation.rows import GuardDraftRow  # noqa: E402
from assistant.evaluation.sets import SplitChoice, load  # noqa: E402
from assistant.settings import Settings  # noqa: E402

DATA = ROOT / "eval" / "data" / "guard_drafts.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=["both", "dev", "test"], default="both")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    settings = Settings()
    glossary = load_glossary(settings.corpus_dir)
    catalog = load_catalog(settings.corpus_dir)
    guard = Guard(settings, glossary, catalog, EmbeddedGenerator(settings.prompts_dir), None)
    rows = load(DATA, GuardDraftRow, SplitChoice(args.split))
    instructions = instruction_shingles(settings.prompts_dir)
    report = evaluate(rows, guard, instructions, glossary, catalog)
    print(render(report))
    if args.json:
        args.json.write_text(json.dumps(report.as_json(), ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()
