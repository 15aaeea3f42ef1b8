"""Answer → what a person reads in a terminal: the text, sources, each calculation as a table.

    print_answer(console, answer, verbose=False)

Text is printed through cli/terminal.py, so a control sequence inside it is shown, never run.
Citations are absolute links when the service has a public address (ASSISTANT_PUBLIC_BASE_URL),
else «slug — title». A calculation is its `display` block (tools/display.py) as rich tables —
never raw values; assumptions the answer text already states are not repeated. The
«маршрут · генератор» line is for developers (`--verbose`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from assistant.answer.calculations.display import fresh_assumptions
from assistant.cli.terminal import terminal_safe
from assistant.schema import Answer, Citation, Display

_SOURCES_LINE = re.compile(r"^\s*Источник(?:и)?\s*:.*$\n?", re.IGNORECASE | re.MULTILINE)


def print_answer(console: Console, answer: Answer, *, verbose: bool = False) -> None:
    text = _SOURCES_LINE.sub("", answer.answer).strip()  # sources are listed below, as links
    console.print(terminal_safe(text), markup=False, highlight=False)
    if answer.citations:
        console.print(Text("Источники:", style="dim"))
        for n, cite in enumerate(answer.citations, 1):
            console.print(Text(f"  [{n}] {terminal_safe(citation_text(cite))}", style="dim"))
    for call, assumed in zip(
        answer.tool_calls,
        fresh_assumptions(answer.answer, [c.display for c in answer.tool_calls]),
        strict=True,
    ):
        if call.display is not None:
            console.print(display_panel(call.display, assumed))
    if verbose:
        console.print(Text(f"маршрут: {answer.route} · генератор: {answer.generator}", "dim"))


def citation_text(cite: Citation) -> str:
    """«NVLink — https://…/glossary/nvlink» with a public address, else «nvlink — NVLink»."""
    if cite.url.startswith(("https://", "http://")):
        return f"{cite.title} — {cite.url}"
    return f"{cite.slug} — {cite.title}"


def display_panel(display: Display, assumptions: list[str] | None = None) -> Panel:
    """Inputs, breakdown, GPU options and the assumptions (default: all) under the title."""
    shown = display.assumptions if assumptions is None else assumptions
    parts: list[RenderableType] = list(_sections(display, shown))
    return Panel(
        Group(*parts),
        title=display.title,
        title_align="left",
        border_style="dim",
        subtitle=display.source or None,
        subtitle_align="right",
    )


def _sections(display: Display, assumptions: list[str]) -> Iterator[RenderableType]:
    if display.inputs:
        given = " · ".join(f"{i.label}: {i.value}" for i in display.inputs)
        yield Text(given, style="dim")
    if display.rows:
        yield Text()
        yield _breakdown(display)
    if display.table is not None:
        yield Text()
        yield _options(display)
    if assumptions:
        yield Text()
        yield Text("\n".join(f"• {a}" for a in assumptions), style="dim")


def _breakdown(display: Display) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True)
    table.add_column(justify="right", no_wrap=True)
    table.add_column(style="dim")
    for row in display.rows:
        style = "bold" if row.strong else ""
        table.add_row(Text(row.label, style), Text(row.value, style), Text(row.note))
    return table


def _options(display: Display) -> Table:
    assert display.table is not None
    table = Table(title=display.table.caption, title_justify="left", box=None, padding=(0, 2))
    for n, column in enumerate(display.table.columns):
        table.add_column(column, justify="left" if n == 0 else "right", no_wrap=n == 0)
    for row in display.table.rows:
        table.add_row(*row)
    return table
