"""`assistant ask | chat | eval answers` → the answer engine from the shell.

`ask --json -` is a batch: exactly one JSON object per input line — the answer, or
`{"error": {"code", "message"}}` — and it carries on after any error (cli/common.batch_line).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from assistant.cli import app, eval_app
from assistant.cli.common import (
    batch_line,
    console,
    print_error,
    read_stdin_lines,
    settings,
    user_errors,
)
from assistant.cli.render import print_answer
from assistant.cli.terminal import terminal_json
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
    return terminal_json(answer.model_dump(mode="json"))


VERBOSE_HELP = "Показать маршрут и генератор ответа (для разработчиков)"


@app.command("ask")
def ask(
    question: Annotated[str, typer.Argument(help="Вопрос; «-» — по одному вопросу из stdin")],
    as_json: Annotated[bool, typer.Option("--json", help="Один JSON-объект на вопрос")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help=VERBOSE_HELP)] = False,
) -> None:
    """Задать один вопрос (или по вопросу на строку из stdin: каждый — отдельно)."""
    with user_errors():
        pipeline = _pipeline()
        if question != "-":
            _answer_one(pipeline, question, as_json=as_json, verbose=verbose)
            return
    for line in read_stdin_lines():  # batch: one result per line, an error never stops it
        _answer_line(pipeline, line, as_json=as_json, verbose=verbose)


def _answer(pipeline: Pipeline, message: str, history: list[Turn] | None = None) -> Answer:
    """The engine's answer; an untyped exception becomes AnswerFailedError, so the person at
    the terminal reads one Russian line instead of a traceback (as every other channel)."""
    from assistant.errors import AnswerFailedError, AssistantError

    try:
        return pipeline.answer(message, history or [])
    except AssistantError:
        raise
    except Exception as e:
        raise AnswerFailedError() from e


def _answer_one(pipeline: Pipeline, question: str, *, as_json: bool, verbose: bool) -> None:
    answer = _answer(pipeline, question)
    typer.echo(_json(answer)) if as_json else print_answer(console, answer, verbose=verbose)


def _answer_line(pipeline: Pipeline, line: str, *, as_json: bool, verbose: bool) -> None:
    from assistant.errors import AssistantError

    if as_json:
        typer.echo(batch_line(lambda: _json(pipeline.answer(line))))
        return
    try:
        answer = _answer(pipeline, line)
    except AssistantError as e:
        print_error(e)
        return
    print_answer(console, answer, verbose=verbose)


@app.command("chat")
def chat(
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help=VERBOSE_HELP)] = False,
) -> None:
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
        _chat_turn(pipeline, message, history, verbose)


def _chat_turn(pipeline: Pipeline, message: str, history: list[Turn], verbose: bool) -> None:
    from assistant.errors import AssistantError

    try:
        answer = _answer(pipeline, message, history)
    except KeyboardInterrupt:
        console.print("[dim](прервано)[/dim]")
        return
    except AssistantError as e:
        print_error(e)
        return
    print_answer(console, answer, verbose=verbose)
    history.extend(pipeline.turns_for(message, answer))


@eval_app.command("answers")
def eval_answers(
    eval_dir: Annotated[Path, typer.Option(help="Папка с наборами")] = Path("eval/data"),
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
        typer.echo(json.dumps(report.as_json(), ensure_ascii=False))
    else:
        render_report(report, console)


@eval_app.command("guard")
def eval_guard(
    path: Annotated[Path, typer.Option("--file", help="Набор черновиков")] = Path(
        "eval/data/guard_drafts.jsonl"
    ),
    as_json: Annotated[bool, typer.Option("--json", help="Показатели одним JSON-объектом")] = False,
    split: Annotated[
        SplitChoice,
        typer.Option(help="both — dev и test рядом; dev или test — один; all — всё вместе"),
    ] = SplitChoice.both,
) -> None:
    """Проверки ответа на черновиках LLM, написанных вслепую: сколько плохих пропущено и сколько
    хороших отклонено, по классам; dev и test рядом, ошибки — только для dev."""
    from assistant.answer.generation import EmbeddedGenerator, instruction_shingles
    from assistant.answer.guard import Guard
    from assistant.corpus.catalog import load_catalog
    from assistant.corpus.glossary import load_glossary
    from assistant.evaluation.guard import evaluate, render
    from assistant.evaluation.rows import GuardDraftRow
    from assistant.evaluation.sets import load

    config = settings()
    with user_errors():
        glossary = load_glossary(config.corpus_dir)
        catalog = load_catalog(config.corpus_dir)
        guard = Guard(config, glossary, catalog, EmbeddedGenerator(config.prompts_dir), None)
        rows = load(path, GuardDraftRow, split)
        shingles = instruction_shingles(config.prompts_dir)
        report = evaluate(rows, guard, shingles, glossary, catalog)
    if as_json:
        typer.echo(json.dumps(report.as_json(), ensure_ascii=False))
    else:
        typer.echo(render(report))
