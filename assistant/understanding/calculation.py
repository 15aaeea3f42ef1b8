"""Parsed question (+ previous turn's params) → NumericOutcome: tool, arguments, missing, results.

Interface (stable; the answer engine is built against it; Toolbox.solve also takes plain text):

    outcome = solve(reader.read("сколько памяти нужно 70B в BF16"), None, catalog)
    outcome.is_numeric        True when the question asks for a calculation
    outcome.tool              "vram_inference" | "vram_training" | "gpu_fit" | "gpu_cost" | None
    outcome.arguments         tool arguments (explicit + carried; tool defaults are not included)
    outcome.missing           e.g. ["precision"]; then `clarify_question` is one Russian question
    outcome.defaults          names of tool inputs that were defaulted (from the first result)
    outcome.results           list[ToolResult]; missing precision → BF16/FP8/FP4 side by side
    outcome.params            carry into the next turn: solve(read("а в FP8?"), outcome.params, …)
    outcome.related_slugs     glossary slugs (vram, fp8, kv-cache, gpu-hour, …)
    outcome.rejected          "" or why the values cannot be computed (out of range, a backwards
                              date range): then answer_ru is that explanation (tools/limits.py)
    outcome.answer_ru         a ready Russian answer (summary + assumptions, or the question)

Definition and how-to questions («что такое FP8?», «как дообучить 65B на одной карте?») are not
numeric unless they explicitly ask for a calculation («сколько памяти нужно …»). A fresh question
is numeric only when it carries a quantity to compute with (model or size, price, duration,
context, batch), an explicit calculation request, or asks about the egress allowance. A short
follow-up («а для 32k?», «а на 8 картах?», «а за неделю?», «а если батч 16?») changes one
parameter and inherits the rest; a bare «32k» is a context length after a memory question. A
server price carried into a follow-up that changes the GPU count is split per GPU first
(«сервер на 8 H100 за 17 520 $» → «а на одну карту?» = 2 190 $ в месяц).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field

from assistant.answer.calculations.text import answer_text
from assistant.answer.calculations.words import gpu_name
from assistant.calculators.base import ToolResult
from assistant.calculators.limits import explain, out_of_range
from assistant.calculators.registry import get_tool
from assistant.calculators.slugs import related_slugs
from assistant.calculators.units import gb_text, usd
from assistant.corpus.catalog import Catalog
from assistant.errors import ToolInputError
from assistant.understanding.follow_up import (
    CARD,
    asks_fit,
    replace_card,
    short_follow_up,
    with_follow_up,
)
from assistant.understanding.quantities import Extraction
from assistant.understanding.reader import ParsedMessage

SIZE = ("model", "params_b")
ARCHITECTURE = ("layers", "kv_heads", "head_dim")
QUANTITY = (
    "model",
    "params_b",
    "price_month",
    "price_hour",
    "duration",
    "context_tokens",
    "layers",
    "gpu_memory_gb",
)
SIDE_BY_SIDE = ("bf16", "fp8", "fp4")
INFERENCE_ONLY = ("precision", "context_tokens", "batch", "gpu_memory_gb", "gpu_label")

QUESTIONS = {
    "params_b": "Для какой модели считать — сколько у неё параметров (например, 8B или 70B) "
    "или как она называется (например, Llama 3 70B)?",
    "gpu": "На каких GPU — например, H100, H200 или B200?",
    "price": "По какой цене считать — сколько стоит GPU в месяц или в час?",
    "precision": "Какая точность — BF16, FP8 или FP4? Если не уверены, посчитаю для BF16.",
    "gpu_memory": "Сколько памяти у этой карты? Напишите объём в гигабайтах — посчитаю, "
    "поместится ли модель.",
}


class NumericOutcome(BaseModel):
    is_numeric: bool
    tool: str | None = None
    arguments: dict[str, Any] = Field(default_factory=dict)
    missing: list[str] = Field(default_factory=list)
    clarify_question: str | None = None
    defaults: list[str] = Field(default_factory=list)
    results: list[ToolResult] = Field(default_factory=list)
    params: dict[str, Any] = Field(default_factory=dict)
    related_slugs: list[str] = Field(default_factory=list)
    notes_ru: list[str] = Field(default_factory=list)
    rejected: str = ""  # Russian: why these values cannot be computed (out of range, bad dates)
    answer_ru: str = ""


def _has(p: Mapping[str, Any], *keys: str) -> bool:
    return any(k in p for k in keys)


def choose_tool(ex: Extraction, prev: str | None, merged: dict[str, Any]) -> str | None:
    p, it = ex.params, ex.intents
    if ex.definitional and not ex.request:
        return None
    if ex.problems:  # a date range that cannot be a rental period
        return "gpu_cost"
    if _has(p, "price_month", "price_hour") or "cost" in it:
        return "gpu_cost"
    if "training" in it or "method" in p or "sharding" in p:
        return "vram_training"
    if prev == "vram_training" and "fit" in it and not _has(p, *INFERENCE_ONLY):
        return "vram_training"  # «а на H100 влезет?» after a training question: its memory
    if "fit" in it and (_has(merged, *SIZE) or not _has(p, "gpu")):
        return "gpu_fit"
    if _has(p, *ARCHITECTURE):
        return _upgrade("vram_inference", p)
    if _has(p, "duration") and not _has(p, *SIZE):  # only the cost takes a duration
        return "gpu_cost"
    if "vram" in it and (_has(merged, *SIZE) or not _has(p, "gpu")):
        return _upgrade("vram_inference", p)
    if _has(p, *SIZE) and _has(p, "precision", "context_tokens", "gpu", "gpus"):
        return _upgrade("vram_inference", p)
    if prev and p:
        return _upgrade(prev, p)
    return None


def _upgrade(tool: str, p: Mapping[str, Any]) -> str:
    """A follow-up naming GPUs turns a memory question into a fit question."""
    if tool == "vram_inference" and _has(p, "gpus", *CARD):
        return "gpu_fit"
    return tool


def merge(carried: dict[str, Any], ex: Extraction, fresh: bool) -> dict[str, Any]:
    base = {} if fresh else {k: v for k, v in carried.items() if k != "tool"}
    new = {k: v for k, v in ex.params.items() if k != "compare_precisions"}
    if _changes_gpus_of_total_price(base, new):
        n = int(base["gpus"])
        for key in ("price_month", "price_hour"):
            if key in base:
                base[key] = base[key] / n
        base["price_scope"] = "per_gpu"
    pairs = (("params_b", "model"), ("price_month", "price_hour"))
    for a, b in pairs:
        if a in new:
            base.pop(b, None)
        if b in new:
            base.pop(a, None)
    replace_card(base, new)
    if _has(new, *SIZE):  # another model: its own architecture
        for key in ARCHITECTURE:
            base.pop(key, None)
    architecture_only = all(k in base for k in ARCHITECTURE) and not _has(base, *SIZE)
    if architecture_only and "precision" in new and not _has(new, *SIZE):
        new["kv_precision"] = new.pop("precision")  # «а в FP8?» about a cache: the cache's
    return {**base, **new}


def _changes_gpus_of_total_price(base: dict[str, Any], new: dict[str, Any]) -> bool:
    """A carried server price («за 8 карт») meets a follow-up with another GPU count."""
    return (
        base.get("price_scope") == "total"
        and int(base.get("gpus") or 1) > 1
        and "gpus" in new
        and not _has(new, "price_month", "price_hour")
    )


def asks_calculation(message: ParsedMessage, ex: Extraction, carried: dict[str, Any]) -> bool:
    """A quantity to compute with, an explicit request, an egress question, or a short follow-up
    that changes a carried parameter or asks the carried calculation something new («а какие
    карты подойдут?», «а сколько из этого запас?»); otherwise a term question («как …»)."""
    if _has(ex.params, *QUANTITY) or ex.request or ex.params.get("egress"):
        return True
    if ex.problems:
        return True
    follows = short_follow_up(message, carried) or asks_fit(message, carried)
    return follows and bool(ex.params or ex.intents)


def _is_fresh(message: ParsedMessage, ex: Extraction, carried: dict[str, Any]) -> bool:
    if not carried or message.signals.continues:
        return False
    return bool(ex.intents) and _has(ex.params, *SIZE)


def arguments_for(tool: str, merged: dict[str, Any]) -> dict[str, Any]:
    fields = get_tool(tool).input_model.model_fields
    return {k: v for k, v in merged.items() if k in fields}


def missing_for(
    tool: str,
    args: dict[str, Any],
    price_asked: bool,
    catalog: Catalog,
    merged: dict[str, Any],
    ex: Extraction | None = None,
) -> list[str]:
    out: list[str] = []
    sized = tool in ("vram_inference", "gpu_fit", "vram_training")
    architecture = tool != "vram_training" and all(k in args for k in ARCHITECTURE)
    if sized and not _has(args, *SIZE, "required_gb") and not architecture:
        out.append("params_b")
    card = _has(args, "gpu", "gpu_memory_gb")
    if tool == "gpu_fit" and "gpu_label" in merged and not card:
        out.append("gpu_memory")
    elif tool == "gpu_fit" and not card and _verdict_for_many(args, ex):
        out.append("gpu")  # «поместится ли 70B на 2 карты?» — на каких?
    if tool == "gpu_cost" and not _has(args, "price_month", "price_hour"):
        example = args.get("gpu") and catalog.prices.example_month(args["gpu"])
        if not example and (price_asked or not _has(args, "duration", "egress")):
            out.append("price")
    if (
        tool in ("vram_inference", "gpu_fit")
        and "precision" not in args
        and "required_gb" not in args
        and not (architecture and not _has(args, *SIZE))
    ):
        out.append("precision")
    return out


def _verdict_for_many(args: dict[str, Any], ex: Extraction | None) -> bool:
    """«Поместится ли … на 2 карты?» asks a verdict that needs the card; «сколько весов на
    каждую?» does not."""
    many = int(args.get("gpus") or 1) > 1
    return many and ex is not None and ex.verdict and not ex.per_card


def solve(
    message: ParsedMessage, carried: dict[str, Any] | None, catalog: Catalog
) -> NumericOutcome:
    carried = dict(carried or {})
    examples = catalog.prices.examples
    ex = with_follow_up(message, carried, examples[0].gpu if examples else None)
    if not asks_calculation(message, ex, carried):
        return NumericOutcome(is_numeric=False, params=carried)
    fresh = _is_fresh(message, ex, carried)
    merged = merge(carried, ex, fresh)
    tool = choose_tool(ex, None if fresh else carried.get("tool"), merged)
    if tool is None:
        return NumericOutcome(is_numeric=False, params=carried)
    if tool == "gpu_cost" and "gpus" not in ex.params and _SO_MANY.search(message.normalised):
        merged["gpus"] = merged.get("gpus_advised") or merged.get("gpus") or 1
    if tool == "vram_inference" and "gpus" in merged and "gpus" in ex.params:
        tool = "gpu_fit"
    price_asked = ex.price_words or bool(carried.get("price_asked") and not fresh)
    return _outcome(tool, merged, ex, price_asked, catalog)


def _outcome(
    tool: str,
    merged: dict[str, Any],
    ex: Extraction,
    price_asked: bool,
    catalog: Catalog,
) -> NumericOutcome:
    args = arguments_for(tool, merged)
    missing = missing_for(tool, args, price_asked, catalog, merged, ex)
    rejected = (ex.problems[0] if ex.problems else "") or out_of_range(args) or ""
    try:
        results = [] if rejected else _results(tool, args, missing, ex, catalog)
    except ToolInputError as e:  # what the limits above do not foresee (an unknown model…)
        rejected, results = explain(e.user_message), []
    if rejected:
        return _rejected(tool, args, rejected, merged, catalog)
    outcome = NumericOutcome(
        is_numeric=True,
        tool=tool,
        arguments=args,
        missing=missing,
        clarify_question=_question(missing, merged, catalog),
        defaults=results[0].defaults if results else [],
        results=results,
        params={
            **{k: v for k, v in merged.items() if k != "asked"},
            "tool": tool,
            **({"asked": missing[0]} if missing else {}),
            **({"price_asked": True} if price_asked else {}),
            **_advised(results),
        },
        related_slugs=related_slugs(tool, args, catalog),
        notes_ru=[*ex.notes, *_card_note(tool, merged, args)],
    )
    outcome.answer_ru = answer_text(outcome, catalog)
    return outcome


# «сколько будет стоить столько карт?» after «сколько H100 нужно …» — the count advised
_SO_MANY = re.compile(
    r"(?<!\w)(?:столько|эти|все эти|нужное число|нужное количество) ?(?:карт|gpu|гпу|штук)"
)


def _advised(results: list[ToolResult]) -> dict[str, Any]:
    """The GPU count a fit advised, for a cost follow-up about «столько карт»."""
    if len(results) == 1 and results[0].tool == "gpu_fit":
        needed = results[0].values.get("gpus_needed")
        if isinstance(needed, int):
            return {"gpus_advised": needed}
    return {}


def _question(missing: list[str], merged: dict[str, Any], catalog: Catalog) -> str | None:
    """The one question back; the card named when there is one: «Сколько памяти у RTX 3060?»,
    «По какой цене считать H200 …»."""
    if not missing:
        return None
    label, gpu = merged.get("gpu_label"), merged.get("gpu")
    if missing[0] == "gpu_memory" and label:
        return (
            f"{label} нет в каталоге FullGPU. Сколько у этой карты памяти? Напишите объём в "
            "гигабайтах — посчитаю, поместится ли модель."
        )
    if missing[0] == "price":
        return _price_question(gpu if isinstance(gpu, str) else None, catalog)
    return QUESTIONS[missing[0]]


def _price_question(gpu: str | None, catalog: Catalog) -> str:
    """The price question with the glossary's example offered (read from the catalogue, not
    copied here); for another named card the example is only mentioned, never offered for it."""
    examples = catalog.prices.examples
    if not examples:
        return QUESTIONS["price"]
    ex = examples[0]
    hourly = ex.price_month_usd / catalog.prices.hours_per_month
    offer = (
        f"{gpu_name(ex.gpu, catalog)} за {usd(ex.price_month_usd)} в месяц "
        f"(около {usd(hourly)} за GPU-час)"
    )
    if gpu is None or gpu not in catalog.gpus:
        return f"{QUESTIONS['price']} Если хотите, возьму пример из глоссария: {offer}."
    return (
        f"По какой цене считать {gpu_name(gpu, catalog)} — сколько она стоит в месяц или в час? "
        f"В глоссарии есть цена только для примера: {offer}."
    )


def _card_note(tool: str, merged: dict[str, Any], args: dict[str, Any]) -> list[str]:
    """«RTX A5000 — не из каталога FullGPU, считаем по указанной памяти: 24 ГБ»."""
    label, memory = merged.get("gpu_label"), args.get("gpu_memory_gb")
    if tool != "gpu_fit" or not label or memory is None:
        return []
    return [f"{label} — не из каталога FullGPU, считаем по указанной памяти: {gb_text(memory)}"]


def _infinite(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def _sane(merged: dict[str, Any]) -> dict[str, Any]:
    """The parameters without the values out of range: «а на 5 лет?» after «на 500 лет»
    still knows the GPU."""
    out = dict(merged)
    for key, value in merged.items():
        probe = {key: value}
        if key == "duration":
            probe["duration_unit"] = merged.get("duration_unit", "hours")
        if out_of_range(probe):
            out.pop(key, None)
    return out


def _rejected(
    tool: str, args: dict[str, Any], text: str, merged: dict[str, Any], catalog: Catalog
) -> NumericOutcome:
    """Values no calculator can use: the explanation is the answer."""
    if not text.startswith("Посчитать не получится"):
        text = f"Посчитать не получится: {text}."
    return NumericOutcome(
        is_numeric=True,
        tool=tool,
        arguments={k: v for k, v in args.items() if not _infinite(v)},  # JSON has no Infinity
        rejected=text,
        params={**_sane(merged), "tool": tool},
        related_slugs=related_slugs(tool, {}, catalog),
        answer_ru=text,
    )


def _results(
    tool: str, args: dict[str, Any], missing: list[str], ex: Extraction, catalog: Catalog
) -> list[ToolResult]:
    t = get_tool(tool)
    if missing == ["precision"]:
        return [t.run({**args, "precision": p}, catalog) for p in SIDE_BY_SIDE]
    if missing:
        return []
    more = ex.params.get("compare_precisions") or []
    if "precision" in t.input_model.model_fields and len(more) > 1:
        return [t.run({**args, "precision": p}, catalog) for p in more]
    if tool == "gpu_fit" and args.get("gpu") in ex.gpus and len(ex.gpus) > 1:  # «L40S или H100?»
        return [t.run({**args, "gpu": g}, catalog) for g in ex.gpus]
    return [t.run(args, catalog)]
