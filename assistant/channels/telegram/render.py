"""Answer → Telegram HTML (escaped text, calculations, citation links) and safe splitting.

A calculation is its `display` block (assistant/answer/calculations/display.py): a bold title,
the inputs in italics, the breakdown and the GPU options as aligned <pre> tables.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from assistant.answer.calculations.display import fresh_assumptions
from assistant.schema import Answer, Citation, Display, ToolCall

TELEGRAM_LIMIT = 4096  # characters of one message text

_SOURCES_LINE = re.compile(r"^\s*(Источники|Источник)\s*:.*$", re.IGNORECASE | re.MULTILINE)
_ATOM = re.compile(r"<[^<>]*>|&(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);|.", re.DOTALL)
_TAG_NAME = re.compile(r"^</?\s*([a-zA-Z][\w-]*)")

VALUE_LABELS: dict[str, str] = {
    "params_b": "параметров, млрд",
    "bytes_per_param": "байт на параметр",
    "weights_gb": "веса",
    "kv_cache_gb": "KV-кэш",
    "total_low_gb": "итого, от",
    "total_high_gb": "итого, до",
    "total_gb": "итого",
    "per_gpu_gb": "на один GPU",
    "gradients_gb": "градиенты",
    "optimizer_gb": "оптимизатор",
    "activations_gb": "активации",
    "need_low_gb": "нужно, от",
    "need_high_gb": "нужно, до",
    "memory_gb": "память GPU",
    "gpus_needed": "нужно GPU",
    "verdict": "вердикт",
    "gpus": "число GPU",
    "hours_per_month": "часов в месяце",
    "price_per_gpu_hour": "$ за GPU·час",
    "price_per_gpu_month": "$ за GPU·месяц",
    "hours": "часов",
    "gpu_hours": "GPU-часов",
    "job_cost": "стоимость, $",
    "egress_tb_included": "трафик включён, ТБ",
    "egress_fee": "плата за трафик, $",
}
VERDICTS = {"fits": "поместится", "tight": "впритык", "no": "не поместится"}
MAX_TABLE_ROWS = 10
MAX_OPTION_ROWS = 12  # the GPU catalogue has 9; a longer one is cut rather than split


def escape(text: str, *, quote: bool = False) -> str:
    """Escape &, <, > (and " inside attributes) — the only entities Telegram HTML requires."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;") if quote else text


def text_length(text: str) -> int:
    """Length as Telegram counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def absolute_url(url: str, base_url: str) -> str | None:
    """Absolute http(s) link for a citation url, or None when it stays a bare path."""
    if url.startswith(("https://", "http://")):
        return url
    if base_url.startswith(("https://", "http://")):
        return base_url.rstrip("/") + "/" + url.lstrip("/")
    return None


def strip_sources(text: str) -> str:
    """Drop the engine's plain «Источники: …» line; the channel renders citations as links."""
    return _SOURCES_LINE.sub("", text).strip()


def render_citations(citations: Sequence[Citation], base_url: str) -> str:
    """Numbered «Источники» block; each entry a link to its glossary page (or the path as code)."""
    if not citations:
        return ""
    lines = ["<b>Источники:</b>"]
    for number, cite in enumerate(citations, start=1):
        link = absolute_url(cite.url, base_url)
        title = escape(cite.title)
        if link is None:
            lines.append(f"[{number}] {title} — <code>{escape(cite.url)}</code>")
        else:
            lines.append(f'[{number}] <a href="{escape(link, quote=True)}">{title}</a>')
    return "\n".join(lines)


def format_value(key: str, value: Any, unit: str = "GB") -> str:
    """One calculator value as short Russian text («79,95 ГБ», «1 728», «поместится»)."""
    if isinstance(value, bool):
        return "да" if value else "нет"
    if isinstance(value, int | float):
        number = _format_number(float(value))
        if key.endswith("_gb"):
            return f"{number} {'ГиБ' if unit.lower() == 'gib' else 'ГБ'}"
        return number
    if key == "verdict":
        return VERDICTS.get(str(value), str(value))
    return str(value)


def _format_number(value: float) -> str:
    if value.is_integer():
        text = f"{int(value):,}".replace(",", " ")
    else:
        text = f"{value:,.2f}".rstrip("0").rstrip(".").replace(",", " ").replace(".", ",")
    return text


def table_rows(result: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, value) rows of a tool result's scalar values, at most MAX_TABLE_ROWS."""
    values = result.get("values") or {}
    unit = str(values.get("unit", "GB"))
    rows: list[tuple[str, str]] = []
    for key, value in values.items():
        if key == "unit" or value is None or isinstance(value, list | dict):
            continue
        rows.append((VALUE_LABELS.get(key, key), format_value(key, value, unit)))
    return rows[:MAX_TABLE_ROWS]


def render_table(call: ToolCall) -> str:
    """A tool call's values as an aligned monospace <pre> table (empty when nothing to show)."""
    rows = table_rows(call.result)
    if not rows:
        return ""
    width = max(len(label) for label, _ in rows)
    body = "\n".join(f"{label.ljust(width)}  {value}" for label, value in rows)
    return f"<pre>{escape(body)}</pre>"


def render_display(display: Display, assumptions: list[str] | None = None) -> str:
    """A calculation: bold title, the inputs in italics, the breakdown as an aligned <pre>
    (how each part was computed on one line under it), the GPU options as a second <pre>,
    then `assumptions` (default: all of the block's own).
    """
    lines = [f"<b>{escape(display.title)}</b>"]
    if display.inputs:
        given = " · ".join(f"{i.label}: {i.value}" for i in display.inputs)
        lines.append(f"<i>{escape(given)}</i>")
    if display.rows:
        rows = [[r.label, r.value] for r in display.rows]
        lines.append(f"<pre>{escape(_aligned_rows(rows))}</pre>")
        notes = "; ".join(f"{r.label} — {r.note}" for r in display.rows if r.note)
        if notes:
            lines.append(f"<i>{escape(notes)}</i>")
    if display.table is not None and display.table.rows:
        lines.append(_options_block(display))
    shown = display.assumptions if assumptions is None else assumptions
    if shown:
        lines.append("<i>Допущения: " + escape("; ".join(shown)) + ".</i>")
    return "\n".join(lines)


def _options_block(display: Display) -> str:
    """«Варианты GPU» as an aligned monospace table (GPU names left, numbers right)."""
    assert display.table is not None
    rows = [display.table.columns, *display.table.rows][: MAX_OPTION_ROWS + 1]
    return f"<b>{escape(display.table.caption)}</b>\n<pre>{escape(_aligned_rows(rows))}</pre>"


def _aligned_rows(rows: list[list[str]]) -> str:
    """Monospace columns: the first left-aligned, the others (numbers, verdicts) right."""
    widths = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(len(rows[0]))]
    return "\n".join(_aligned(r, widths) for r in rows)


def _aligned(cells: list[str], widths: list[int]) -> str:
    pairs = enumerate(zip(cells, widths, strict=False))  # a short row leaves the rest blank
    return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in pairs).rstrip()


def render_answer(answer: Answer, base_url: str = "") -> str:
    """The whole answer as Telegram HTML: text, calculations, then citation links."""
    sections = [escape(strip_sources(answer.answer))]
    for call, assumed in zip(
        answer.tool_calls,
        fresh_assumptions(answer.answer, [c.display for c in answer.tool_calls]),
        strict=True,
    ):
        sections.append(
            render_display(call.display, assumed) if call.display else render_table(call)
        )
    sections.append(render_citations(answer.citations, base_url))
    return "\n\n".join(section for section in sections if section)


# --- splitting -----------------------------------------------------------------------------


def _atoms(html: str) -> list[str]:
    return _ATOM.findall(html)


def _tag(atom: str) -> tuple[str, bool] | None:
    """(tag name, is_closing) for a tag atom, None for text or an entity."""
    if not atom.startswith("<") or len(atom) < 3:
        return None
    match = _TAG_NAME.match(atom)
    if match is None:
        return None
    return match.group(1).lower(), atom.startswith("</")


def _apply(stack: list[tuple[str, str]], atom: str) -> None:
    tag = _tag(atom)
    if tag is None:
        return
    name, closing = tag
    if not closing:
        stack.append((name, atom))
    elif stack and stack[-1][0] == name:
        stack.pop()


def _closers(stack: Iterable[tuple[str, str]]) -> str:
    return "".join(f"</{name}>" for name, _ in reversed(list(stack)))


def _priority(atoms: list[str], j: int) -> int:
    """How good a cut before atoms[j] is: paragraph 4, line 3, sentence 2, word 1, other 0."""
    prev = atoms[j - 1]
    if prev == "\n":
        return 4 if j >= 2 and atoms[j - 2] == "\n" else 3
    if prev in (" ", "\t"):
        back = j - 2
        while back >= 0 and _tag(atoms[back]) is not None:
            back -= 1
        return 2 if back >= 0 and atoms[back] in (".", "!", "?", "…", ";") else 1
    tag = _tag(prev)
    return -1 if tag is not None and not tag[1] else 0  # never right after an opening tag


def _find_cut(
    atoms: list[str], start: int, stack: list[tuple[str, str]], limit: int
) -> tuple[int, list[tuple[str, str]]]:
    """End index of the next part and the tags open there."""
    running = list(stack)
    length = text_length("".join(tag for _, tag in stack))
    best: dict[int, tuple[int, list[tuple[str, str]]]] = {}
    j = start
    while j < len(atoms):
        length += text_length(atoms[j])
        _apply(running, atoms[j])
        j += 1
        if length + text_length(_closers(running)) > limit:
            break
        if j == len(atoms):
            return j, running
        best[_priority(atoms, j)] = (j, list(running))
    floor = start + (j - start) // 2
    for level in (4, 3, 2, 1, 0):
        if level in best and best[level][0] > floor:
            return best[level]
    usable = [cut for level, cut in best.items() if level >= 0]
    if usable:
        return max(usable, key=lambda cut: cut[0])
    forced = list(stack)
    _apply(forced, atoms[start])
    return start + 1, forced


def visible_text(html: str) -> str:
    """The text a reader sees (tags removed, entities kept as written)."""
    return "".join(atom for atom in _atoms(html) if _tag(atom) is None)


def split_message(html: str, limit: int = TELEGRAM_LIMIT) -> list[str]:
    """Split Telegram HTML into balanced parts ≤ limit, at paragraph/line/sentence boundaries."""
    html = html.strip()
    if text_length(html) <= limit:
        return [html] if visible_text(html).strip() else []
    atoms = _atoms(html)
    parts: list[str] = []
    stack: list[tuple[str, str]] = []
    i = 0
    while i < len(atoms):
        prefix = "".join(tag for _, tag in stack)
        cut, after = _find_cut(atoms, i, stack, limit)
        body = "".join(atoms[i:cut]).rstrip(" \t\n")
        part = prefix + body + _closers(after)
        if visible_text(part).strip():
            parts.append(part)
        stack, i = after, cut
        while i < len(atoms) and atoms[i] in (" ", "\t", "\n"):
            i += 1
    return parts
