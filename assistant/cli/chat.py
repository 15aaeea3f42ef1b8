"""`assistant ask | chat | eval answers` → the answer engine from the shell."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from assistant.cli import app, eval_app
from assistant.cli.common import console, err_console, read_stdin_lines, settings, user_errors
from assistant.evaluation.sets import SplitChoice

if TYPE_CHECKING:
    from assistant.pipeline import Pipeline
    from assistant.schema import Answer, Turn


def _pipeline() -> Pipeline:
    from assistant.cli.progress import index_progress
    from assistant.pipeline import build_pipeline

    with index_progress() as progress:
        return build_pipeline(settings(), progress=progress)


def _json(answer: Answer) -> str:
    return json.dumps(answer.model_dump(mode="json"), ensure_ascii=False)


def show(answer: Answer) -> None:
    """Answer, sources and calculations for a person at a terminal."""
    from rich.table import Table

    console.print(answer.answer, markup=False, highlight=False)
    if answer.citations:
        console.print("[dim]Источники:[/dim]")
        for n, c in enumerate(answer.citations, 1):
            console.print(f"  [{n}] {c.title} — {c.url}", markup=False, style="dim")
    for call in answer.tool_calls:
        table = Table(title=f"Расчёт: {call.name}", show_header=False, box=None)
        for key, value in call.result.get("values", {}).items():
            table.add_row(str(key), str(value))
        console.print(table)
    console.print(f"[dim]маршрут: {answer.route} · генератор: {answer.generator}[/dim]")


@app.command("ask")
def ask(
    question: Annotated[str, typer.Argument(help="Вопрос; «-» — по одному вопросу из stdin")],
    as_json: Annotated[bool, typer.Option("--json", help="Один JSON-объект на вопрос")] = False,
) -> None:
    """Задать один вопрос (или по вопросу на строку из stdin: каждый — отдельно)."""
    from assistant.errors import InputError

    with user_errors():
        pipeline = _pipeline()
        questions = read_stdin_lines() if question == "-" else [question]
        for q in questions:
            try:
                answer = pipeline.answer(q)
            except InputError as e:
                if question != "-":
                    raise
                typer.echo(
                    json.dumps(
                        {"error": {"code": "bad_input", "message": e.user_message}},
                        ensure_ascii=False,
                    )
                )
                continue
            typer.echo(_json(answer)) if as_json else show(answer)


@app.command("chat")
def chat() -> None:
    """Интерактивный чат с историей: уточнения вроде «а в FP8?» понимаются. Ctrl-C — выход."""
    with user_errors():
        pipeline = _pipeline()
    history: list[Turn] = []
    console.print("Чат с ассистентом FullGPU. /new — новый разговор, Ctrl-C или Ctrl-D — выход.")
    while True:
        try:
            message = console.input("[bold cyan]вы>[/bold cyan] ").strip()
        except (EOFError, KeyboardInterrupt):
            console.print("\nДо встречи!")
            return
        if not message:
            continue
        if message == "/new":
            history.clear()
            console.print("[dim]Начали новый разговор.[/dim]")
            continue
        _chat_turn(pipeline, message, history)


def _chat_turn(pipeline: Pipeline, message: str, history: list[Turn]) -> None:
    from assistant.errors import AssistantError

    try:
        answer = pipeline.answer(message, history)
    except KeyboardInterrupt:
        console.print("[dim](прервано)[/dim]")
        return
    except AssistantError as e:
        err_console.print(f"[red]{e.user_message}[/red]")
        return
    show(answer)
    history.extend(pipeline.turns_for(message, answer))


@eval_app.command("answers")
def eval_answers(
    eval_dir: Annotated[Path, typer.Option(help="Папка с наборами")] = Path("eval"),
    as_json: Annotated[bool, typer.Option("--json", help="Метрики одним JSON-объектом")] = False,
    limit: Annotated[
        int, typer.Option(help="Не больше N вопросов каждого сплита из каждого набора (0 — все)")
    ] = 0,
    split: Annotated[
        SplitChoice,
        typer.Option(help="both — dev и test рядом; dev или test — один; all — всё вместе"),
    ] = SplitChoice.both,
) -> None:
    """Цитирование (термины и вопросы-проблемы), отказы, расчёты, диалоги, устойчивость,
    нарушения и задержка; dev и test рядом, цели задачи — у показателей test."""
    from assistant.evaluation.answers import evaluate, render_report

    with user_errors():
        report = evaluate(_pipeline(), eval_dir, limit=limit, choice=split)
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False))
    else:
        render_report(report, console)
