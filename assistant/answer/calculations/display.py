"""ToolResult (+ what the user stated, the parser's notes) → Display: one calculation for people.

    display = build_display(result, catalog, stated={"model", "precision"}, notes=["32k = …"])
    display.title / headline / inputs / rows / table / assumptions / source   (see DISPLAY.md)

Every channel (widget, agent page, Telegram, CLI) renders this block instead of the raw result:
Russian labels and units, numbers rounded by magnitude with a decimal comma, GPU and model
display names, only the inputs the user stated, defaults listed as assumptions. Values are read
defensively — a calculator that adds or drops a value changes what is shown, never breaks it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence

from assistant.answer.calculations import cost, memory
from assistant.answer.calculations.facts import Body, Facts
from assistant.answer.calculations.words import (
    DEFAULT_PHRASES,
    SUPERSEDED,
    input_items,
    sentence,
)
from assistant.calculators.base import ToolResult
from assistant.calculators.registry import find_tool, get_tool
from assistant.corpus.catalog import Catalog
from assistant.errors import ToolInputError
from assistant.schema import Display, DisplayItem

log = logging.getLogger(__name__)
BUILDERS: dict[str, Callable[[Facts], Body]] = {**memory.BUILDERS, **cost.BUILDERS}


def build_display(
    result: ToolResult,
    catalog: Catalog,
    stated: Iterable[str] | None = None,
    notes: Iterable[str] = (),
) -> Display:
    """The presentation of one calculator result; never raises (a fallback names the tool)."""
    who = frozenset(stated) if stated is not None else _stated_guess(result)
    facts = Facts(result, who, catalog)
    try:
        body = BUILDERS.get(result.tool, generic)(facts)
    except Exception:  # a calculator changed shape: show less, never a trace or a key
        log.exception("display for %s failed", result.tool)
        body = generic(facts)
    tool = find_tool(result.tool)
    return Display(
        title=tool.title if tool else "Расчёт",
        headline=body.headline,
        inputs=[DisplayItem(label=k, value=v) for k, v in input_items(result, who, catalog)],
        rows=body.rows,
        table=body.table,
        assumptions=assumptions(result, notes),
        source=tool.source if tool else "Расчёт: калькулятор",
    )


_DERIVED = frozenset({"layers", "kv_heads", "head_dim", "kv_latent_dim"})


def _stated_guess(result: ToolResult) -> frozenset[str]:
    """Without the engine's word: inputs that differ from the calculator's defaults and were
    not derived (a named model's size and KV shape come from the catalogue)."""
    defaults = _field_defaults(result.tool)
    out = {
        k
        for k, v in result.inputs.items()
        if v is not None
        and k not in result.defaults
        and k not in _DERIVED
        and not (k in defaults and defaults[k] == v)
    }
    if result.inputs.get("model"):
        out.discard("params_b")
    return frozenset(out)


def _field_defaults(tool: str) -> dict[str, object]:
    try:
        fields = get_tool(tool).input_model.model_fields
    except ToolInputError:  # a tool this build does not know: nothing to compare with
        return {}
    return {k: f.default for k, f in fields.items()}


# -- assumptions -------------------------------------------------------------------------------


def assumptions(result: ToolResult, notes: Iterable[str] = ()) -> list[str]:
    """Parser notes, then defaults («… — по умолчанию»), then the calculator's own assumptions
    that no default phrase already says; each once, capitalised."""
    out = [sentence(n) for n in notes]
    superseded: list[str] = []
    for key in result.defaults:
        phrase = DEFAULT_PHRASES.get(key)
        text = phrase(result.inputs) if phrase else None
        if text:
            out.append(text)
        superseded.extend(SUPERSEDED.get(key, ()))
    for item in result.assumptions_ru:
        if not any(item.lower().startswith(p) for p in superseded):
            out.append(sentence(item))
    return list(dict.fromkeys(out))


# -- per tool ------------------------------------------------------------------------------------


def generic(f: Facts) -> Body:
    first = f.result.summary_ru.split(". ")[0].rstrip(".")
    return Body(headline=first + "." if first else "", rows=[])


def fresh_assumptions(text: str, displays: Sequence[Display | None]) -> list[list[str]]:
    """Per calculation, the assumptions a reader has not seen yet: none when the answer text has
    its own «Допущения: …» line, else each once across the calculations (the BF16/FP8/FP4
    variants of one question share most of them). Every renderer lists only these."""
    if "допущения:" in text.lower():
        return [[] for _ in displays]
    seen: set[str] = set()
    out = []
    for display in displays:
        items = [a for a in (display.assumptions if display else []) if a not in seen]
        seen.update(items)
        out.append(items)
    return out
