"""Train the learned scope decision on dev rows and measure it against the rules.

    .venv/bin/python eval/train_scope.py             # dev: select by CV, fit, write the weights
    .venv/bin/python eval/train_scope.py --test      # …then rules vs learned on test (aggregates)
    .venv/bin/python eval/train_scope.py --no-write  # select and report, keep the weights file

What it learns: whether the glossary covers a question the search found evidence for — the
in/out part of search/scope.py; which entries answer stays the rules'. A logistic regression
(numpy, L2, Newton steps) over the facts scope.py gathers (search/coverage.py: the rules'
verdict, cosines per leg, BM25, names, unknown words, how much of the question the leading
entries' words cover), one weight per lemma and, optionally, the query vector.

Rows (dev only for training and selection): in scope — retrieval.jsonl, problems.jsonl and
every in-scope kind of nuggets.jsonl except small talk (the greeting route's matter, not the
glossary's); out of scope — out_of_scope.jsonl (refuse and not_found; injections take their own
route) and the nugget rows that must be declined. Each question is answered twice, the scope
decision saying «covered» and then «not covered»: only questions whose refusal it changes train
the model (a GPU sheet or the provider's own sentence answers some whatever it says), and every
figure below takes each question's refusal from the answer under the verdict given.

Selection: stratified 5-fold cross-validation on dev, repeated 3 times, on those refusals.
«Never refuse a question an entry answers» comes first: among the feature sets × L2 strengths
× thresholds whose CV false refusals are no more than the rules' on the nugget set and on the
older sets, and whose older out-of-scope refusal is not below the rules', the highest
near-domain decline on the nugget set wins (then the older sets' refusal, then fewer false
refusals, then fewer feature blocks and the stronger L2). The winner is refit on every dev row
and written to corpus/scope_model.json with the embedding model's id (another model falls back
to the rules). When no candidate qualifies, a weights file left from an earlier fit is removed:
weights selected on other answers must not decide.
Dev and test figures are then measured end to end: every question answered by the real
pipeline under each decision. Test rows give aggregates only, never a row.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.corpus.catalog import load_catalog  # noqa: E402
from assistant.evaluation.rows import (  # noqa: E402
    SET_ROWS,
    NuggetRow,
    OutOfScopeRow,
    RetrievalRow,
)
from assistant.evaluation.sets import SplitChoice, load  # noqa: E402
from assistant.pipeline import Pipeline, build_engine, build_retriever  # noqa: E402
from assistant.search.coverage import (  # noqa: E402
    FACT_NAMES,
    FORMAT,
    WEIGHTS_FILE,
    Coverage,
    RuleCoverage,
    ScopeEvidence,
    from_json,
)
from assistant.settings import load_settings  # noqa: E402

FOLDS, REPEATS = 5, 3
MIN_DF = 3  # a lemma gets a weight when this many training questions have it
EMBEDDING_SCALE = 0.3  # the query vector's block is penalised (1 / 0.3)² times harder
BLOCKS = (("facts",), ("facts", "lemmas"), ("facts", "embedding"), ("facts", "lemmas", "embedding"))
PENALTIES = (3.0, 10.0, 30.0)
THRESHOLDS = tuple(round(0.05 * i, 2) for i in range(1, 13))


@dataclass(frozen=True)
class Row:
    set: str  # retrieval, problems, out_of_scope, nuggets
    kind: str  # category or nugget kind
    inside: bool  # the glossary answers it
    refused_in: bool  # the answer refuses when the scope decision says «covered»
    refused_out: bool  # …and when it says «not covered»
    evidence: ScopeEvidence | None  # None: the answer never reached the scope decision

    @property
    def matters(self) -> bool:
        """The scope decision changes whether this question is refused (a GPU sheet or the
        provider's own sentence answers some questions whatever the decision says)."""
        return self.evidence is not None and self.refused_in != self.refused_out

    @property
    def trains(self) -> bool:
        return self.matters and self.kind != "small_talk"

    def refused(self, covered: bool) -> bool:
        return self.refused_in if covered else self.refused_out

    @property
    def by_rules(self) -> bool:
        return self.refused(self.evidence is None or self.evidence.facts.rules >= 0.5)


class Recording:
    """A fixed verdict (None: the rules'), noting the evidence of the last question asked."""

    name = "rules"

    def __init__(self) -> None:
        self.last: ScopeEvidence | None = None
        self.verdict: bool | None = None

    def covers(self, evidence: ScopeEvidence) -> bool:
        self.last = evidence
        return evidence.facts.rules >= 0.5 if self.verdict is None else self.verdict


def labelled(split: str) -> Iterator[tuple[str, str, bool, str]]:
    """(set, question, in scope, kind) for every row of the split the scope decision concerns."""
    choice = SplitChoice(split)
    for name in ("retrieval", "problems", "out_of_scope", "nuggets"):
        for row in load(ROOT / "eval" / "data" / f"{name}.jsonl", SET_ROWS[name], choice):
            if isinstance(row, OutOfScopeRow):
                if row.expect != "injection":
                    yield name, row.question, False, row.expect
            elif isinstance(row, NuggetRow):
                yield name, row.question, row.expect != "decline", row.kind
            elif isinstance(row, RetrievalRow):  # problems are retrieval rows too
                yield name, row.question, True, row.category


def collect(pipeline: Pipeline, recording: Recording, split: str) -> list[Row]:
    """Each question answered twice, the scope decision saying «covered» and «not covered»."""
    rows = []
    for name, question, inside, kind in labelled(split):
        refused = []
        for verdict in (True, False):
            recording.last, recording.verdict = None, verdict
            try:
                refused.append(pipeline.answer(question).refused)
            except Exception:  # an unanswerable row counts as a refusal, as in `eval answers`
                refused.append(True)
        rows.append(Row(name, kind, inside, refused[0], refused[1], recording.last))
    recording.verdict = None
    return rows


def figures(rows: list[Row], refused: list[bool]) -> dict[str, float]:
    """Near-domain decline and false refusals on the nugget set; the older sets' the same."""

    def rate(keep: list[bool]) -> float:
        chosen = [r for r, k in zip(refused, keep, strict=True) if k]
        return sum(chosen) / max(len(chosen), 1)

    nug = [r.set == "nuggets" for r in rows]
    return {
        "nug_declined": rate([n and not r.inside for n, r in zip(nug, rows, strict=True)]),
        "nug_false_refusal": rate(
            [n and r.inside and r.kind != "small_talk" for n, r in zip(nug, rows, strict=True)]
        ),
        "nug_false_refusal_small_talk": rate(
            [n and r.inside for n, r in zip(nug, rows, strict=True)]
        ),
        "old_refused": rate([r.set == "out_of_scope" for r in rows]),
        "old_false_refusal": rate([r.set in ("retrieval", "problems") for r in rows]),
    }


def estimated(rows: list[Row], covered: np.ndarray) -> list[bool]:
    """Refusals had the scope decision said `covered` (per row)."""
    return [row.refused(bool(cov)) for row, cov in zip(rows, covered, strict=True)]


@dataclass(frozen=True)
class Design:
    """Training columns → the matrix a block set reads (statistics from training rows only)."""

    blocks: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    vocab: tuple[str, ...]
    q_mean: np.ndarray
    q_scale: np.ndarray

    @classmethod
    def fit(cls, blocks: tuple[str, ...], ev: list[ScopeEvidence]) -> Design:
        facts = np.array([e.facts.vector() for e in ev])
        scale = facts.std(0)
        counts: dict[str, int] = {}
        for e in ev:
            for m in set(e.lemmas):
                counts[m] = counts.get(m, 0) + 1
        vocab = tuple(sorted(m for m, c in counts.items() if c >= MIN_DF))
        q = np.array([np.asarray(e.query, dtype=np.float64) for e in ev])
        q_scale = q.std(0)
        return cls(
            blocks,
            facts.mean(0),
            np.where(scale > 0, scale, 1.0),
            vocab if "lemmas" in blocks else (),
            q.mean(0),
            np.where(q_scale > 0, q_scale, 1.0),
        )

    def matrix(self, ev: list[ScopeEvidence]) -> np.ndarray:
        parts = [np.array([(e.facts.vector() - self.mean) / self.scale for e in ev])]
        if self.vocab:
            at = {m: i for i, m in enumerate(self.vocab)}
            bag = np.zeros((len(ev), len(self.vocab)))
            for row, e in enumerate(ev):
                for m in set(e.lemmas):
                    if m in at:
                        bag[row, at[m]] = 1.0
            parts.append(bag)
        if "embedding" in self.blocks:
            q = np.array([np.asarray(e.query, dtype=np.float64) for e in ev])
            parts.append(EMBEDDING_SCALE * (q - self.q_mean) / self.q_scale)
        return np.hstack(parts)


def fit_logistic(x: np.ndarray, y: np.ndarray, penalty: float) -> np.ndarray:
    """Class-balanced L2 logistic regression by Newton steps; the last coefficient is the bias."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    weight = np.where(y == 1, len(y) / (2 * y.sum()), len(y) / (2 * (len(y) - y.sum())))
    ridge = penalty * np.eye(xb.shape[1])
    ridge[-1, -1] = 0.0
    beta = np.zeros(xb.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(xb @ beta)))
        grad = xb.T @ (weight * (p - y)) + ridge @ beta
        hess = (xb * (weight * p * (1 - p))[:, None]).T @ xb + ridge
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-7:
            break
    return beta


def predict(x: np.ndarray, beta: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(x @ beta[:-1] + beta[-1])))


def stratified_folds(y: np.ndarray, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    folds: list[list[int]] = [[] for _ in range(FOLDS)]
    for label in (0, 1):
        for i, at in enumerate(rng.permutation(np.flatnonzero(y == label))):
            folds[i % FOLDS].append(int(at))
    return [np.array(sorted(f)) for f in folds]


def out_of_fold(train: list[Row], blocks: tuple[str, ...], penalty: float) -> np.ndarray:
    """P(covered) of every training row from models that did not see it, per repeat."""
    ev = [r.evidence for r in train if r.evidence is not None]
    y = np.array([float(r.inside) for r in train])
    probs = np.zeros((REPEATS, len(train)))
    for repeat in range(REPEATS):
        for held in stratified_folds(y, seed=repeat):
            fit_at = np.setdiff1d(np.arange(len(train)), held)
            design = Design.fit(blocks, [ev[i] for i in fit_at])
            beta = fit_logistic(design.matrix([ev[i] for i in fit_at]), y[fit_at], penalty)
            probs[repeat, held] = predict(design.matrix([ev[i] for i in held]), beta)
    return probs


def cv_figures(rows: list[Row], probs: np.ndarray, threshold: float) -> dict[str, float]:
    """Figures over every dev row, averaged over the repeats; rows that do not train keep the
    rules' verdict."""
    at = [i for i, r in enumerate(rows) if r.trains]
    results = []
    for repeat in probs:
        covered = np.array([r.evidence.facts.rules >= 0.5 if r.evidence else True for r in rows])
        covered[at] = repeat >= threshold
        results.append(figures(rows, estimated(rows, covered)))
    return {k: float(np.mean([r[k] for r in results])) for k in results[0]}


def select(rows: list[Row]) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The winner (module docstring: the criterion; None if no candidate keeps the rules' false
    refusals and refusal) and every candidate's CV figures."""
    train = [r for r in rows if r.trains]
    rules = figures(rows, [r.by_rules for r in rows])
    table = []
    for blocks, penalty in itertools.product(BLOCKS, PENALTIES):
        probs = out_of_fold(train, blocks, penalty)
        for threshold in THRESHOLDS:
            cv = cv_figures(rows, probs, threshold)
            table.append({"blocks": blocks, "penalty": penalty, "threshold": threshold, **cv})
    kept = [
        c
        for c in table
        if c["nug_false_refusal"] <= rules["nug_false_refusal"] + 1e-9
        and c["old_false_refusal"] <= rules["old_false_refusal"] + 1e-9
        and c["old_refused"] >= rules["old_refused"] - 1e-9
    ]

    def key(c: dict[str, Any]) -> tuple[float, ...]:
        errors = c["nug_false_refusal"] + c["old_false_refusal"]
        figures = (round(c["nug_declined"], 4), round(c["old_refused"], 4), -round(errors, 4))
        return (*figures, -len(c["blocks"]), c["penalty"])  # a tie: the smaller model

    return (max(kept, key=key) if kept else None), table


def export(rows: list[Row], best: dict[str, Any], model_id: str, dim: int) -> dict[str, Any]:
    """Refit the winner on every dev training row; fold the vector's scaling into its weights."""
    train = [r for r in rows if r.trains]
    ev = [r.evidence for r in train if r.evidence is not None]
    y = np.array([float(r.inside) for r in train])
    blocks = tuple(best["blocks"])
    design = Design.fit(blocks, ev)
    beta = fit_logistic(design.matrix(ev), y, best["penalty"])
    n_facts, n_lemmas = len(FACT_NAMES), len(design.vocab)
    bias = float(beta[-1])
    embedding: list[float] = []
    if "embedding" in blocks:
        raw = beta[n_facts + n_lemmas : -1] * EMBEDDING_SCALE / design.q_scale
        bias -= float(raw @ design.q_mean)
        embedding = [round(float(v), 6) for v in raw]
    lemmas = beta[n_facts : n_facts + n_lemmas]
    return {
        "format": FORMAT,
        "model_id": model_id,
        "dim": dim,
        "trained_on": {"in_scope": int(y.sum()), "out_of_scope": int(len(y) - y.sum())},
        "selection": {k: best[k] for k in ("blocks", "penalty", "threshold")},
        "cv": {k: round(v, 4) for k, v in best.items() if isinstance(v, float)},
        "facts": list(FACT_NAMES),
        "mean": [round(float(v), 6) for v in design.mean],
        "scale": [round(float(v), 6) for v in design.scale],
        "weights": [round(float(v), 6) for v in beta[:n_facts]],
        "lemmas": {m: round(float(w), 5) for m, w in zip(design.vocab, lemmas, strict=True)},
        "embedding": embedding,
        "bias": round(bias, 6),
        "threshold": best["threshold"],
    }


def end_to_end(pipeline: Pipeline, split: str) -> dict[str, float]:
    """Every row of the split answered by `pipeline`: aggregates only (never a row)."""
    rows, refused = [], []
    for name, question, inside, kind in labelled(split):
        try:
            answer = pipeline.answer(question).refused
        except Exception:
            answer = True
        rows.append(Row(name, kind, inside, answer, answer, None))
        refused.append(answer)
    return figures(rows, refused)


def line(label: str, f: dict[str, float]) -> str:
    return (
        f"{label:28s} nuggets: declined {f['nug_declined']:.3f}, false refusals "
        f"{f['nug_false_refusal']:.3f} ({f['nug_false_refusal_small_talk']:.3f} with small talk)"
        f" · older sets: refused {f['old_refused']:.3f}, false refusals "
        f"{f['old_false_refusal']:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--test", action="store_true", help="also measure both on test")
    parser.add_argument("--no-write", action="store_true", help="keep the weights file as is")
    parser.add_argument("--json", type=Path, help="write every CV candidate's figures here")
    args = parser.parse_args()
    settings = load_settings()
    retriever = build_retriever(settings)
    catalog = load_catalog(settings.corpus_dir)
    manifest = retriever.index.manifest
    recording = Recording()
    rows = collect(
        Pipeline(build_engine(settings, retriever, catalog, coverage=recording), settings),
        recording,
        "dev",
    )
    best, table = select(rows)
    if args.json:
        args.json.write_text(json.dumps(table, indent=1, default=list), encoding="utf-8")
    print(f"dev rows: {len(rows)}, training: {sum(r.trains for r in rows)}")
    print(line("rules, dev", figures(rows, [r.by_rules for r in rows])))
    path = settings.corpus_dir / WEIGHTS_FILE
    if best is None:
        print("no candidate keeps the rules' false refusals and refusal on dev: the rules stay")
        if path.exists() and not args.no_write:  # weights fit on other answers must not decide
            path.unlink()
            print(f"removed {path}: the engine decides scope by the rules")
        return
    print(line("learned, dev CV", best))
    blocks = " + ".join(best["blocks"])
    print(f"selected: {blocks}, L2 {best['penalty']}, threshold {best['threshold']}")
    model = export(rows, best, manifest.model_id, manifest.dim)
    if not args.no_write:
        path.write_text(json.dumps(model, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
        print(f"weights → {path}")
    learned: Coverage = from_json(model)
    pipelines = {
        "rules": Pipeline(
            build_engine(settings, retriever, catalog, coverage=RuleCoverage()), settings
        ),
        "learned": Pipeline(build_engine(settings, retriever, catalog, coverage=learned), settings),
    }
    splits = ("dev", "test") if args.test else ("dev",)
    for split in splits:
        for name, pipeline in pipelines.items():
            suffix = " (fit on these rows)" if name == "learned" and split == "dev" else ""
            print(line(f"{name}, {split}{suffix}", end_to_end(pipeline, split)))


if __name__ == "__main__":
    main()
