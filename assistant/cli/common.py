"""Shared CLI plumbing: settings, console, and turning AssistantError into a clean exit."""

from __future__ import annotations

import errno
import json
import logging
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from assistant.errors import AssistantError, CorpusError, error_status
from assistant.settings import Settings, load_settings

console = Console()
err_console = Console(stderr=True, soft_wrap=True)  # an error stays one line, whatever the width
T = TypeVar("T")


def settings() -> Settings:
    with user_errors():
        return load_settings()


_OS_REASONS = {
    errno.EACCES: "нет прав",
    errno.EPERM: "нет прав",
    errno.ENOENT: "нет такого файла или каталога",
    errno.ENOTDIR: "в пути есть файл там, где нужен каталог",
    errno.EEXIST: "в пути есть файл там, где нужен каталог",
    errno.EROFS: "файловая система только для чтения",
    errno.ENOSPC: "на диске нет места",
    errno.EMFILE: "слишком много открытых файлов (LimitNOFILE, ulimit -n)",
}


@contextmanager
def user_errors() -> Iterator[None]:
    """Print AssistantError as a clear message (no traceback) and exit with code 2; so is a file
    the environment does not let us use (an unwritable index or cache folder, a full disk)."""
    try:
        yield
    except CorpusError as e:
        err_console.print(f"[red]Ошибка в данных глоссария:[/red]\n{e}")
        raise typer.Exit(2) from e
    except AssistantError as e:
        print_error(e)
        raise typer.Exit(2) from e
    except OSError as e:
        logging.getLogger("assistant.cli").debug("OS error", exc_info=e)
        where = f" «{e.filename}»" if e.filename else ""
        why = _OS_REASONS.get(e.errno or 0, e.strerror or type(e).__name__)
        err_console.print(f"[red]Ошибка:[/red] файл{escape(where)} недоступен: {why}.")
        raise typer.Exit(2) from e


def print_error(e: AssistantError) -> None:
    """The Russian message, then the detail only when it says something more (which setting is
    wrong) — a message equal to the user text is not printed twice."""
    err_console.print(f"[red]Ошибка:[/red] {escape(e.user_message)}", highlight=False)
    detail = str(e).strip()
    if detail and detail != e.user_message.strip():
        err_console.print(f"[dim]{escape(detail)}[/dim]", highlight=False)


def error_code(e: AssistantError) -> str:
    """The same machine codes as the HTTP API's `{"error": {"code", …}}` (any rejected input
    is `invalid_input`)."""
    return error_status(e)[1]


def error_json(e: Exception) -> dict[str, dict[str, str]]:
    """One batch line's error: `{"error": {"code", "message"}}` with the Russian message; an
    unexpected exception is an internal error with the generic text (details go to the log)."""
    if not isinstance(e, AssistantError):
        return {"error": {"code": "internal_error", "message": AssistantError.user_message}}
    return {"error": {"code": error_code(e), "message": e.user_message}}


def batch_line(work: Callable[[], str]) -> str:
    """One JSON line of a `--json -` batch: the work's output, or its error as JSON — the
    batch always carries on to the next line."""
    try:
        return work()
    except Exception as e:  # the point: one bad line never ends the batch
        if not isinstance(e, AssistantError):
            logging.getLogger("assistant.cli").exception("batch line failed")
        return json.dumps(error_json(e), ensure_ascii=False)


def read_stdin_lines() -> Iterator[str]:
    """Non-empty stripped lines from standard input, one question each."""
    for line in sys.stdin:
        line = line.strip()
        if line:
            yield line


def run_guarded(fn: Callable[[], T]) -> T:
    with user_errors():
        return fn()
