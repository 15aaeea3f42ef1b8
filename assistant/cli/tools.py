"""`assistant vram|fit|cost|calc` and `assistant eval tools` → the deterministic calculators."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Annotated

import typer

from assistant.answer.calculations.text import result_text
from assistant.calculators.base import Inputs, ToolResult
from assistant.cli import app, eval_app
from assistant.cli.common import batch_line, console, read_stdin_lines, settings, user_errors
from assistant.corpus.catalog import load_catalog
from assistant.evaluation.scoring import fmt
from assistant.evaluation.sets import SplitChoice
from assistant.evaluation.tools import evaluate
from assistant.numeric import Calculations


def _size_args(size: str | None) -> Inputs:
    """«70B», «7,5b», «70» → a size in billions; anything else names a catalogue model."""
    if not size:
        return {}
    number = size.strip().lower().removesuffix("b").removesuffix("в").strip().replace(",", ".")
    if number.replace(".", "", 1).isdigit():
        return {"params_b": float(number)}
    return {"model": size}


def _print_result(result: ToolResult, as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(result.model_dump(), ensure_ascii=False))
    else:
        console.print(result_text(result), highlight=False)


def _toolbox() -> Calculations:
    """The calculators on the configured corpus (a corpus error exits 2 with its problems)."""
    config = settings()
    with user_errors():
        return Calculations(load_catalog(config.corpus_dir))


def _run(tool: str, args: Inputs, as_json: bool) -> None:
    toolbox = _toolbox()
    with user_errors():
        clean = {k: v for k, v in args.items() if v is not None}
        _print_result(toolbox.run(tool, clean), as_json)


@app.command("vram")
def vram(
    size: str = typer.Argument(None, help="Размер (70, 70B) или модель («llama 3 70b»)"),
    precision: str = typer.Option(None, "--precision", "-p", help="bf16, fp8, fp4, int4…"),
    context: int = typer.Option(None, "--context", "-c", help="Контекст, токенов"),
    batch: int = typer.Option(None, "--batch", "-b", help="Одновременных запросов"),
    kv_precision: str = typer.Option(None, "--kv-precision", help="Точность KV-кэша"),
    quant_scales: bool = typer.Option(False, "--quant-scales", help="Учесть масштабы квантования"),
    train: str = typer.Option(None, "--train", help="Обучение: full, lora или qlora"),
    gpus: int = typer.Option(None, "--gpus", help="Число GPU (для обучения)"),
    sharding: str = typer.Option(None, "--sharding", help="zero1, zero2, zero3, fsdp"),
    gib: bool = typer.Option(False, "--gib", help="В ГиБ вместо ГБ"),
    as_json: bool = typer.Option(False, "--json", help="JSON для программ"),
) -> None:
    """Сколько видеопамяти нужно модели: инференс или (с --train) обучение."""
    args = _size_args(size)
    if train:
        args.update(method=train, gpus=gpus, sharding=sharding, gib=gib or None)
        _run("vram_training", args, as_json)
        return
    args.update(
        precision=precision,
        context_tokens=context,
        batch=batch,
        kv_precision=kv_precision,
        quant_scales=quant_scales or None,
        gib=gib or None,
    )
    _run("vram_inference", args, as_json)


@app.command("fit")
def fit(
    size: str = typer.Argument(None, help="Размер (70B) или модель"),
    precision: str = typer.Option(None, "--precision", "-p"),
    gpu: str = typer.Option(None, "--gpu", "-g", help="GPU из каталога: h100, h200, b200…"),
    gpus: int = typer.Option(None, "--gpus", "-n", help="Сколько таких GPU (1 или 8)"),
    context: int = typer.Option(None, "--context", "-c"),
    batch: int = typer.Option(None, "--batch", "-b"),
    required_gb: float = typer.Option(None, "--need-gb", help="Готовая потребность, ГБ"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Поместится ли модель на GPU, сколько GPU нужно и какие GPU подходят."""
    args = _size_args(size)
    args.update(
        precision=precision,
        gpu=gpu,
        gpus=gpus,
        context_tokens=context,
        batch=batch,
        required_gb=required_gb,
    )
    _run("gpu_fit", args, as_json)


@app.command("cost")
def cost(
    price_month: float = typer.Option(None, "--price-month", "-m", help="Цена в месяц, $"),
    price_hour: float = typer.Option(None, "--price-hour", "-h", help="Цена в час, $"),
    gpu: str = typer.Option(None, "--gpu", "-g", help="GPU (для примера цены)"),
    gpus: int = typer.Option(None, "--gpus", "-n", help="Число GPU"),
    total: bool = typer.Option(False, "--total", help="Цена указана за все GPU вместе"),
    hours: float = typer.Option(None, "--hours"),
    days: float = typer.Option(None, "--days"),
    weeks: float = typer.Option(None, "--weeks"),
    months: float = typer.Option(None, "--months"),
    egress: bool = typer.Option(False, "--egress", help="Показать включённый трафик"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Цена в месяц ↔ в час (730 ч в месяце), GPU-часы и стоимость задачи."""
    args: Inputs = dict(
        price_month=price_month, price_hour=price_hour, gpu=gpu, gpus=gpus, egress=egress or None
    )
    if total:
        args["price_scope"] = "total"
    for unit, value in (("hours", hours), ("days", days), ("weeks", weeks), ("months", months)):
        if value is not None:
            args.update(duration=value, duration_unit=unit)
    _run("gpu_cost", args, as_json)


@app.command("calc")
def calc(
    question: str = typer.Argument(..., help="Вопрос по-русски или «-» — вопросы из stdin"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Свободный вопрос: «сколько памяти нужно 70B в FP8» → расчёт."""
    toolbox = _toolbox()
    if question == "-" and as_json:  # batch: one JSON object per line, errors included
        for line in read_stdin_lines():
            typer.echo(batch_line(partial(_solved_json, toolbox, line)))
        return
    with user_errors():
        lines = read_stdin_lines() if question == "-" else iter([question])
        for line in lines:
            out = toolbox.solve(line)
            if as_json:
                typer.echo(json.dumps(out.model_dump(), ensure_ascii=False))
            elif not out.is_numeric:
                console.print("Это не вопрос для калькулятора — спросите глоссарий.")
            else:
                console.print(out.answer_ru, highlight=False)


def _solved_json(toolbox: Calculations, question: str) -> str:
    return json.dumps(toolbox.solve(question).model_dump(), ensure_ascii=False)


@eval_app.command("tools")
def eval_tools(
    path: str = typer.Option("eval/data/numeric.jsonl", "--file", help="Набор вопросов"),
    split: Annotated[
        SplitChoice,
        typer.Option(help="both — dev и test рядом; dev или test — один; all — всё вместе"),
    ] = SplitChoice.both,
    as_json: bool = typer.Option(False, "--json"),
    show: bool = typer.Option(False, "--show-failures", help="Показать ошибки (только dev)"),
) -> None:
    """Точность извлечения параметров и правильность расчётов (eval/data/numeric.jsonl
    или eval/data/numeric_phrased.jsonl), dev и test рядом."""
    toolbox = _toolbox()
    with user_errors():
        report = evaluate(Path(path), toolbox, split)
    if as_json:
        typer.echo(json.dumps(report.as_json(), ensure_ascii=False))
        return
    for col in report.cols:
        r = report.column(col).figures()
        console.print(
            f"{col}: вопросов {r.cases}; извлечение параметров, точное совпадение "
            f"{fmt(r.extraction_exact)}; правильные результаты (при верном извлечении) "
            f"{fmt(r.results_correct)} из {r.results_checked}",
            highlight=False,
        )
    if show:
        for f in report.failures:
            text = f"{f.id} {f.question}\n  " + "\n  ".join(f.problems)
            console.print(text, markup=False, highlight=False)
