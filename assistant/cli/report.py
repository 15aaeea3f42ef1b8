"""`assistant report [--days] [--json]` → refused / low-confidence questions grouped for editors."""

from __future__ import annotations

import time
from dataclasses import asdict
from typing import TYPE_CHECKING, Annotated

import typer

from assistant.cli import app
from assistant.cli.common import console, settings, user_errors
from assistant.cli.terminal import terminal_json, terminal_safe
from assistant.console.labels import ROUTES

if TYPE_CHECKING:
    from assistant.console.gaps import Gap
    from assistant.settings import Settings
    from assistant.storage.console import ConsoleRepository
    from assistant.storage.report import ReportGroup


@app.command("report")
def report(
    days: Annotated[float, typer.Option(help="За сколько последних дней (0 — за всё время)")] = 30,
    limit: Annotated[int, typer.Option(help="Сколько групп показать")] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="JSON вместо таблицы")] = False,
    gaps: Annotated[
        bool, typer.Option(help="Группы по смыслу, как в консоли (загружает модель поиска)")
    ] = True,
) -> None:
    """Что добавить в глоссарий: вопросы с отказом, низкой уверенностью или 👎 — с частотой."""
    from assistant.cli.gaps import print_gaps
    from assistant.storage import open_repository
    from assistant.storage.report import group_report

    config = settings()
    with user_errors():
        repo = open_repository(config)
        try:
            since = time.time() - days * 86400 if days > 0 else None
            groups = group_report(repo.report_items(since))[:limit]
            found = _gaps(repo, config, days)[:limit] if gaps else []
        finally:
            repo.close()
    if as_json:
        body = {"gaps": [g.model_dump() for g in found], "questions": [asdict(g) for g in groups]}
        typer.echo(terminal_json(body, indent=2))
        return
    if gaps:
        print_gaps(found, _days_label(days))
    if not groups:
        console.print("Проблемных вопросов нет — глоссарий покрывает всё, что спрашивали.")
        return
    _print_table(groups)


def _gaps(repo: ConsoleRepository, config: Settings, days: float) -> list[Gap]:
    """The console's content-gap groups for the same days (at most two years of them)."""
    import math

    from assistant.cli.common import err_console
    from assistant.console.gaps import content_gaps
    from assistant.console.lens import lens_of
    from assistant.console.period import MAX_DAYS, Period
    from assistant.pipeline import build_pipeline

    err_console.print("[dim]Загружаю модель поиска для групп по смыслу…[/dim]")
    lens = lens_of(build_pipeline(config), config.public_base_url)
    if lens is None:
        return []
    span = min(MAX_DAYS, math.ceil(days)) if days > 0 else MAX_DAYS
    return content_gaps(repo, lens, Period.last_days(span, config.console_timezone))


def _days_label(days: float) -> str:
    return f"за {days:g} дн." if days > 0 else "за всё время"


_COMMENT_CHARS = 300  # the full text stays in --json


def _comments(comments: list[str], shown: int = 3) -> str:
    """Each comment on its own «—» line, long ones shortened; how many more there are."""
    lines = [
        "— " + (c if len(c) <= _COMMENT_CHARS else c[: _COMMENT_CHARS - 1].rstrip() + "…")
        for c in comments[:shown]
    ]
    if len(comments) > shown:
        lines.append(f"[dim]… и ещё {len(comments) - shown}[/dim]")
    return "\n".join(lines)


def _shown(text: str) -> str:
    """What users typed, inert in the terminal: no rich markup, no control sequences."""
    from rich.markup import escape

    return escape(terminal_safe(text))


def _print_table(groups: list[ReportGroup]) -> None:
    from rich.table import Table

    table = Table(title="Что добавить в глоссарий: отказы, низкая уверенность, 👎", show_lines=True)
    columns = ("#", "Вопрос", "Раз", "Отказ", "Низкая", "Передано", "👍/👎", "Тип", "Комментарии")
    for column in columns:
        table.add_column(column, overflow="fold")
    for i, g in enumerate(groups, 1):
        wordings = "\n".join(f"· {_shown(w)}" for w in g.wordings[:3] if w != g.question)
        routes = ", ".join(
            f"{ROUTES.get(r, r)} ×{n}" for r, n in sorted(g.routes.items(), key=lambda x: -x[1])
        )
        table.add_row(
            str(i),
            _shown(g.question) + (f"\n[dim]{wordings}[/dim]" if wordings else ""),
            str(g.count),
            str(g.refused),
            str(g.low_confidence),
            str(g.handoff),
            f"{g.thumbs_up}/{g.thumbs_down}",
            routes,
            _comments([_shown(c) for c in g.comments]),
        )
    console.print(table)
