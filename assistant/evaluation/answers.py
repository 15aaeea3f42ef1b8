"""eval/*.jsonl + a pipeline → answer-quality report: citations, refusals, numbers, dialogues."""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from assistant.answer import grounding
from assistant.evaluation.tools import same
from assistant.pipeline import Pipeline
from assistant.schema import Answer, Turn


def _rows(path: Path, limit: int) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    return rows[:limit] if limit else rows


class Recorder:
    """Collects every answer's latency per route and re-checks what left the engine."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.caught = 0
        self.leaked: list[str] = []
        self.answers = 0
        self.generators: dict[str, int] = defaultdict(int)

    def ask(self, question: str, history: list[Turn] | None = None) -> Answer:
        answer = self.pipeline.answer(question, history or [])
        self.answers += 1
        self.latency[answer.route].append(answer.meta.latency_ms)
        self.generators[answer.generator] += 1
        self.caught += answer.meta.grounding_violations
        self.leaked += [f"{question}: {p}" for p in self.audit(question, answer, history or [])]
        return answer

    def audit(self, question: str, answer: Answer, history: list[Turn]) -> list[str]:
        """Independent check: citations from the context, every number supported by the same
        claim of a cited sentence or tool result — re-derived from what left the engine."""
        guard = self.pipeline.engine.guard
        problems = [p.detail for p in guard.recheck(answer, history, question)]
        sources = grounding.Sources()
        sources.add(*(self.pipeline.engine.entries[c.slug].text for c in answer.citations))
        for call in answer.tool_calls:
            sources.add_json(call.result)
        problems += [f"ссылка {u}" for u in grounding.foreign_links(answer.answer, sources)]
        if answer.generator != "embedded" and grounding.degenerate(answer.answer):
            problems.append("повторы или список источников")
        return problems


def _cited(answer: Answer) -> list[str]:
    return [c.slug for c in answer.citations]


def eval_in_scope(rec: Recorder, rows: list[dict[str, Any]]) -> dict[str, Any]:
    hits, precision, refused, comp_all, comp_n = 0, 0.0, 0, 0, 0
    misses = []
    for row in rows:
        answer = rec.ask(row["question"])
        cited, gold = _cited(answer), set(row["gold"])
        hit = bool(set(cited[:3]) & gold)
        hits += hit
        precision += len([s for s in cited if s in gold]) / len(cited) if cited else 0.0
        refused += answer.refused
        if row.get("category") == "comparison":
            comp_n += 1
            comp_all += gold <= set(cited)
        if not hit:
            misses.append(
                {
                    "id": row["id"],
                    "q": row["question"],
                    "gold": row["gold"],
                    "cited": cited,
                    "route": answer.route,
                }
            )
    n = max(len(rows), 1)
    return {
        "n": len(rows),
        "citation_hit@3": round(hits / n, 4),
        "citation_precision": round(precision / n, 4),
        "false_refusal_rate": round(refused / n, 4),
        "comparison_all_gold_cited": round(comp_all / max(comp_n, 1), 4),
        "comparison_n": comp_n,
        "misses": misses,
    }


def eval_out_of_scope(rec: Recorder, rows: list[dict[str, Any]]) -> dict[str, Any]:
    by_expect: dict[str, list[bool]] = defaultdict(list)
    misses = []
    for row in rows:
        answer = rec.ask(row["question"])
        ok = answer.route == "injection" if row["expect"] == "injection" else answer.refused
        by_expect[row["expect"]].append(ok)
        if not ok:
            misses.append(
                {
                    "id": row["id"],
                    "q": row["question"],
                    "expect": row["expect"],
                    "route": answer.route,
                }
            )
    everything = [ok for oks in by_expect.values() for ok in oks]
    return {
        "n": len(rows),
        "refusal_rate": round(sum(everything) / max(len(everything), 1), 4),
        "by_expect": {k: round(sum(v) / len(v), 4) for k, v in by_expect.items()},
        "misses": misses,
    }


def _history(rec: Recorder, questions: list[str]) -> list[Turn]:
    history: list[Turn] = []
    for q in questions:
        answer = rec.pipeline.answer(q, history)
        history.extend(rec.pipeline.turns_for(q, answer))
    return history


def eval_numeric(rec: Recorder, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Routed: the question reached a calculator. Equal: its answer carries the expected values."""
    checked, routed, equal, misses = 0, 0, 0, []
    for row in rows:
        if not row.get("values"):
            continue
        answer = rec.ask(row["question"], _history(rec, row.get("after", [])))
        checked += 1
        got = answer.tool_calls[0].result.get("values", {}) if answer.tool_calls else {}
        routed += bool(answer.tool_calls)
        ok = all(k in got and same(v, got[k]) for k, v in row["values"].items())
        equal += ok
        if not ok:
            misses.append(
                {"id": row["id"], "q": row["question"], "route": answer.route, "got": got}
            )
    return {
        "n": checked,
        "routed_to_calculator": round(routed / max(checked, 1), 4),
        "numeric_equal_to_tools": round(equal / max(routed, 1), 4),
        "misses": misses,
    }


def check_turn(answer: Answer, expect: dict[str, Any]) -> list[str]:
    problems = []
    cited = set(_cited(answer))
    if "route" in expect and answer.route != expect["route"]:
        problems.append(f"route {answer.route} ≠ {expect['route']}")
    if "slugs_any" in expect and not cited & set(expect["slugs_any"]):
        problems.append(f"нет ни одного из {expect['slugs_any']} в {sorted(cited)}")
    if "slugs_all" in expect and not set(expect["slugs_all"]) <= cited:
        problems.append(f"не все из {expect['slugs_all']} в {sorted(cited)}")
    if "refused" in expect and answer.refused != expect["refused"]:
        problems.append(f"refused {answer.refused}")
    names = [c.name for c in answer.tool_calls]
    if "tool" in expect and expect["tool"] not in names:
        problems.append(f"tool {names} ≠ {expect['tool']}")
    got = answer.tool_calls[0].result.get("values", {}) if answer.tool_calls else {}
    for k, v in expect.get("values", {}).items():
        if k not in got or not same(v, got[k]):
            problems.append(f"{k}: {got.get(k)} ≠ {v}")
    return problems


def eval_dialogues(rec: Recorder, rows: list[dict[str, Any]]) -> dict[str, Any]:
    turns_ok, turns, dialogs_ok, misses = 0, 0, 0, []
    for row in rows:
        history: list[Turn] = []
        all_ok = True
        for i, turn in enumerate(row["turns"]):
            answer = rec.ask(turn["user"], history)
            problems = check_turn(answer, turn.get("expect", {}))
            history.extend(rec.pipeline.turns_for(turn["user"], answer))
            turns += 1
            turns_ok += not problems
            all_ok &= not problems
            if problems:
                misses.append(
                    {"id": f"{row['id']}#{i + 1}", "q": turn["user"], "problems": problems}
                )
        dialogs_ok += all_ok
    return {
        "dialogues": len(rows),
        "turn_accuracy": round(turns_ok / max(turns, 1), 4),
        "dialogue_accuracy": round(dialogs_ok / max(len(rows), 1), 4),
        "misses": misses,
    }


def _percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "n": len(values),
        "p50_ms": round(statistics.median(ordered), 2),
        "p95_ms": round(p95, 2),
    }


def evaluate(pipeline: Pipeline, eval_dir: Path, *, limit: int = 0) -> dict[str, Any]:
    rec = Recorder(pipeline)
    report: dict[str, Any] = {"generator_config": pipeline.ready()}
    report["in_scope"] = eval_in_scope(rec, _rows(eval_dir / "retrieval.jsonl", limit))
    report["out_of_scope"] = eval_out_of_scope(rec, _rows(eval_dir / "out_of_scope.jsonl", limit))
    report["numeric"] = eval_numeric(rec, _rows(eval_dir / "numeric.jsonl", limit))
    report["dialogues"] = eval_dialogues(rec, _rows(eval_dir / "dialogues.jsonl", limit))
    report["grounding"] = {
        "answers": rec.answers,
        "violations_caught": rec.caught,
        "violations_delivered": len(rec.leaked),
        "delivered_examples": rec.leaked[:10],
    }
    report["generators"] = dict(rec.generators)
    report["latency"] = {route: _percentiles(v) for route, v in sorted(rec.latency.items())}
    return report


def _lines(report: dict[str, Any]) -> Iterator[tuple[str, str]]:
    ins, oos, num, dia, gr = (
        report[k] for k in ("in_scope", "out_of_scope", "numeric", "dialogues", "grounding")
    )
    yield "citation hit@3 (in scope)", f"{ins['citation_hit@3']:.3f}  (n={ins['n']})"
    yield "citation precision", f"{ins['citation_precision']:.3f}"
    yield (
        "comparisons: all gold cited",
        f"{ins['comparison_all_gold_cited']:.3f}  (n={ins['comparison_n']})",
    )
    yield "false refusals (in scope)", f"{ins['false_refusal_rate']:.3f}"
    yield (
        "refusal rate (out of scope)",
        f"{oos['refusal_rate']:.3f}  {oos['by_expect']}  (n={oos['n']})",
    )
    yield (
        "numeric: routed / = expected",
        f"{num['routed_to_calculator']:.3f} / {num['numeric_equal_to_tools']:.3f}  (n={num['n']})",
    )
    yield (
        "multi-turn: turns / dialogues",
        f"{dia['turn_accuracy']:.3f} / {dia['dialogue_accuracy']:.3f}  (n={dia['dialogues']})",
    )
    yield (
        "grounding: caught / delivered",
        f"{gr['violations_caught']} / {gr['violations_delivered']}  ({gr['answers']} answers)",
    )
    yield "generators", json.dumps(report["generators"])
    for route, lat in report["latency"].items():
        yield f"latency {route}", f"p50 {lat['p50_ms']} ms · p95 {lat['p95_ms']} ms  (n={lat['n']})"


def render_report(report: dict[str, Any], console: Console) -> None:
    table = Table(title="Оценка ответов", show_header=False)
    for name, value in _lines(report):
        table.add_row(name, value)
    console.print(table)
    for section in ("in_scope", "out_of_scope", "numeric", "dialogues"):
        for miss in report[section]["misses"][:15]:
            console.print(
                f"[dim]{section} промах: {json.dumps(miss, ensure_ascii=False)}[/dim]", markup=False
            )
