"""Calculation outcome / ToolResult → the Russian text of a numeric answer.

answer_text(outcome, catalog) -> str   summary sentences + «Допущения: …» + «Расчёт: …»; when a
                              parameter is missing, the side-by-side figures and one question;
                              when the values cannot be computed, why.
"""

from __future__ import annotations

from typing import Any

from assistant.answer.calculations.display import assumptions
from assistant.answer.calculations.questions import notes, question
from assistant.calculators.base import ToolResult
from assistant.calculators.memory import range_text
from assistant.calculators.registry import find_tool
from assistant.calculators.units import PRECISION_LABEL, gb_text
from assistant.corpus.catalog import Catalog
from assistant.understanding.calculation import Outcome


def result_text(r: ToolResult, notes: list[str] | None = None) -> str:
    """Summary, then the same assumptions the display block lists (defaults grouped)."""
    text = r.summary_ru
    assumed = assumptions_text(assumptions(r, notes or []))
    if assumed:
        text += "\nДопущения: " + assumed + "."
    tool = find_tool(r.tool)
    return text + f" Расчёт: {tool.short if tool else 'калькулятор'}."


DEFAULT_MARK = " — по умолчанию"


def assumptions_text(items: list[str]) -> str:
    """«8k понимаем как 8 192 токена; по умолчанию — KV-кэш в FP16, 1 одновременный запрос; …»:
    the order of `items`, the defaults gathered where the first of them stands."""
    defaults = [
        _lower_first(a.removesuffix(DEFAULT_MARK)) for a in items if a.endswith(DEFAULT_MARK)
    ]
    out: list[str] = []
    for item in items:
        if not item.endswith(DEFAULT_MARK):
            out.append(_lower_first(item))
        elif defaults:
            out.append("по умолчанию — " + ", ".join(defaults))
            defaults = []
    return "; ".join(out)


def _lower_first(text: str) -> str:
    """«Запас …» → «запас …», but «KV-кэш», «ГБ», «FP8» keep their capitals."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def _short(r: ToolResult) -> str:
    v: dict[str, Any] = r.values
    label = PRECISION_LABEL.get(str(r.inputs.get("precision")), "")
    if r.tool == "vram_inference":
        w, lo, hi = float(v["weights_gb"]), float(v["total_low_gb"]), float(v["total_high_gb"])
        return f"{label} — около {gb_text(w)} под веса ({range_text(lo, hi, False)} с запасом)"
    lo, hi = float(v["need_low_gb"]), float(v["need_high_gb"])
    text = f"{label} — около {range_text(lo, hi, False)}"
    if "verdict" in v:
        text += {"fits": ", поместится", "tight": ", впритык", "no": ", не поместится"}[
            str(v["verdict"])
        ]
    return text


def side_by_side(outcome: Outcome, catalog: Catalog) -> str:
    args = outcome.arguments
    model = args.model
    who = catalog.models[model].name if model else f"{args.params_b}B".replace(".", ",")
    parts = ", ".join(_short(r) for r in outcome.results)
    return f"Для {who}: {parts}. {question(outcome.missing, outcome.plan.merged, catalog)}"


def answer_text(outcome: Outcome, catalog: Catalog) -> str:
    if outcome.rejected:
        return outcome.rejected
    if outcome.missing:
        if outcome.results:
            return side_by_side(outcome, catalog)
        return question(outcome.missing, outcome.plan.merged, catalog) or ""
    read = notes(outcome.plan)
    return "\n\n".join(
        result_text(r, read if i == 0 else None) for i, r in enumerate(outcome.results)
    )
