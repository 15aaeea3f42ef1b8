"""eval/data/*.jsonl + a pipeline → answer-quality report, dev and test side by side, with targets.

Sections (assistant/evaluation/sections.py): citations for term questions and for
problem-phrased questions, refusals, calculations, dialogues and robustness; then grounding
violations, generators and latency per route over every answer given. The issue's test
targets are shown next to their figures (assistant/evaluation/scoring.py).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from assistant.evaluation import sections
from assistant.evaluation.recorder import Answering, Recorder
from assistant.evaluation.rows import (
    DialogueRow,
    NuggetRow,
    NumericRow,
    OutOfScopeRow,
    ProblemRow,
    RetrievalRow,
    RobustnessRow,
)
from assistant.evaluation.scoring import (
    Item,
    JsonObject,
    Metrics,
    Section,
    TargetResult,
    fmt,
    section,
    target_for,
    target_text,
    targets,
)
from assistant.evaluation.sets import R, SplitChoice, columns, load

__all__ = ["AnswerReport", "Recorder", "evaluate", "render_report"]

NUMERIC_SETS = ("numeric", "numeric_phrased")


@dataclass(frozen=True)
class Latency:
    """Answer latency of one route: median and p95 (nearest rank)."""

    n: int
    p50_ms: float
    p95_ms: float

    @classmethod
    def of(cls, values: list[float]) -> Latency:
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        return cls(len(values), round(statistics.median(ordered), 2), round(p95, 2))

    def as_json(self) -> JsonObject:
        return {"n": self.n, "p50_ms": self.p50_ms, "p95_ms": self.p95_ms}


@dataclass(frozen=True)
class Grounding:
    """The independent audit over every answer given (recorder.py)."""

    answers: int
    violations_caught: int
    violations_delivered: int
    delivered_examples: tuple[str, ...]

    def as_json(self) -> JsonObject:
        return {
            "answers": self.answers,
            "violations_caught": self.violations_caught,
            "violations_delivered": self.violations_delivered,
            "delivered_examples": list(self.delivered_examples),
        }


@dataclass(frozen=True)
class AnswerReport:
    """Every section for the chosen split columns, the targets, and what every answer shared."""

    generator_config: JsonObject  # the pipeline's readiness, as `/ready` reports it
    columns: tuple[str, ...]
    sections: Mapping[str, Section]
    targets: tuple[TargetResult, ...]
    grounding: Grounding
    exceptions: Mapping[str, int]  # exception type → questions that raised it
    generators: Mapping[str, int]  # generator → answers it gave
    latency: Mapping[str, Latency]  # per route

    def as_json(self) -> JsonObject:
        return {
            "generator_config": self.generator_config,
            "columns": list(self.columns),
            "sections": {name: s.as_json() for name, s in self.sections.items()},
            "targets": [t.as_json() for t in self.targets],
            "grounding": self.grounding.as_json(),
            "exceptions": dict(self.exceptions),
            "generators": dict(self.generators),
            "latency": {route: lat.as_json() for route, lat in self.latency.items()},
        }


def _sections(rec: Recorder, eval_dir: Path, choice: SplitChoice, limit: int) -> dict[str, Section]:
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
        **_nugget_sections(sections.nuggets(rec, rows("nuggets", NuggetRow)), cols),
    }


NUGGET_CHECKS = ("complete", "recall", "lead")


def _nugget_sections(items: list[Item], cols: tuple[str, ...]) -> dict[str, Section]:
    """One section per check, each broken down by kind of question: the per-kind table."""
    inside = [i for i in items if i.checks.get("declined") is None]
    out = {"nuggets": section(items, cols, category_check="complete")}
    for check in NUGGET_CHECKS:
        per_kind = section(inside, cols, category_check=check)
        out[f"nuggets_{check}"] = Section(per_kind.columns, (), check, per_kind.categories)
    return out


def evaluate(
    pipeline: Answering,
    eval_dir: Path,
    *,
    limit: int = 0,
    choice: SplitChoice = SplitChoice.both,
) -> AnswerReport:
    """Every section for the chosen split columns; misses listed for dev rows only."""
    rec = Recorder(pipeline)
    config = pipeline.ready()
    secs = _sections(rec, eval_dir, choice, limit)
    test = {name: s.columns["test"].means for name, s in secs.items() if "test" in s.columns}
    grounding = Grounding(rec.answers, rec.caught, len(rec.leaked), tuple(rec.leaked[:10]))
    return AnswerReport(
        generator_config=config,
        columns=columns(choice),
        sections=secs,
        targets=targets(test),
        grounding=grounding,
        exceptions=dict(rec.failures),
        generators=dict(rec.generators),
        latency={route: Latency.of(v) for route, v in sorted(rec.latency.items())},
    )


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
    ("nuggets_complete", "complete", "Ответы: сказано всё нужное"),
    ("nuggets_recall", "recall", "Ответы: доля нужных фактов (nugget recall)"),
    ("nuggets_lead", "lead", "Ответы: главное в первом предложении"),
    ("nuggets_complete", "false_refusal", "Ответы: ложные отказы"),
    ("nuggets", "declined", "Вне глоссария, рядом с темой: отказ"),
)


def _cell(data: Metrics, metric: str, first: bool) -> str:
    value = data.value(metric)
    n = data.count(metric) if value is not None else None
    return f"{fmt(value)} ({n})" if first or metric in data.counts else fmt(value)


def _rows(report: AnswerReport) -> Iterator[list[str]]:
    seen: set[str] = set()
    for name, metric, label in LINES:
        data = report.sections[name]
        first = name not in seen
        seen.add(name)
        cells = [_cell(data.columns[c], metric, first) for c in report.columns]
        test = data.columns["test"].value(metric) if "test" in data.columns else None
        yield [label, *cells, target_text(target_for(name, metric), test)]


def _footer(report: AnswerReport) -> Iterator[str]:
    gr = report.grounding
    yield (
        f"Нарушения опоры на источники: поймано {gr.violations_caught}, "
        f"дошло до пользователя {gr.violations_delivered} (ответов: {gr.answers})"
    )
    if report.exceptions:
        yield f"Исключения вместо ответа: {json.dumps(report.exceptions, ensure_ascii=False)}"
    yield f"Генераторы: {json.dumps(report.generators, ensure_ascii=False)}"
    for route, lat in report.latency.items():
        p50, p95 = fmt(lat.p50_ms, 1), fmt(lat.p95_ms, 1)
        yield f"Задержка {route}: p50 {p50} мс · p95 {p95} мс (n={lat.n})"


def render_report(report: AnswerReport, console: Console) -> None:
    table = Table(title="Оценка ответов (в скобках — число вопросов)")
    table.add_column("Показатель")
    for col in report.columns:
        table.add_column(col, justify="right")
    table.add_column("Цель на test")
    for row in _rows(report):
        table.add_row(*row)
    console.print(table)
    for line in _footer(report):
        console.print(line, markup=False, highlight=False)
    _render_categories(report, console)
    _render_kinds(report, console)
    _render_misses(report, console)


def _render_categories(report: AnswerReport, console: Console) -> None:
    for name, metric in (
        ("problems", "citation_hit@3"),
        ("numeric", "exact"),
        ("robustness", "answered"),
    ):
        cats = report.sections[name].categories
        parts = []
        for col in report.columns:
            per = cats.get(col, {})
            text = ", ".join(f"{c} {fmt(f.value)} ({f.n})" for c, f in per.items())
            parts.append(f"{col}: {text}")
        console.print(f"По категориям, {name} {metric} — " + "; ".join(parts), markup=False)


def _render_kinds(report: AnswerReport, console: Console) -> None:
    """Complete answers, nugget recall and the lead per kind of question, per column."""
    if "nuggets_complete" not in report.sections:
        return
    table = Table(title="Что сказано в ответах, по видам вопросов: полнота / факты / начало")
    table.add_column("Вид вопроса")
    for col in report.columns:
        table.add_column(col, justify="right")
    per = {c: report.sections[f"nuggets_{c}"].categories for c in NUGGET_CHECKS}
    kinds = sorted({k for cats in per["complete"].values() for k in cats})
    for kind in kinds:
        cells = []
        for col in report.columns:
            figs = [per[c].get(col, {}).get(kind) for c in NUGGET_CHECKS]
            n = figs[0].n if figs[0] else 0
            cells.append(" / ".join(fmt(f.value if f else None) for f in figs) + f" ({n})")
        table.add_row(kind, *cells)
    console.print(table)


def _render_misses(report: AnswerReport, console: Console) -> None:
    if "dev" not in report.columns and "all" not in report.columns:
        console.print("Промахи показываются только для dev: на test не настраивают.", style="dim")
        return
    for name, data in report.sections.items():
        for miss in data.misses[:15]:
            line = json.dumps(miss.as_json(), ensure_ascii=False)
            console.print(f"промах dev, {name}: {line}", style="dim", markup=False, highlight=False)
