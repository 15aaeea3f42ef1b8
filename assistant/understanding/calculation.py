"""Parsed question (+ the previous turn's params) → Plan: the calculation it asks for, or None.

    plan = plan_calculation(reader.read("сколько памяти нужно 70B в BF16"), Params(), catalog)
    plan.tool        ToolName.vram_inference (gpu_fit, vram_training, gpu_cost)
    plan.arguments   the tool's arguments (explicit + carried; tool defaults are not included)
    plan.missing     e.g. ("precision",): the question back asks for it
    plan.runs        one argument set per result: a missing precision → BF16/FP8/FP4 side by
                     side, «BF16 или FP8?» → both, «L40S или H100?» → both cards
    plan.carry       what the next turn inherits: solve(read("а в FP8?"), plan.carry, …)
    plan.problem     "" or why the values cannot be computed (a backwards date range, a value
                     out of range: calculators/limits.py)

The plan says nothing about the results: the engine runs the calculators on `runs`
(numeric.py), and answer/ phrases the outcome. Definition and how-to questions («что такое
FP8?», «как дообучить 65B на одной карте?») are not calculations unless they explicitly ask
for one («сколько памяти нужно …»). A fresh question is a calculation only when it carries a
quantity to compute with (model or size, price, duration, context, batch), an explicit
calculation request, or asks about the egress allowance. A short follow-up («а для 32k?», «а на
8 картах?», «а за неделю?», «а если батч 16?») changes one parameter and inherits the rest; a
bare «32k» is a context length after a memory question. A server price carried into a
follow-up that changes the GPU count is split per GPU first («сервер на 8 H100 за 17 520 $» →
«а на одну карту?» = 2 190 $ в месяц).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from pydantic import BaseModel

from assistant.calculators.base import ToolResult
from assistant.calculators.limits import explain, out_of_range
from assistant.calculators.registry import ToolName, get_tool
from assistant.calculators.slugs import related_slugs
from assistant.calculators.units import HOURS_PER_MONTH
from assistant.corpus.catalog import Catalog
from assistant.errors import ToolInputError
from assistant.understanding.follow_up import (
    CARD_KEYS,
    asks_fit,
    replace_card,
    short_follow_up,
    with_follow_up,
)
from assistant.understanding.intent import CHOOSE_CARD, TAKE
from assistant.understanding.lexicon import CARD, DEFINITION, FIT, PRICE, PRICE_EN
from assistant.understanding.params import Params
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
CACHE_NOTE = "На KV-кэш точность весов не влияет"
INFERENCE_ONLY = ("precision", "context_tokens", "batch", "gpu_memory_gb", "gpu_label")


@dataclass(frozen=True)
class Plan:
    """A calculation question, understood: which calculator, with what, what is missing."""

    tool: ToolName
    arguments: Params
    missing: tuple[str, ...]
    runs: tuple[BaseModel, ...]  # the tool's own input model, validated, one per result
    carry: Params  # the next turn's parameters when the calculation runs
    salvage: Params  # … when it cannot: the values out of range dropped, the rest kept
    merged: Params  # everything known, the card's label included (for the question back)
    related_slugs: tuple[str, ...]
    slugs_without_arguments: tuple[str, ...]  # what a refusal to compute cites
    notes: tuple[str, ...]  # how a value was read («32k понимаем как 32 768 токенов»)
    problem: str = ""  # Russian: why these values cannot be computed
    price_asked: bool = False
    # the last runs are what would help if the first does not fit (understanding/diagnosis.py)
    remedies: int = 0
    cache_first: bool = False  # «сколько займёт KV-кэш?»: the cache is the answer, not the total
    count_first: bool = False  # «сколько H100 нужно?»: the cards it takes are the answer
    weights_first: bool = False  # «сколько займут одни веса?»: the weights are the answer


def choose_tool(
    ex: Extraction, prev: str | None, merged: Params, *, trouble: bool = False
) -> ToolName | None:
    """`trouble`: a problem is described («почему не лезет?»): its «почему» asks for the cause,
    which the calculation of the setup is, not for a definition."""
    p, it = ex.params, ex.intents
    # «почему у Llama 2 7B кэш больше, чем у Llama 3 8B?»: two models' caches, computed, say why
    caches = ex.kv_asked and len(ex.models) > 1
    # «Llama 70B в fp8: одна H200 или две L40S? что лучше»: a model on cards set against each
    # other is a fit of each, however «что лучше» is placed
    options = len(ex.models) == 1 and len(set(ex.gpus)) > 1
    if ex.definitional and not ex.request and not trouble and not caches and not options:
        return None
    if ex.problems:  # a date range that cannot be a rental period
        return ToolName.gpu_cost
    if "power" in it and not p.has("price_month", "price_hour"):
        return ToolName.gpu_power  # «сколько электроэнергии съедят 8 H100 за неделю»
    if prev == ToolName.gpu_power and not it & {"cost", "training", "vram"} and p:
        return ToolName.gpu_power  # «а за месяц?» after a power question: its energy
    if p.has("price_month", "price_hour") or ("cost" in it and not _aside(ex, merged)):
        return ToolName.gpu_cost
    if "training" in it or p.has("method", "sharding"):
        return ToolName.vram_training
    if prev == ToolName.vram_training and "fit" in it and not p.has(*INFERENCE_ONLY):
        return ToolName.vram_training  # «а на H100 влезет?» after a training question
    if "fit" in it and (merged.has(*SIZE) or not p.has("gpu")):
        return ToolName.gpu_fit
    if p.has(*ARCHITECTURE):
        return _upgrade(ToolName.vram_inference, p)
    if p.has("duration") and not p.has(*SIZE):  # only the cost takes a duration
        return ToolName.gpu_cost
    if "vram" in it and (merged.has(*SIZE) or not p.has("gpu")):
        return _upgrade(ToolName.vram_inference, p)
    if p.has(*SIZE) and p.has("precision", "context_tokens", "gpu", "gpus"):
        return _upgrade(ToolName.vram_inference, p)
    if prev and p:
        return _upgrade(ToolName(prev), p)
    return None


def _aside(ex: Extraction, merged: Params) -> bool:
    """«l40s или h100 — что брать? l40s же дешевле вроде», «lora или qlora? бюджет на одну
    карту»: a price word beside a model to fit or train is a reason for the choice, not a sum
    to compute; a price, a period or «сколько стоит» still asks for one."""
    p = ex.params
    sized = merged.has(*SIZE) and bool(ex.intents & {"fit", "training"})
    return sized and not ex.request and not p.has("duration", "egress")


def _upgrade(tool: ToolName, p: Params) -> ToolName:
    """A follow-up naming GPUs turns a memory question into a fit question."""
    if tool == ToolName.vram_inference and p.has("gpus", *CARD_KEYS):
        return ToolName.gpu_fit
    return tool


def merge(carried: Params, ex: Extraction, fresh: bool) -> Params:
    base = Params() if fresh else carried.without("tool")
    new = ex.params.without("compare_precisions", "compare_methods", "compare_sharding")
    if _changes_gpus_of_total_price(base, new):
        n = int(base.gpus or 1)
        split = {k: v / n for k in ("price_month", "price_hour") if (v := getattr(base, k))}
        base = base.updated(**split, price_scope="per_gpu")
    for a, b in (("params_b", "model"), ("price_month", "price_hour")):
        if new.has(a):
            base = base.without(b)
        if new.has(b):
            base = base.without(a)
    base = replace_card(base, new)
    if new.has(*SIZE):  # another model: its own architecture
        base = base.without(*ARCHITECTURE)
    architecture_only = all(base.has(k) for k in ARCHITECTURE) and not base.has(*SIZE)
    if architecture_only and new.has("precision") and not new.has(*SIZE):
        new = new.updated(kv_precision=new.precision, precision=None)  # «а в FP8?» of a cache
    return base.merged(new)


def _changes_gpus_of_total_price(base: Params, new: Params) -> bool:
    """A carried server price («за 8 карт») meets a follow-up with another GPU count."""
    return (
        base.price_scope == "total"
        and int(base.gpus or 1) > 1
        and new.has("gpus")
        and not new.has("price_month", "price_hour")
    )


def asks_calculation(message: ParsedMessage, ex: Extraction, carried: Params) -> bool:
    """A quantity to compute with, an explicit request, an egress question, or a short follow-up
    that changes a carried parameter or asks the carried calculation something new («а какие
    карты подойдут?», «а сколько из этого запас?»); otherwise a term question («как …»)."""
    if ex.params.has(*QUANTITY) or ex.request or ex.params.egress:
        return True
    if ex.problems:
        return True
    follows = short_follow_up(message, carried) or asks_fit(message, carried)
    return follows and bool(ex.params or ex.intents)


def _is_fresh(message: ParsedMessage, ex: Extraction, carried: Params) -> bool:
    if not carried or message.signals.continues:
        return False
    return bool(ex.intents) and ex.params.has(*SIZE)


def arguments_for(tool: ToolName, merged: Params) -> Params:
    return merged.only(set(get_tool(tool).input_model.model_fields))


def missing_for(
    tool: ToolName,
    args: Params,
    price_asked: bool,
    catalog: Catalog,
    merged: Params,
    ex: Extraction,
) -> tuple[str, ...]:
    out: list[str] = []
    sized = tool in (ToolName.vram_inference, ToolName.gpu_fit, ToolName.vram_training)
    architecture = tool != ToolName.vram_training and all(args.has(k) for k in ARCHITECTURE)
    if sized and not args.has(*SIZE, "required_gb") and not architecture:
        out.append("params_b")
    card = args.has("gpu", "gpu_memory_gb")
    if tool == ToolName.gpu_fit and merged.has("gpu_label") and not card:
        out.append("gpu_memory")
    elif tool == ToolName.gpu_fit and not card and _verdict_for_many(args, ex):
        out.append("gpu")  # «поместится ли 70B на 2 карты?» — на каких?
    if tool == ToolName.gpu_power and not args.has("gpu"):
        out.append("gpu")  # the TDP is the card's
    if tool == ToolName.gpu_cost and not args.has("price_month", "price_hour"):
        example = args.gpu and catalog.prices.example_month(args.gpu)
        # «у вас за исходящий трафик тоже доплачивать?»: the allowance, not a sum to compute
        traffic = args.has("egress") and not args.has("duration")
        if (
            not example
            and not ex.setups
            and not traffic
            and (price_asked or not args.has("duration", "egress"))
        ):
            out.append("price")  # usages weighed side by side: their GPU-hours decide
    if (
        tool in (ToolName.vram_inference, ToolName.gpu_fit)
        and not args.has("precision", "required_gb")
        and not (architecture and not args.has(*SIZE))
        and not _cache_only(tool, ex)
    ):
        out.append("precision")
    return tuple(out)


def _cache_only(tool: ToolName, ex: Extraction) -> bool:
    """«сколько займёт KV-кэш?»: the weights' precision does not change the cache; the weights
    are computed in BF16 and the text leads with the cache (Plan.cache_first)."""
    return tool == ToolName.vram_inference and ex.kv_asked


def _verdict_for_many(args: Params, ex: Extraction) -> bool:
    """«Поместится ли … на 2 карты?» asks a verdict that needs the card; «сколько весов на
    каждую?» does not."""
    return int(args.gpus or 1) > 1 and ex.verdict and not ex.per_card


# -- the calculation gate: is a plan what the customer asks for? ---------------------------

_ASKS_DEFINITION = re.compile(
    rf"(?<!\w)(?:что вообще (?:такое|за)|что за|{DEFINITION}|"
    r"(?:what is|what's|what are)(?! (?:the )?(?:price|cost|total)))(?!\w)"
)

# An explicit request to compute something (not «why does it not fit», which is a term question).
_CALC_ASK = re.compile(
    r"(?<!\w)(?:сколько|скока|скоко|скок|скольк\w*|посчита\w*|рассчита\w*|подсчита\w*|прикин\w*|"
    rf"оцени\w*|{FIT}(?:ится|ить|ит|ет|[её]т|ся)|хватает ли|"
    r"получится ли|подойд[её]т|подойдут|подходит ли|во что обойд\w*|почём|почем|"
    rf"как\w* {PRICE}\w*|цен[аеуы] за|на скольк\w*|how much|how many|calculate|"
    rf"estimate|fit|{PRICE_EN}|"
    r"hourly|monthly|per hour|per month|в час|за час|в месяц|как\w* сумм\w*|сумм\w*|"
    r"как\w* сч[её]т|денег|распиш\w*|распиши\w*|разбивк\w*|из чего склад\w*|"
    rf"{CHOOSE_CARD}|"
    rf"{TAKE}|хватит ли|есть ли плата|платн\w*|как\w* запас\w*|"
    r"запас\w* на накладн\w*|накладн\w* расход\w*|доплачива\w*|деньги за|бесплатн\w*|"
    r"объ[её]м\w*|лимит\w*|потян\w*|тянет|пойд[её]т ли|завед[её]тся|справится|осилит|"
    r"выдержит)(?!\w)"
)
# «какой механизм использовать», «как разрезать» — advice about a term, not a calculation.
_HOW = re.compile(
    r"(?<!\w)(?:как\w*|почему|зачем|что (?:использовать|выбрать|делать|съедает)|чем|"
    r"what|why|which)(?!\w)"
)
# how options differ («чем отличается fp8 от fp4»), not which to pick
_DIFFERS = re.compile(r"(?<!\w)(?:отлича\w*|разниц\w*|отличи\w*|differ\w*)(?!\w)")
# «what about int4?», «how about a month?»: an English follow-up opener, not a how-question
_ABOUT = re.compile(r"^(?:and )?(?:what|how) about\b")
# Without the model size there is nothing to compute: explain the term instead.
_SIZE_KEYS = frozenset({"params_b", "model"})
# Arguments that only a calculation question carries (a GPU count alone does not count).
_HARD_KEYS = frozenset(
    {"params_b", "model", "gpu", "price_month", "price_hour", "duration", "context_tokens"}
)


def wanted(
    message: ParsedMessage, missing: Sequence[str], arguments: Iterable[str], carried: bool
) -> bool:
    """A calculator answers explicit calculation requests and short follow-ups to one
    (`arguments`: the names of the arguments a plan has)."""
    t = message.tokens.folded
    arguments = set(arguments)
    if _SIZE_KEYS & set(missing) or _ASKS_DEFINITION.search(t):
        return False
    if message.signals.throughput and len(message.gpus) < 2:  # no calculator gives tok/s;
        return False  # «5090 или RTX PRO 6000? скорость важна» still asks which card fits
    if message.quantities.kv_asked and len(message.models) > 1 and not missing:
        return True  # «почему у Llama 2 7B кэш больше, чем у Llama 3 8B?»: both computed say why
    options = len(message.quantities.params.compare_precisions or ())
    if options > 1 and _SIZE_KEYS & arguments and message.signals.pick and not _DIFFERS.search(t):
        return True  # «Qwen 72B на H200 — в каком виде брать: bf16, fp8 или fp4?»: each fit
    ask = bool(_CALC_ASK.search(t))
    # the egress allowance is a number only when asked for («сколько трафика включено»)
    hard = bool(_HARD_KEYS & arguments) or (ask and "egress" in arguments)
    if carried and len(message.tokens.words) <= 8 and not missing:
        return ask or not _HOW.search(_ABOUT.sub("", t))
    if missing:  # a follow-up to a calculation gets its question back, not a term answer
        return (ask and hard) or (carried and (ask or hard))
    if _HARD_KEYS & arguments == {"duration"} and not ask:
        return False  # «стих коллеге на день рождения»: a duration alone asks for no cost
    return hard and (ask or not _HOW.search(t))


# «сколько будет стоить столько карт?» after «сколько H100 нужно …» — the count advised
_SO_MANY = re.compile(
    rf"(?<!\w)(?:столько|эти|все эти|нужное число|нужное количество) ?(?:{CARD}|штук)"
)


class Filler(Protocol):
    """Reads the arguments a plan misses from the message (an LLM's forced tool call); only
    what the customer actually said, or None."""

    def __call__(self, plan: Plan, message: ParsedMessage) -> Params | None: ...


def calculation(
    message: ParsedMessage, carried: Params, catalog: Catalog, fill: Filler | None = None
) -> Plan | None:
    """The calculation gate: the plan when a calculator answers this message, else None.

    Values that cannot be computed are always answered as such; otherwise the plan is taken
    when the customer asks for a calculation or follows one up (`wanted`). A plan missing a
    parameter is first offered to `fill`."""
    plan = plan_calculation(message, carried, catalog)
    if plan is not None and plan.missing and not plan.problem and fill is not None:
        plan = _filled(plan, message, carried, catalog, fill) or plan
    if plan is None:
        return None
    if plan.problem or wanted(message, plan.missing, plan.arguments.present(), bool(carried)):
        return plan
    return None


def _filled(
    plan: Plan, message: ParsedMessage, carried: Params, catalog: Catalog, fill: Filler
) -> Plan | None:
    filled = fill(plan, message)
    if not filled:
        return None
    retry = plan_calculation(message, carried.merged(plan.carry).merged(filled), catalog)
    if retry is None:
        return None
    return retry if len(() if retry.problem else retry.missing) < len(plan.missing) else None


def plan_calculation(
    message: ParsedMessage,
    carried: Params,
    catalog: Catalog,
    assumed: Params | None = None,
    *,
    trouble: bool = False,
) -> Plan | None:
    """The calculation this message asks for, read against what is carried, whether or not it
    is what the customer wants answered (that is `calculation`); None: none. `assumed`: values
    taken when neither the message nor the carried parameters give them; `trouble`: the
    message describes a problem (understanding/diagnosis.py)."""
    examples = catalog.prices.examples
    ex = with_follow_up(message, carried, examples[0].gpu if examples else None)
    if not asks_calculation(message, ex, carried):
        return None
    fresh = _is_fresh(message, ex, carried)
    merged = merge(carried, ex, fresh)
    if assumed is not None:
        merged = assumed.merged(merged)
    tool = choose_tool(ex, None if fresh else carried.tool, merged, trouble=trouble)
    if tool is None:
        return None
    if (
        tool == ToolName.gpu_cost
        and not ex.params.has("gpus")
        and _SO_MANY.search(message.normalised)
    ):
        merged = merged.updated(gpus=merged.gpus_advised or merged.gpus or 1)
    if tool == ToolName.vram_inference and merged.has("gpus") and ex.params.has("gpus"):
        tool = ToolName.gpu_fit
    price_asked = ex.price_words or bool(carried.price_asked and not fresh)
    return _plan(tool, merged, ex, price_asked, catalog)


def _plan(
    tool: ToolName, merged: Params, ex: Extraction, price_asked: bool, catalog: Catalog
) -> Plan:
    args = arguments_for(tool, merged)
    missing = missing_for(tool, args, price_asked, catalog, merged, ex)
    problem = (ex.problems[0] if ex.problems else "") or out_of_range(args.stored()) or ""
    runs: tuple[BaseModel, ...] = ()
    if not problem:
        try:
            runs = _validated(tool, _runs(tool, args, missing, ex), catalog)
        except ToolInputError as e:  # what the limits do not foresee (an unknown model…)
            problem = explain(e.user_message)
    cache_first = _cache_only(tool, ex) and not args.has("precision")
    notes = (*ex.notes, CACHE_NOTE) if cache_first else ex.notes
    if cache_first:  # «а при 128k?» continues with the same weights
        merged = merged.updated(precision="bf16")
    carry = merged.without("asked").updated(
        tool=tool.value,
        asked=missing[0] if missing else None,
        price_asked=True if price_asked else None,
    )
    return Plan(
        tool=tool,
        arguments=args,
        missing=missing,
        runs=runs,
        carry=carry,
        salvage=_sane(merged).updated(tool=tool.value),
        merged=merged,
        related_slugs=tuple(related_slugs(tool, args.stored(), catalog)),
        slugs_without_arguments=tuple(related_slugs(tool, {}, catalog)),
        notes=notes,
        problem=problem,
        price_asked=price_asked,
        cache_first=cache_first,
        count_first=tool == ToolName.gpu_fit and ex.count_asked,
        weights_first=tool == ToolName.vram_inference and ex.weights_asked and not cache_first,
    )


def _runs(
    tool: ToolName, args: Params, missing: tuple[str, ...], ex: Extraction
) -> tuple[Params, ...]:
    if missing == ("precision",):
        return tuple(args.updated(precision=p) for p in SIDE_BY_SIDE)
    if missing:
        return ()
    if tool == ToolName.gpu_cost and ex.setups:  # «8 карт на 10 ч или одна на 80 ч?»
        return tuple(
            args.updated(gpus=u.gpus, duration=u.duration, duration_unit=u.unit) for u in ex.setups
        )
    if tool == ToolName.gpu_cost:
        return _rentals(args, ex.params.hours_per_day)
    more = ex.params.compare_precisions or ()
    if "precision" in get_tool(tool).input_model.model_fields and len(more) > 1:
        return tuple(args.updated(precision=p) for p in more)
    if tool == ToolName.gpu_fit and args.gpu in ex.gpus and len(ex.gpus) > 1:  # «L40S или H100?»
        return _each_card(args, ex)
    methods = ex.params.compare_methods or ()
    if tool == ToolName.vram_training and len(methods) > 1:  # «фулл файнтюн или LoRA?»
        return tuple(args.updated(method=m) for m in methods)
    shardings = ex.params.compare_sharding or ()
    if tool == ToolName.vram_training and len(shardings) > 1:  # «обычный DDP или FSDP?»
        return tuple(args.updated(sharding=s) for s in shardings)
    if tool == ToolName.vram_training and args.gpu in ex.gpus and len(ex.gpus) > 1:
        return _each_card(args, ex)  # «8×H100 с FSDP или 8×B200?»
    if _cache_only(tool, ex) and len(ex.models) > 1:  # «кэш у llama 2 7b и у llama 3 8b»
        return tuple(args.updated(model=m) for m in ex.models)
    return (args,)


def _rentals(args: Params, per_day: float | None) -> tuple[Params, ...]:
    """A price by the month and one by the hour («2190$/мес или 3.20$/ч?»): both rentals for
    the same use — a month by the month, the hours used by the hour («часов 10 в сутки»: 10 ×
    730 ÷ 24 a month); one price: the hours it is used for, when said by the day."""
    used = {"duration": _hours_used(args, per_day), "duration_unit": "hours"} if per_day else {}
    if not (args.has("price_month") and args.has("price_hour")):
        return (args.updated(**used) if args.has("price_hour") else args,)
    whole = (
        {"duration": 1, "duration_unit": "months"} if per_day or not args.has("duration") else {}
    )
    return (
        args.updated(price_hour=None, **whole),
        args.updated(price_month=None, **(used or whole)),
    )


def _hours_used(args: Params, per_day: float) -> float:
    """The hours a daily use adds up to: «8 часов × 22 дня» is 176 h; a month of it is
    8 × 730 ÷ 24 (the calculators' month of 730 hours)."""
    n, unit = float(args.duration or 1), args.duration_unit
    days = {"days": n, "weeks": n * 7}.get(str(unit))
    if days is not None:
        return round(per_day * days, 1)
    month = args.hours_per_month or HOURS_PER_MONTH
    return round(per_day * _months(args) * month / 24, 1)


def _months(args: Params) -> float:
    """The months a rental with a daily use lasts (a month when none is said)."""
    n, unit = float(args.duration or 1), args.duration_unit
    return {"days": n / 30.4, "weeks": n * 7 / 30.4, "years": n * 12}.get(
        str(unit), n if unit else 1
    )


def _each_card(args: Params, ex: Extraction) -> tuple[Params, ...]:
    """One run per card named, each with the count written before it («одна h200 или две
    h100»: 1 and 2), else the count the message gives."""
    counts = dict(ex.gpu_counts)
    return tuple(
        args.updated(gpu=g, gpus=counts[g]) if g in counts else args.updated(gpu=g) for g in ex.gpus
    )


def _validated(tool: ToolName, runs: tuple[Params, ...], catalog: Catalog) -> tuple[BaseModel, ...]:
    definition = get_tool(tool)
    return tuple(definition.validate(run.stored(), catalog) for run in runs)


def _sane(merged: Params) -> Params:
    """The parameters without the values out of range: «а на 5 лет?» after «на 500 лет»
    still knows the GPU."""
    out = merged
    stored = merged.stored()
    for key, value in stored.items():
        probe = {key: value}
        if key == "duration":
            probe["duration_unit"] = stored.get("duration_unit", "hours")
        if out_of_range(probe):
            out = out.without(key)
    return out


def finite(args: Params) -> Params:
    """The arguments JSON can carry: an overflowing «1e400» (inf) is left out."""
    bad = [k for k, v in args.stored().items() if isinstance(v, float) and not math.isfinite(v)]
    return args.without(*bad)


@dataclass(frozen=True)
class Outcome:
    """A plan with what the calculators made of it: results, or why there are none."""

    plan: Plan
    results: tuple[ToolResult, ...] = ()
    rejected: str = ""  # Russian: the values cannot be computed («Посчитать не получится: …»)

    @property
    def tool(self) -> ToolName:
        return self.plan.tool

    @property
    def missing(self) -> tuple[str, ...]:
        return () if self.rejected else self.plan.missing

    @property
    def arguments(self) -> Params:
        return finite(self.plan.arguments) if self.rejected else self.plan.arguments

    @property
    def stated(self) -> tuple[ToolResult, ...]:
        """The results of what the customer asked, without the remedies computed after them."""
        k = self.plan.remedies
        return self.results[:-k] if k else self.results

    @property
    def remedies(self) -> tuple[ToolResult, ...]:
        k = self.plan.remedies
        return self.results[-k:] if k else ()

    @property
    def params(self) -> Params:
        """What the next turn inherits (a fit's advice on the GPU count included)."""
        if self.rejected:
            return self.plan.salvage
        results = self.stated
        if len(results) == 1 and results[0].tool == ToolName.gpu_fit:
            needed = results[0].values.get("gpus_needed")
            if isinstance(needed, int):
                return self.plan.carry.updated(gpus_advised=needed)
        return self.plan.carry

    @property
    def related_slugs(self) -> tuple[str, ...]:
        return self.plan.slugs_without_arguments if self.rejected else self.plan.related_slugs

    @property
    def defaults(self) -> list[str]:
        return list(self.results[0].defaults) if self.results else []
