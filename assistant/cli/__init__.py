"""Command line (`assistant …`) → the pipeline stages; heavy imports happen inside commands."""

from __future__ import annotations

import importlib

import typer

from assistant.cli.help import RussianGroup, russify

app = typer.Typer(
    name="assistant",
    help="Ассистент по глоссарию GPU и инфраструктуры для ИИ.",
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=RussianGroup,  # help pages and usage errors in Russian only (cli/help.py)
)
eval_app = typer.Typer(
    help="Оценка качества: поиск, калькуляторы, ответы.", no_args_is_help=True, cls=RussianGroup
)
app.add_typer(eval_app, name="eval")

# Each module registers its commands on `app` / `eval_app` when imported. A module that does
# not exist yet (a channel still being built) is simply skipped.
_COMMAND_MODULES = ("search", "tools", "chat", "serve", "telegram", "report", "export")


def _register_all() -> None:
    for name in _COMMAND_MODULES:
        try:
            importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
    russify(app)


def main() -> None:
    _register_all()
    app()
