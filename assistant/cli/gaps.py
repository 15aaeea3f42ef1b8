"""Content gaps (assistant/console/gaps.py) → the terminal: the same groups the console shows,
most frequent first, each with its wordings, comments, nearest entries, missing words and the
action. Text typed by users is printed inert: rich markup and terminal control characters
(escape sequences included) cannot style or move anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.markup import escape

from assistant.cli.common import console
from assistant.cli.terminal import terminal_safe

if TYPE_CHECKING:
    from assistant.console.gaps import Gap


def shown(text: str) -> str:
    """User text for rich: control and bidi characters shown as visible marks (the report's
    own rule, cli/terminal.py), markup escaped."""
    return escape(terminal_safe(text))


def _times(n: int) -> str:
    return "раза" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "раз"


def _score(value: float) -> str:
    return f"{value:.2f}".replace(".", ",")


def print_gaps(gaps: list[Gap], days_label: str) -> None:
    console.print(
        f"[bold]Пробелы в глоссарии[/bold] — отказы и «не помогло», {days_label}, по смыслу"
    )
    if not gaps:
        console.print("Отказов и оценок «не помогло» не было.\n")
        return
    for i, g in enumerate(gaps, 1):
        facts = [f"{g.count} {_times(g.count)}"]
        if g.declined:
            facts.append(f"отказов {g.declined}")
        if g.disliked:
            facts.append(f"«не помогло» {g.disliked}")
        console.print(f"\n[bold]{i}. «{shown(g.question)}»[/bold] — {', '.join(facts)}")
        if g.examples:
            console.print(
                "   Как ещё спрашивали: " + "; ".join(f"«{shown(e)}»" for e in g.examples)
            )
        if g.comments:
            console.print("   Что написали: " + "; ".join(f"«{shown(c)}»" for c in g.comments))
        nearest = " · ".join(f"{escape(n.title)} {_score(n.score)}" for n in g.nearest)
        console.print(f"   Ближайшие статьи: {nearest}")
        if g.missing_words:
            console.print(
                "   Слов нет в глоссарии: " + ", ".join(shown(w) for w in g.missing_words)
            )
        console.print(f"   [yellow]→ {shown(g.action)}[/yellow]")
    console.print()
