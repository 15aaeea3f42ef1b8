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

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field

from assistant.corpus.catalog import Catalog
from assistant.parsing.extract import Extraction
from assistant.parsing.message import ParsedMessage
from assistant.tools.base import ToolResult
from assistant.tools.registry import get_tool
from assistant.tools.render import answer_text
from assistant.tools.slugs import related_slugs

SIZE = ("model", "params_b")
QUANTITY = ("model", "params_b", "price_month", "price_hour", "duration", "context_tokens")
MEMORY_TOOLS = ("vram_inference", "gpu_fit", "vram_training")
SHORT_FOLLOW_UP_WORDS = 5
SIDE_BY_SIDE = ("bf16", "fp8", "fp4")

QUESTIONS = {
    "params_b": "Для какой модели считать — сколько у неё параметров (например, 8B или 70B) "
    "или как она называется (например, Llama 3 70B)?",
    "gpu": "На каких GPU — например, H100, H200 или B200?",
    "price": "По какой цене считать — сколько стоит GPU в месяц или в час? Если хотите, возьму "
    "пример из глоссария: H100 за 2 190 $ в месяц (около 3,00 $ за GPU-час).",
    "precision": "Какая точность — BF16, FP8 или FP4? Если не уверены, посчитаю для BF16.",
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
    answer_ru: str = ""


def _has(p: Mapping[str, Any], *keys: str) -> bool:
    return any(k in p for k in keys)


def choose_tool(ex: Extraction, prev: str | None, merged: dict[str, Any]) -> str | None:
    p, it = ex.params, ex.intents
    if ex.definitional and not ex.request:
        return None
    if _has(p, "price_month", "price_hour") or "cost" in it:
        return "gpu_cost"
    if "training" in it or "method" in p or "sharding" in p:
        return "vram_training"
    if "fit" in it and (_has(merged, *SIZE) or not _has(p, "gpu")):
        return "gpu_fit"
    if _has(p, "duration") and not _has(p, *SIZE):
        return "gpu_cost" if prev in (None, "gpu_cost") or _has(p, "gpus", "gpu") else prev
    if "vram" in it and (_has(merged, *SIZE) or not _has(p, "gpu")):
        return _upgrade("vram_inference", p)
    if _has(p, *SIZE) and _has(p, "precision", "context_tokens", "gpu", "gpus"):
        return _upgrade("vram_inference", p)
    if prev and p:
        return _upgrade(prev, p)
    return None


def _upgrade(tool: str, p: Mapping[str, Any]) -> str:
    """A follow-up naming GPUs turns a memory question into a fit question."""
    if tool == "vram_inference" and _has(p, "gpu", "gpus"):
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
    return {**base, **new}


def _changes_gpus_of_total_price(base: dict[str, Any], new: dict[str, Any]) -> bool:
    """A carried server price («за 8 карт») meets a follow-up with another GPU count."""
    return (
        base.get("price_scope") == "total"
        and int(base.get("gpus") or 1) > 1
        and "gpus" in new
        and not _has(new, "price_month", "price_hour")
    )


def _short_follow_up(message: ParsedMessage, carried: dict[str, Any]) -> bool:
    if not carried.get("tool"):
        return False
    return message.signals.continues or message.pieces <= SHORT_FOLLOW_UP_WORDS


def asks_calculation(message: ParsedMessage, ex: Extraction, carried: dict[str, Any]) -> bool:
    """A quantity to compute with, an explicit request, an egress question, or a short follow-up
    that changes a carried parameter; otherwise a term question («как …», «что даёт …»)."""
    if _has(ex.params, *QUANTITY) or ex.request or ex.params.get("egress"):
        return True
    return _short_follow_up(message, carried) and bool(ex.params)


def _is_fresh(message: ParsedMessage, ex: Extraction, carried: dict[str, Any]) -> bool:
    if not carried or message.signals.continues:
        return False
    return bool(ex.intents) and _has(ex.params, *SIZE)


def arguments_for(tool: str, merged: dict[str, Any]) -> dict[str, Any]:
    fields = get_tool(tool).input_model.model_fields
    return {k: v for k, v in merged.items() if k in fields}


def missing_for(tool: str, args: dict[str, Any], price_asked: bool, catalog: Catalog) -> list[str]:
    out: list[str] = []
    sized = tool in ("vram_inference", "gpu_fit", "vram_training")
    if sized and not _has(args, *SIZE, "required_gb"):
        out.append("params_b")
    if tool == "gpu_fit" and "gpus" in args and "gpu" not in args:
        out.append("gpu")
    if tool == "gpu_cost" and not _has(args, "price_month", "price_hour"):
        example = args.get("gpu") and catalog.prices.example_month(args["gpu"])
        if not example and (price_asked or not _has(args, "duration", "egress")):
            out.append("price")
    if (
        tool in ("vram_inference", "gpu_fit")
        and "precision" not in args
        and "required_gb" not in args
    ):
        out.append("precision")
    return out


def solve(
    message: ParsedMessage, carried: dict[str, Any] | None, catalog: Catalog
) -> NumericOutcome:
    carried = dict(carried or {})
    ex = _with_bare_context(message, carried)
    if not asks_calculation(message, ex, carried):
        return NumericOutcome(is_numeric=False, params=carried)
    fresh = _is_fresh(message, ex, carried)
    merged = merge(carried, ex, fresh)
    tool = choose_tool(ex, None if fresh else carried.get("tool"), merged)
    if tool is None:
        return NumericOutcome(is_numeric=False, params=carried)
    if tool == "vram_inference" and "gpus" in merged and "gpus" in ex.params:
        tool = "gpu_fit"
    price_asked = ex.price_words or bool(carried.get("price_asked") and not fresh)
    return _outcome(tool, merged, ex, price_asked, catalog)


def _with_bare_context(message: ParsedMessage, carried: dict[str, Any]) -> Extraction:
    """«а для 32k?»: after a memory question a bare «32k» is the context length."""
    ex = message.quantities
    if (
        carried.get("tool") in MEMORY_TOOLS
        and "context_tokens" not in ex.params
        and _short_follow_up(message, carried)
        and message.bare_context is not None
    ):
        return ex.merged(message.bare_context)
    return ex


def _outcome(
    tool: str, merged: dict[str, Any], ex: Extraction, price_asked: bool, catalog: Catalog
) -> NumericOutcome:
    args = arguments_for(tool, merged)
    missing = missing_for(tool, args, price_asked, catalog)
    results = _results(tool, args, missing, ex, catalog)
    outcome = NumericOutcome(
        is_numeric=True,
        tool=tool,
        arguments=args,
        missing=missing,
        clarify_question=QUESTIONS[missing[0]] if missing else None,
        defaults=results[0].defaults if results else [],
        results=results,
        params={**merged, "tool": tool, **({"price_asked": True} if price_asked else {})},
        related_slugs=related_slugs(tool, args, catalog),
        notes_ru=list(ex.notes),
    )
    outcome.answer_ru = answer_text(outcome, catalog)
    return outcome


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
    return [t.run(args, catalog)]
