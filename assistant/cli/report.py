"""`assistant report [--days] [--json]` → refused / low-confidence questions grouped for editors."""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from typing import TYPE_CHECKING, Annotated

import typer

from assistant.cli import app
from assistant.cli.common import console, settings, user_errors

if TYPE_CHECKING:
    from assistant.storage.report import ReportGroup


@app.command("report")
def report(
    days: Annotated[float, typer.Option(help="За сколько последних дней (0 — за всё время)")] = 30,
    limit: Annotated[int, typer.Option(help="Сколько групп показать")] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="JSON вместо таблицы")] = False,
) -> None:
    """Что добавить в глоссарий: вопросы с отказом, низкой уверенностью или 👎 — с частотой."""
    from assistant.storage import open_repository
    from assistant.storage.report import group_report

    with user_errors():
        repo = open_repository(settings())
        try:
            since = time.time() - days * 86400 if days > 0 else None
            groups = group_report(repo.report_items(since))[:limit]
        finally:
            repo.close()
    if as_json:
        typer.echo(json.dumps([asdict(g) for g in groups], ensure_ascii=False, indent=2))
        return
    if not groups:
        console.print("Проблемных вопросов нет — глоссарий покрывает всё, что спрашивали.")
        return
    _print_table(groups)


def _print_table(groups: list[ReportGroup]) -> None:
    from rich.table import Table

    table = Table(title="Вопросы, которые глоссарий не покрывает", show_lines=True)
    for column in ("#", "Вопрос", "Раз", "Отказ", "Низкая", "👍/👎", "Маршрут", "Комментарии"):
        table.add_column(column, overflow="fold")
    for i, g in enumerate(groups, 1):
        wordings = "\n".join(f"· {w}" for w in g.wordings[:3] if w != g.question)
        routes = ", ".join(f"{r}×{n}" for r, n in sorted(g.routes.items(), key=lambda x: -x[1]))
        table.add_row(
            str(i),
            g.question + (f"\n[dim]{wordings}[/dim]" if wordings else ""),
            str(g.count),
            str(g.refused),
            str(g.low_confidence),
            f"{g.thumbs_up}/{g.thumbs_down}",
            routes,
            "\n".join(g.comments[:3]),
        )
    console.print(table)
