"""Shared CLI plumbing: settings, console, and turning AssistantError into a clean exit."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import typer
from rich.console import Console

from assistant.errors import AssistantError, CorpusError
from assistant.settings import Settings, load_settings

console = Console()
err_console = Console(stderr=True)
T = TypeVar("T")


def settings() -> Settings:
    with user_errors():
        return load_settings()


@contextmanager
def user_errors() -> Iterator[None]:
    """Print AssistantError as a clear message (no traceback) and exit with code 2."""
    try:
        yield
    except CorpusError as e:
        err_console.print(f"[red]Ошибка в данных глоссария:[/red]\n{e}")
        raise typer.Exit(2) from e
    except AssistantError as e:
        err_console.print(f"[red]Ошибка:[/red] {e.user_message}\n[dim]{e}[/dim]")
        raise typer.Exit(2) from e


def read_stdin_lines() -> Iterator[str]:
    """Non-empty stripped lines from standard input, one question each."""
    for line in sys.stdin:
        line = line.strip()
        if line:
            yield line


def run_guarded(fn: Callable[[], T]) -> T:
    with user_errors():
        return fn()
