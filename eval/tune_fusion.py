"""Learn the retrieval fusion weights on dev rows only (retrieval.jsonl + problems.jsonl).

    .venv/bin/python eval/tune_fusion.py                  # grid search, 2-fold CV estimate
    .venv/bin/python eval/tune_fusion.py --json out.json

Each dev question is retrieved once with the current model and index; the per-leg evidence
(dense cosines of entry/sentence chunks, of question chunks, BM25, aliases) is kept and the
legs are re-fused for every candidate in a grid. The objective is hit@1 + MRR@10 over both sets
(ties: hit@3). The selection procedure is scored honestly too: weights picked on one half of
dev, measured on the other half (10 random halvings), so the estimate is not the in-sample
maximum. Test rows are never read. The winner goes into `FusionWeights` by hand, with the
figures in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from dataclasses import asdict, dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.evaluation.retrieval import load_dataset  # noqa: E402
from assistant.evaluation.rows import RetrievalRow  # noqa: E402
from assistant.evaluation.sets import SplitChoice  # noqa: E402
from assistant.search.retrieval import FusionWeights, fuse, merge  # noqa: E402

DATA = ROOT / "eval" / "data"

SETS = ("retrieval", "problems")
GRID = {
    "dense": (3.0, 5.0, 7.5, 10.0, 15.0, 20.0, 30.0),
    "bm25": (0.5, 1.0, 1.5, 2.0),
    "alias": (0.1, 0.2, 0.3, 0.5, 0.75, 1.0),
    "questions": (0.0, 2.5, 5.0, 10.0),
    "merge_questions": (False, True),
}


@dataclass(frozen=True)
class Legs:
    row: RetrievalRow
    texts: dict[str, float]
    asked: dict[str, float]
    bm25: dict[str, float]
    alias: dict[str, float]


def collect(rows: list[RetrievalRow]) -> list[Legs]:
    from assistant.pipeline import build_retriever
    from assistant.settings import load_settings

    retriever = build_retriever(load_settings())
    retriever.weights = FusionWeights(merge_questions=False)  # keep the text leg unmerged
    out = []
    for row in rows:
        r = retriever.retrieve(row.question, 10)
        out.append(Legs(row, r.dense, r.questions, r.bm25, r.alias))
    return out


def ranking(w: FusionWeights, legs: Legs) -> list[str]:
    dense = merge(legs.texts, legs.asked) if w.merge_questions else legs.texts
    scores = fuse(w, dense, legs.bm25, legs.alias, legs.asked)
    return sorted(scores, key=lambda s: -scores[s])[:10]


def per_row(w: FusionWeights, all_legs: list[Legs]) -> list[tuple[float, float, float]]:
    """(hit@1, hit@3, reciprocal rank) per row."""
    out = []
    for legs in all_legs:
        top, gold = ranking(w, legs), set(legs.row.gold)
        rr = next((1 / i for i, s in enumerate(top, 1) if s in gold), 0.0)
        out.append((float(bool(set(top[:1]) & gold)), float(bool(set(top[:3]) & gold)), rr))
    return out


def mean(scores: list[tuple[float, float, float]], idx: list[int]) -> tuple[float, float, float]:
    n = max(len(idx), 1)
    return tuple(sum(scores[i][k] for i in idx) / n for k in range(3))  # type: ignore[return-value]


def objective(m: tuple[float, float, float]) -> tuple[float, float]:
    return (m[0] + m[2], m[1])


def candidates() -> list[FusionWeights]:
    keys = list(GRID)
    return [
        replace(FusionWeights(), **dict(zip(keys, values, strict=True)))  # type: ignore[arg-type]
        for values in itertools.product(*(GRID[k] for k in keys))
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", type=Path, help="write the result here")
    args = parser.parse_args()
    sets = {name: load_dataset(DATA / f"{name}.jsonl", SplitChoice.dev) for name in SETS}
    rows = [row for name in SETS for row in sets[name]]
    legs = collect(rows)
    grid = candidates()
    table = {w: per_row(w, legs) for w in grid}
    everything = list(range(len(rows)))
    best = max(grid, key=lambda w: objective(mean(table[w], everything)))
    held_out = []
    for seed in range(10):
        order = everything[:]
        random.Random(seed).shuffle(order)
        halves = (order[::2], order[1::2])
        for a, b in ((0, 1), (1, 0)):
            pick = max(grid, key=lambda w: objective(mean(table[w], halves[a])))
            held_out.append(mean(table[pick], halves[b]))
    current = FusionWeights()
    offsets = {name: [i for i, r in enumerate(rows) if r in sets[name]] for name in SETS}
    result = {
        "rows": {name: len(sets[name]) for name in SETS},
        "best": asdict(best),
        "best_in_sample": {n: mean(table[best], idx) for n, idx in offsets.items()},
        "current": asdict(current),
        "current_in_sample": {n: mean(per_row(current, legs), idx) for n, idx in offsets.items()},
        "cv_held_out_mean": [sum(h[k] for h in held_out) / len(held_out) for k in range(3)],
    }
    text = json.dumps(result, ensure_ascii=False, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
