"""Every eval question (eval/data) → what the understanding stage reads, one JSON line each.

    .venv/bin/python eval/dump_understanding.py /tmp/after.jsonl
    PYTHONPATH=/tmp/before .venv/bin/python eval/dump_understanding.py /tmp/before.jsonl
    cmp /tmp/before.jsonl /tmp/after.jsonl        # a change that keeps the understanding: equal

Each line: the question, `Reader.read`'s quantities (parameters, intents, flags, notes,
problems), signals, GPUs, models, terms, defined entries, dates, numbers, the paired flag, the
normalised text, words and lemmas, and the plan of `plan_calculation` (tool, arguments, missing,
problem, notes); dialogue turns are planned with the turn before carried. `--mutations N` adds N
seeded variants of the questions (digits repeated, characters doubled, questions joined or
shuffled, odd separators) and the hostile strings of eval/bench_parsing.py.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

from bench_parsing import ADVERSARIAL, DATA
from benchlib import ROOT

from assistant.corpus.catalog import load_catalog
from assistant.corpus.glossary import load_glossary
from assistant.search.retrieval import AliasMatcher
from assistant.understanding.calculation import plan_calculation
from assistant.understanding.params import Params
from assistant.understanding.reader import Reader


def plain(value: object) -> object:
    """JSON-ready: dataclasses and models as their fields, anything else odd as its repr."""
    return json.loads(json.dumps(value, default=repr, ensure_ascii=False))


def reading(reader: Reader, text: str, carried: Params) -> tuple[dict[str, object], Params]:
    m = reader.read(text)
    q = m.quantities
    row: dict[str, object] = {
        "q": text,
        "params": plain(q.params.stored()),
        "intents": sorted(q.intents),
        "flags": [q.definitional, q.price_words, q.request, q.per_card, q.verdict],
        "notes": list(q.notes),
        "problems": list(q.problems),
        "gpus": list(m.gpus),
        "models": list(m.models),
        "signals": plain(vars(m.signals)),
        "terms": plain(dict(sorted(m.terms.items()))),
        "defined": plain(dict(sorted(m.defined.items()))),
        "dates": plain([vars(d) for d in m.dates]),
        "numbers": plain(list(m.numbers)),
        "families": list(m.families),
        "paired": m.paired,
        "pieces": m.pieces,
        "bare": plain(m.bare_context.params.stored()) if m.bare_context else None,
        "normalised": m.normalised,
        "words": list(m.words),
        "lemmas": list(m.lemmas),
    }
    plan = plan_calculation(m, carried, reader.catalog)
    if plan is None:
        return row, carried
    row["plan"] = {
        "tool": plan.tool.value,
        "arguments": plain(plan.arguments.stored()),
        "missing": list(plan.missing),
        "problem": plan.problem,
        "notes": list(plan.notes),
    }
    return row, plan.carry


def conversations() -> Iterator[list[str]]:
    """Each eval row as the messages it sends: one question, or a dialogue's user turns."""
    for path in sorted(DATA.glob("*.jsonl")):
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                yield [row[k] for k in ("question", "text") if k in row]
                yield [t["user"] for t in row.get("turns", [])]


def mutations(questions: list[str], n: int) -> list[str]:
    rnd = random.Random(23)

    def mutate(q: str) -> str:
        k = rnd.randrange(6)
        if k == 0:
            return re.sub(r"\d+", lambda m: m.group(0) * rnd.randint(2, 6), q)
        if k == 1:
            return f"{q} {rnd.choice(questions)}"
        if k == 2:
            return q.replace(" ", rnd.choice(["  ", ",", ", ", " - ", "\n", "1 "]), 3)
        if k == 3:
            return rnd.choice(["или ", "чем ", "1 гб ", "$1 ", "12345678 ", "в 2024 "]) + q
        if k == 4:
            words = q.split()
            rnd.shuffle(words)
            return " ".join(words)
        return "".join(c * rnd.choice([1, 1, 1, 2]) for c in q)

    return [mutate(rnd.choice(questions)) for _ in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--mutations", type=int, default=0, help="seeded variants to add")
    args = ap.parse_args()
    catalog = load_catalog(ROOT / "corpus")
    reader = Reader(catalog, terms=AliasMatcher(load_glossary(ROOT / "corpus")))
    rows = 0
    with args.out.open("w", encoding="utf-8") as out:
        talks = [c for c in conversations() if c]
        singles = [[t] for t in mutations([t for c in talks for t in c], args.mutations)]
        if args.mutations:
            singles += [[t] for texts in ADVERSARIAL.values() for t in texts.values()]
        for messages in talks + singles:
            carried = Params()
            for text in messages:
                row, carried = reading(reader, text, carried)
                out.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
                rows += 1
    print(f"{rows} messages → {args.out}")


if __name__ == "__main__":
    main()
