"""A rich progress bar as an indexing ProgressFn (shown only when a rebuild actually happens)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from assistant.cli.common import err_console
from assistant.search.indexing import ProgressFn


@contextmanager
def index_progress(label: str = "Строю поисковый индекс") -> Iterator[ProgressFn]:
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=False,
    )
    task = None

    def update(done: int, total: int) -> None:
        nonlocal task
        if task is None:
            progress.start()
            task = progress.add_task(label, total=total)
        progress.update(task, completed=done)

    try:
        yield update
    finally:
        if task is not None:
            progress.stop()
