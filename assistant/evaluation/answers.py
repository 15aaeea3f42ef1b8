"""eval/data/*.jsonl + a pipeline → answer-quality report, dev and test side by side, with targets.

Sections (assistant/evaluation/sections.py): citations for term questions and for
problem-phrased questions, refusals, calculations, dialogues and robustness; then grounding
violations, generators and latency per route over every answer given. The issue's test
targets are shown next to their figures (assistant/evaluation/scoring.py).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from assistant.evaluation import sections
from assistant.evaluation.recorder import Answering, Recorder
from assistant.evaluation.rows import (
    DialogueRow,
    NumericRow,
    OutOfScopeRow,
    ProblemRow,
    RetrievalRow,
    RobustnessRow,
)
from assistant.evaluation.scoring import fmt, section, target_for, target_text, targets
from assistant.evaluation.sets import R, SplitChoice, columns, load

__all__ = ["Recorder", "evaluate", "render_report"]

NUMERIC_SETS = ("numeric", "numeric_phrased")


def _percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "n": len(values),
        "p50_ms": round(statistics.median(ordered), 2),
        "p95_ms": round(p95, 2),
    }


def _sections(
    rec: Recorder, eval_dir: Path, choice: SplitChoice, limit: int
) -> dict[str, dict[str, Any]]:
    cols = columns(choice)

    def rows(name: str, model: type[R]) -> list[R]:
        return load(eval_dir / f"{name}.jsonl", model, choice, limit)

    numeric = [
        item
        for name in NUMERIC_SETS
        for item in sections.numeric(rec, rows(name, NumericRow), name)
    ]
    return {
        "in_scope": section(sections.in_scope(rec, rows("retrieval", RetrievalRow)), cols),
        "problems": section(
            sections.problems(rec, rows("problems", ProblemRow)),
            cols,
            category_check="citation_hit@3",
        ),
        "out_of_scope": section(
            sections.out_of_scope(rec, rows("out_of_scope", OutOfScopeRow)), cols
        ),
        "numeric": section(numeric, cols, category_check="exact"),
        "dialogues": section(sections.dialogues(rec, rows("dialogues", DialogueRow)), cols),
        "robustness": section(
            sections.robustness(rec, rows("robustness", RobustnessRow)),
            cols,
            category_check="answered",
        ),
    }


def evaluate(
    pipeline: Answering,
    eval_dir: Path,
    *,
    limit: int = 0,
    choice: SplitChoice = SplitChoice.both,
) -> dict[str, Any]:
    """Every section for the chosen split columns; misses listed for dev rows only."""
    rec = Recorder(pipeline)
    report: dict[str, Any] = {"generator_config": pipeline.ready(), "columns": columns(choice)}
    report["sections"] = _sections(rec, eval_dir, choice, limit)
    report["targets"] = targets(report["sections"])
    report["grounding"] = {
        "answers": rec.answers,
        "violations_caught": rec.caught,
        "violations_delivered": len(rec.leaked),
        "delivered_examples": rec.leaked[:10],
    }
    report["exceptions"] = dict(rec.failures)
    report["generators"] = dict(rec.generators)
    report["latency"] = {route: _percentiles(v) for route, v in sorted(rec.latency.items())}
    return report


# (section, metric, label); the first line of a section also shows how many rows it covers
LINES: tuple[tuple[str, str, str], ...] = (
    ("in_scope", "citation_hit@3", "Термины: hit@3 цитат"),
    ("in_scope", "citation_hit@1", "Термины: ответ начат с нужной статьи"),
    ("in_scope", "citation_precision", "Термины: точность цитат"),
    ("in_scope", "comparison_all", "Сравнения: процитированы обе статьи"),
    ("in_scope", "false_refusal", "Термины: ложные отказы"),
    ("problems", "citation_hit@3", "Вопросы-проблемы: hit@3 цитат"),
    ("problems", "citation_hit@1", "Вопросы-проблемы: ответ начат с нужной статьи"),
    ("problems", "citation_precision", "Вопросы-проблемы: точность цитат"),
    ("problems", "all_of", "Вопросы-проблемы: все нужные статьи вместе"),
    ("problems", "expectations", "Вопросы-проблемы: нужный калькулятор или без него"),
    ("problems", "false_refusal", "Вопросы-проблемы: ложные отказы"),
    ("out_of_scope", "refusal", "Вне темы: отказ"),
    ("out_of_scope", "refusal_refuse", "  — посторонние вопросы"),
    ("out_of_scope", "refusal_not_found", "  — нет в глоссарии"),
    ("out_of_scope", "refusal_injection", "  — инъекции"),
    ("numeric", "exact", "Расчёты: значения точно как ожидалось"),
    ("numeric", "exact_numeric", "  — numeric.jsonl (аккуратные вопросы)"),
    ("numeric", "exact_numeric_phrased", "  — numeric_phrased.jsonl (как пишут люди)"),
    ("numeric", "routed", "Расчёты: дошли до калькулятора"),
    ("numeric", "not_calculated", "Не расчёты: калькулятор не вызван"),
    ("dialogues", "turns", "Диалоги: верные реплики"),
    ("dialogues", "dialogues", "Диалоги: целиком верные"),
    ("dialogues", "calc_followup_turns", "Уточнения к расчётам: верные реплики"),
    ("robustness", "answered", "Устойчивость: ответ без исключения"),
    ("robustness", "crashed", "Устойчивость: падения (не AssistantError)"),
    ("robustness", "expectations", "Устойчивость: ожидания к ответу"),
)


def _cell(data: dict[str, Any], metric: str, first: bool) -> str:
    value = fmt(data.get(metric))
    n = data.get(f"{metric}_n", data.get("n")) if data.get(metric) is not None else None
    return f"{value} ({n})" if first or f"{metric}_n" in data else value


def _rows(report: dict[str, Any]) -> Iterator[list[str]]:
    cols, secs = report["columns"], report["sections"]
    seen: set[str] = set()
    for name, metric, label in LINES:
        data = secs[name]
        first = name not in seen
        seen.add(name)
        cells = [_cell(data[c], metric, first) for c in cols]
        test = data.get("test", {}).get(metric)
        yield [label, *cells, target_text(target_for(name, metric), test)]


def _footer(report: dict[str, Any]) -> Iterator[str]:
    gr = report["grounding"]
    yield (
        f"Нарушения опоры на источники: поймано {gr['violations_caught']}, "
        f"дошло до пользователя {gr['violations_delivered']} (ответов: {gr['answers']})"
    )
    if report["exceptions"]:
        yield f"Исключения вместо ответа: {json.dumps(report['exceptions'], ensure_ascii=False)}"
    yield f"Генераторы: {json.dumps(report['generators'], ensure_ascii=False)}"
    for route, lat in report["latency"].items():
        p50, p95 = fmt(lat["p50_ms"], 1), fmt(lat["p95_ms"], 1)
        yield f"Задержка {route}: p50 {p50} мс · p95 {p95} мс (n={lat['n']})"


def render_report(report: dict[str, Any], console: Console) -> None:
    table = Table(title="Оценка ответов (в скобках — число вопросов)")
    table.add_column("Показатель")
    for col in report["columns"]:
        table.add_column(col, justify="right")
    table.add_column("Цель на test")
    for row in _rows(report):
        table.add_row(*row)
    console.print(table)
    for line in _footer(report):
        console.print(line, markup=False, highlight=False)
    _render_categories(report, console)
    _render_misses(report, console)


def _render_categories(report: dict[str, Any], console: Console) -> None:
    for name, metric in (
        ("problems", "citation_hit@3"),
        ("numeric", "exact"),
        ("robustness", "answered"),
    ):
        cats = report["sections"][name].get("categories", {})
        parts = []
        for col in report["columns"]:
            per = cats.get(col, {})
            text = ", ".join(f"{c} {fmt(v.get(metric))} ({v['n']})" for c, v in per.items())
            parts.append(f"{col}: {text}")
        console.print(f"По категориям, {name} {metric} — " + "; ".join(parts), markup=False)


def _render_misses(report: dict[str, Any], console: Console) -> None:
    if "dev" not in report["columns"] and "all" not in report["columns"]:
        console.print("Промахи показываются только для dev: на test не настраивают.", style="dim")
        return
    for name, data in report["sections"].items():
        for miss in data["misses"][:15]:
            line = json.dumps(miss, ensure_ascii=False)
            console.print(f"промах dev, {name}: {line}", style="dim", markup=False, highlight=False)
