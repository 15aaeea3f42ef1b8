"""Typer command classes → help pages, usage lines and usage errors in Russian only.

Typer prints its own panels in English («Usage», «Options», «Show this message and exit»,
`<bool>` metavars). These subclasses use the public `cls=` extension point: the same help is
rendered here with rich under Russian titles, and click's usage errors (a missing argument, an
unknown option, a value of the wrong type) become one Russian line plus a pointer to `--help`.

    app = typer.Typer(cls=RussianGroup)         # the root group and every sub-group
    russify(app)                                # every registered command → RussianCommand
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Sequence
from typing import Any

import typer
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from typer.core import TyperCommand, TyperGroup

HELP_TEXT = "Показать эту справку и выйти."
TYPE_WORDS = {"int": "ЧИСЛО", "float": "ЧИСЛО", "str": "ТЕКСТ", "Path": "ПУТЬ"}
EXPECTED = {"int": "ожидается целое число", "float": "ожидается число"}
# argument names of the commands → what a person should type there
ARGUMENT_WORDS = {"question": "ВОПРОС", "size": "МОДЕЛЬ", "query": "ЗАПРОС"}


class _Russian:
    """Help option text and the help page itself (mixed into a Typer command or group)."""

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            option.help = HELP_TEXT
        return option

    def format_help(self, ctx: Any, formatter: Any) -> None:
        print_help(self, ctx)


class RussianCommand(_Russian, TyperCommand):
    pass


class RussianGroup(_Russian, TyperGroup):
    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Standalone runs report usage errors in Russian (typer would print an English panel)."""
        call = super().main
        if not standalone_mode:
            return call(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            code = call(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except typer.TyperException as e:
            usage_error(e)
            sys.exit(e.exit_code)
        except typer.Abort:
            Console(stderr=True).print("[red]Прервано.[/red]")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def russify(app: typer.Typer) -> None:
    """Give every command and sub-group registered on `app` (recursively) the Russian classes."""
    if _plain(app.info.cls, TyperGroup):
        app.info.cls = RussianGroup
    for command in app.registered_commands:
        if _plain(command.cls, TyperCommand):
            command.cls = RussianCommand
    for group in app.registered_groups:
        if _plain(group.cls, TyperGroup):
            group.cls = RussianGroup
        if isinstance(group.typer_instance, typer.Typer):
            russify(group.typer_instance)


def _plain(cls: object, default: type) -> bool:
    """Unset (None or typer's default placeholder) or typer's own class: ours may replace it."""
    return not isinstance(cls, type) or cls is default


# -- help page ---------------------------------------------------------------------------------


def print_help(command: Any, ctx: Any) -> None:
    console = Console(file=sys.stdout, highlight=False)
    console.print(f"\n [bold]Использование:[/bold] {usage(command, ctx)}\n", markup=True)
    if command.help:
        console.print(" " + inspect.cleandoc(command.help).replace("\n", "\n "), markup=False)
        console.print()
    params = [p for p in command.get_params(ctx) if not getattr(p, "hidden", False)]
    arguments = [p for p in params if _is_argument(p)]
    options = [p for p in params if not _is_argument(p)]
    if arguments:
        console.print(_panel("Аргументы", [_argument_row(p) for p in arguments]))
    if options:
        console.print(_panel("Параметры", [_option_row(p) for p in options]))
    commands = _commands(command, ctx)
    if commands:
        console.print(_panel("Команды", commands))


def usage(command: Any, ctx: Any) -> str:
    pieces = [ctx.command_path, "[ПАРАМЕТРЫ]"]
    for p in command.get_params(ctx):
        if _is_argument(p):
            word = argument_word(p)
            pieces.append(word if p.required else f"[{word}]")
    if isinstance(command, TyperGroup):
        pieces.append("КОМАНДА [АРГУМЕНТЫ]…")
    return " ".join(pieces).replace("[", "\\[")


def argument_word(param: Any) -> str:
    if param.metavar:
        return str(param.metavar)
    return ARGUMENT_WORDS.get(param.name, "ЗНАЧЕНИЕ")


def _is_argument(param: Any) -> bool:
    return type(param).__name__.endswith("Argument")


def _type_word(param: Any) -> str:
    if getattr(param, "is_flag", False):
        return ""
    bare = getattr(param, "bare_type", None)
    name = bare() if callable(bare) else getattr(getattr(param, "type", None), "name", "")
    return TYPE_WORDS.get(str(name), "ЗНАЧЕНИЕ")


def _argument_row(param: Any) -> list[str]:
    required = " [обязательно]" if param.required else ""
    return [argument_word(param), _type_word(param), (param.help or "") + required]


def _option_row(param: Any) -> list[str]:
    names = sorted(param.opts, key=lambda o: (not o.startswith("--"), o))
    return [", ".join(names), _type_word(param), param.help or ""]


def _commands(command: Any, ctx: Any) -> list[list[str]]:
    if not isinstance(command, TyperGroup):
        return []
    rows = []
    for name in command.list_commands(ctx):
        sub = command.get_command(ctx, name)
        if sub is not None and not sub.hidden:
            rows.append([name, "", sub.get_short_help_str(limit=300)])
    return rows


def _panel(title: str, rows: list[list[str]]) -> Panel:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column(style="yellow", no_wrap=True)
    table.add_column()
    for row in rows:
        table.add_row(*row)
    return Panel(table, title=title, title_align="left", border_style="dim")


# -- usage errors --------------------------------------------------------------------------------


def usage_error(e: Exception) -> None:
    """One Russian line for a click usage error, then where to find the help."""
    if "NoArgsIsHelpError" in {c.__name__ for c in type(e).__mro__}:
        return  # the help page itself was the answer
    console = Console(stderr=True, highlight=False)
    console.print(f"[red]Ошибка:[/red] {usage_message(e)}", markup=True)
    ctx = getattr(e, "ctx", None)
    if ctx is not None:
        console.print(f"[dim]Справка: {ctx.command_path} --help[/dim]", markup=True)


def usage_message(e: Exception) -> str:
    kinds = {c.__name__ for c in type(e).__mro__}
    param = getattr(e, "param", None)
    if "MissingParameter" in kinds:
        return f"не указан {_param_name(param)}." if param else "не хватает аргумента."
    if "BadParameter" in kinds:
        expected = EXPECTED.get(_bare(param), "проверьте значение")
        return f"неверное значение {_param_name(param, genitive=True)}: {expected}."
    if "NoSuchOption" in kinds:
        return f"нет такого параметра: {getattr(e, 'option_name', '')}."
    if "BadOptionUsage" in kinds:
        return f"параметру {getattr(e, 'option_name', '')} нужно значение."
    message = str(getattr(e, "message", ""))
    if m := re.search(r"No such command '(.+?)'", message):
        return f"нет такой команды: «{m.group(1)}»."
    if m := re.search(r"unexpected extra argument(?:\(s\)|s)? \((.+)\)", message):
        return f"лишний аргумент: {m.group(1)}."
    return "неверный вызов команды."


def _param_name(param: Any, *, genitive: bool = False) -> str:
    ending = "а" if genitive else ""
    if param is None or _is_argument(param):
        word = f" {argument_word(param)}" if param is not None else ""
        return f"аргумент{ending}{word}"
    return f"параметр{ending} {max(param.opts, key=len)}"


def _bare(param: Any) -> str:
    bare = getattr(param, "bare_type", None)
    return str(bare()) if callable(bare) else ""
