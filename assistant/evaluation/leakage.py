"""corpus `questions:` + eval/data/*.jsonl → pairs where a corpus question copies an eval question.

Why: the corpus questions are indexed and train the adapted model; one that repeats an eval
question (any split) would score itself. A pair leaks when the two texts are equal after
normalisation (lower case, ё → е, punctuation and spacing ignored) or when their character
3-gram sets overlap with a Jaccard index of at least `THRESHOLD`.

    python -m assistant.evaluation.leakage [--threshold 0.6]   # prints the pairs, exit 1 if any
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pydantic import JsonValue

from assistant.corpus.glossary import load_glossary
from assistant.settings import ROOT

THRESHOLD = 0.6
# sets whose questions are never asked: a guard draft's question only frames a draft written
# over fixed sources, retrieval never sees it, so a corpus question like it gives nothing away
NOT_ASKED = frozenset({"guard_drafts"})
_NON_WORD = re.compile(r"[^\w]+")


@dataclass(frozen=True)
class Leak:
    slug: str
    corpus_question: str
    eval_id: str
    eval_question: str
    jaccard: float


def normalize(text: str) -> str:
    """«Что такое NVLink?» → «что такое nvlink»."""
    return " ".join(_NON_WORD.sub(" ", text.lower().replace("ё", "е")).split())


def trigrams(text: str) -> frozenset[str]:
    padded = f" {normalize(text)} "
    return frozenset(padded[i : i + 3] for i in range(len(padded) - 2))


def _strings(value: JsonValue, key: str = "") -> Iterator[str]:
    """The strings of a JSON list, or the `key` string of each object in it."""
    for item in value if isinstance(value, list) else []:
        if key and isinstance(item, dict):
            item = item.get(key)
        if isinstance(item, str):
            yield item


def _texts(row: dict[str, JsonValue]) -> Iterator[str]:
    """Every user-written string of an eval row, of any set: question, text, the earlier
    questions of a calculation row (`after`), dialogue turns, thread."""
    for key in ("question", "text"):
        value = row.get(key)
        if isinstance(value, str):
            yield value
    yield from _strings(row.get("after"))
    yield from _strings(row.get("turns"), "user")
    yield from _strings(row.get("thread"), "content")


def eval_questions(eval_dir: Path) -> list[tuple[str, str]]:
    """(file:id, text) for every string in eval/data/*.jsonl asked of the assistant."""
    out = []
    for path in sorted(eval_dir.glob("*.jsonl")):
        if path.stem in NOT_ASKED:
            continue
        for line in path.read_text("utf-8").splitlines():
            row: JsonValue = json.loads(line) if line.strip() else None
            if isinstance(row, dict):
                out += [(f"{path.stem}:{row.get('id', '?')}", t) for t in _texts(row) if t]
    return out


def find_leaks(corpus_dir: Path, eval_dir: Path, threshold: float = THRESHOLD) -> list[Leak]:
    """Every (corpus question, eval question) pair that is equal or at least `threshold` alike."""
    evals = [(i, t, normalize(t), trigrams(t)) for i, t in eval_questions(eval_dir)]
    leaks = []
    for entry in load_glossary(corpus_dir).entries:
        for q in entry.questions:
            norm, grams = normalize(q), trigrams(q)
            for eval_id, text, e_norm, e_grams in evals:
                score = 1.0 if norm == e_norm else len(grams & e_grams) / len(grams | e_grams)
                if score >= threshold:
                    leaks.append(Leak(entry.slug, q, eval_id, text, round(score, 3)))
    return sorted(leaks, key=lambda leak: -leak.jaccard)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threshold", type=float, default=THRESHOLD)
    args = parser.parse_args()
    leaks = find_leaks(ROOT / "corpus", ROOT / "eval" / "data", args.threshold)
    for leak in leaks:
        print(f"{leak.jaccard:.2f}  {leak.slug}: «{leak.corpus_question}»")
        print(f"      {leak.eval_id}: «{leak.eval_question}»")
    print(f"{len(leaks)} pair(s) at Jaccard ≥ {args.threshold}")
    sys.exit(1 if leaks else 0)


if __name__ == "__main__":
    main()
