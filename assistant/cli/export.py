"""`assistant export [--from] [--to] [--format csv|jsonl] [--output file]` → the console's export.

The same rows as the console's «Выгрузка» (assistant/console/export.py), written as they are
read, in batches: a year of conversations never sits in memory. Without --output, to stdout.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from assistant.cli import app
from assistant.cli.common import err_console, settings, user_errors


@app.command("export")
def export(
    first: Annotated[
        str, typer.Option("--from", help="Первый день, ГГГГ-ММ-ДД (по умолчанию 30 дней назад)")
    ] = "",
    last: Annotated[
        str, typer.Option("--to", help="Последний день, ГГГГ-ММ-ДД (по умолчанию сегодня)")
    ] = "",
    fmt: Annotated[
        str, typer.Option("--format", help="csv (для таблиц) или jsonl (для программ)")
    ] = "csv",
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Файл (по умолчанию — в стандартный вывод)"),
    ] = None,
) -> None:
    """Выгрузить вопросы и ответы за период: CSV или JSONL, по строке на вопрос."""
    from assistant.console.export import FORMATS, export_chunks
    from assistant.console.period import Period, PeriodError
    from assistant.corpus.glossary import load_glossary
    from assistant.storage import open_repository

    config = settings()
    if fmt not in FORMATS:
        err_console.print("[red]Ошибка:[/red] формат выгрузки — csv или jsonl.")
        raise typer.Exit(2)
    try:
        default = Period.last_days(30, config.console_timezone)
        period = Period.parse(
            first or default.first.isoformat(),
            last or default.last.isoformat(),
            config.console_timezone,
        )
    except PeriodError as e:
        err_console.print(f"[red]Ошибка:[/red] {e}")
        raise typer.Exit(2) from None
    with user_errors():
        titles = {e.slug: e.title for e in load_glossary(config.corpus_dir).entries}
        repo = open_repository(config)
        try:
            out = output.open("w", encoding="utf-8", newline="") if output else sys.stdout
            try:
                for chunk in export_chunks(
                    repo, period, "csv" if fmt == "csv" else "jsonl", titles
                ):
                    out.write(chunk)
            finally:
                if output:
                    out.close()
        finally:
            repo.close()
    if output:
        err_console.print(f"Выгрузка за {period.first:%d.%m.%Y}–{period.last:%d.%m.%Y}: {output}")
