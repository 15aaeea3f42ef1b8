"""Calculation outcome / ToolResult → the Russian text of a numeric answer.

answer_text(outcome, catalog) -> str   summary sentences + «Допущения: …» + «Расчёт: …»; when a
                              parameter is missing, the side-by-side figures and one question;
                              when the values cannot be computed, why.
"""

from __future__ import annotations

from typing import Any

from assistant.answer.calculations.choice import (
    cache_lead,
    choice_lead,
    lighter_lead,
    rental_lead,
    usage_lead,
)
from assistant.answer.calculations.display import assumptions
from assistant.answer.calculations.questions import notes, question
from assistant.answer.diagnosis import remedies
from assistant.calculators.base import ToolResult
from assistant.calculators.memory import range_text
from assistant.calculators.registry import find_tool
from assistant.calculators.units import PRECISION_LABEL, gb_text
from assistant.corpus.catalog import Catalog
from assistant.text.sentences import split_sentences
from assistant.understanding.calculation import Outcome


def result_text(r: ToolResult, notes: list[str] | None = None, then: str = "") -> str:
    """Summary (and `then`, what would help), then the same assumptions the display block
    lists (defaults grouped)."""
    text = f"{r.summary_ru} {then}" if then else r.summary_ru
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
    """«Запас …» → «запас …», «У этого GPU …» → «у этого GPU …», but «KV-кэш», «ГБ», «FP8»
    keep their capitals."""
    if len(text) > 1 and text[0].isupper() and (text[1].islower() or text[1] == " "):
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


def uniform_verdict(outcome: Outcome) -> str:
    """ "no" or "fits" when every precision computed for a missing one gives the same verdict
    («активно только 13B — влезет в 24 ГБ?»: in none of them): no need to ask which."""
    if outcome.missing != ("precision",) or not outcome.results:
        return ""
    verdicts = {r.values.get("verdict") for r in outcome.results}
    return str(verdicts.pop()) if len(verdicts) == 1 and verdicts <= {"no", "fits"} else ""


def side_by_side(outcome: Outcome, catalog: Catalog, then: str = "") -> str:
    args = outcome.arguments
    model = args.model
    who = catalog.models[model].name if model else f"{args.params_b}B".replace(".", ",")
    parts = ", ".join(_short(r) for r in outcome.results)
    verdict = uniform_verdict(outcome)
    more = f" {then}" if then else ""
    if verdict == "no":
        return f"Нет, не поместится ни в одной из точностей. Для {who}: {parts}.{more}"
    if verdict == "fits":
        return f"Да, поместится в любой из точностей. Для {who}: {parts}.{more}"
    ask = question(outcome.missing, outcome.plan.merged, catalog)
    return f"Для {who}: {parts}.{more} {ask}"


def _moved_first(r: ToolResult, opening: str, said: str, as_lead: str) -> str:
    """The calculator's sentence that opens with `opening` put first, `said` in it read as
    `as_lead`; the text as is when it has no such sentence."""
    sentences = split_sentences(r.summary_ru)
    found = [x for x in sentences if x.startswith(opening)]
    if not found:
        return r.summary_ru
    rest = [x for x in sentences if x not in found]
    return " ".join([found[0].replace(said, as_lead, 1), *rest])


def cache_first(r: ToolResult) -> str:
    """The KV cache's sentence first, as the answer it is: «KV-кэш для одного запроса с
    контекстом 32 768 токенов займёт около 3,22 ГБ (…). Для … нужно около …»."""
    return _moved_first(r, "KV-кэш для", " — около", " займёт около")


def weights_first(r: ToolResult) -> str:
    """«сколько займут одни веса?»: «Веса займут 245,2 ГБ (122,6 млрд параметров × 2 байта,
    BF16). Для … нужно около …» — the weights' sentence first, as the answer it is."""
    return _moved_first(r, "Веса — ", "Веса — ", "Веса займут ")


def count_first(r: ToolResult) -> str:
    """«сколько H100 нужно под 405B?»: the cards it takes first — «Понадобится 16 × H100 SXM
    (около 55–67 ГБ на GPU). На одну … не поместится: …»; one card that fits says so as is."""
    return _moved_first(r, "С запасом хватит ", "С запасом хватит ", "Понадобится ")


def answer_text(
    outcome: Outcome, catalog: Catalog, then: str = "", *, speed: bool = False, reason: str = ""
) -> str:
    """The calculation's text; `then`: a cited sentence that follows the first result's figures
    (the MoE entry's «все эксперты должны помещаться в память GPU»); `speed`: the customer
    wants fast generation (what decides between options that all fit); `reason`: a cited
    sentence on what the choice gives beyond memory, after the verdict (the lead without one)."""
    if outcome.rejected:
        return outcome.rejected
    if outcome.missing:
        if outcome.results:
            return side_by_side(outcome, catalog, then)
        return question(outcome.missing, outcome.plan.merged, catalog) or ""
    read = notes(outcome.plan)
    stated = outcome.stated
    lead = (
        choice_lead(stated, catalog, speed=speed)
        or lighter_lead(stated)
        or cache_lead(stated, catalog)
        or rental_lead(stated)
        or usage_lead(stated)
    )
    lead = " ".join(x for x in (lead, reason) if x)
    fix = " ".join(x for x in (then, remedies(outcome, catalog)) if x)  # LoRA, QLoRA, ZeRO-3
    first = (
        cache_first  # «сколько займёт KV-кэш?»: the cache first
        if outcome.plan.cache_first
        else count_first  # «сколько H100 нужно?»: the cards first
        if outcome.plan.count_first
        else weights_first  # «сколько займут одни веса?»: the weights first
        if outcome.plan.weights_first
        else None
    )
    if first is not None and stated:  # each model's cache first, when models are compared
        n = len(stated) if outcome.plan.cache_first else 1
        moved = tuple(r.model_copy(update={"summary_ru": first(r)}) for r in stated[:n])
        stated = (*moved, *stated[n:])
    texts = [
        result_text(r, read if i == 0 else None, fix if i == 0 else "")
        for i, r in enumerate(stated)
    ]
    return "\n\n".join([lead, *texts] if lead else texts)
