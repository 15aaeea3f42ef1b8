"""A memory calculation's outcome → the sentences that diagnose it: the cause (what the setup
needs against what the card has), what would help by the same calculator's figures, and the
glossary entries that say how.

    shown(outcome)                 the results an answer states (remedies only when it does not fit)
    cause(result)                  «На одну NVIDIA H100 SXM (80 ГБ) не поместится: нужно…»
    remedies(outcome, catalog)     «Что поможет по расчёту: в FP8 — около 79–94 ГБ, …»
    remedy_slugs(result, catalog)  ["quantization", "tensor-parallelism"]
    how_it_helps(entry)            «Квантование: расход памяти снижается примерно…»

The remedies are the plan's last runs (understanding/diagnosis.py): the lighter variants the
calculators were asked for; every figure here is theirs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.answer.compose import is_reference, standalone
from assistant.calculators.base import ToolResult
from assistant.calculators.memory import range_text, sequences
from assistant.calculators.training import WHOLE_ON_EACH
from assistant.calculators.units import gb_text
from assistant.corpus.catalog import Catalog
from assistant.corpus.glossary import Entry
from assistant.text.sentences import split_sentences
from assistant.understanding.calculation import Outcome

# what helps when a model does not fit, per calculation (the entries that say how), in order
_ENTRIES = {
    "inference": ("quantization", "tensor-parallelism"),
    "full": ("lora", "qlora", "zero", "fsdp"),
    "lora": ("qlora", "zero"),
    "qlora": ("zero", "fsdp"),
}
_METHOD = {"lora": "с LoRA", "qlora": "с QLoRA"}
CACHE = "kv-cache"  # a cause more than a remedy: what it grows with is what to change
_LONG_CONTEXT = 4096  # the default the calculators assume; more is the customer's own choice
VARIED = ("precision", "method", "sharding", "gpus")  # what a remedy changes: its card shows it
_SHORT = "Скорее всего, не хватает видеопамяти"
_MOSTLY = 0.75  # weights over this share of a card's memory leave little for the KV cache
_MEMORY = re.compile(r"(?<![\w])(?:видео)?памят", re.IGNORECASE)
_SPEED = re.compile(r"\d\s?[ГТ]Б/с")
_EXPERTS = re.compile(r"эксперт")
_LOAD = re.compile(r"числом одновременных запросов")  # the KV-cache entry's words


def fits(r: ToolResult) -> bool:
    return r.values.get("verdict") == "fits" or r.values.get("fits") is True


def shown(outcome: Outcome) -> list[ToolResult]:
    """What was asked, and what would help only when it does not fit."""
    stated = list(outcome.stated)
    if not stated or fits(stated[0]):
        return stated
    return stated + _chosen(stated[0], outcome.remedies)


def _chosen(first: ToolResult, extra: Sequence[ToolResult]) -> list[ToolResult]:
    return _training(extra) if first.tool == "vram_training" else list(extra)


def cause(first: ToolResult) -> str:
    """The customer's own setup as the calculator states it, after the diagnosis when it does
    not fit; weights that fill most of the card leave the KV cache no room («No available
    memory for the cache blocks»): that is the cause, so it is said first."""
    v, gib = first.values, bool(first.inputs.get("gib"))
    text = first.summary_ru  # gpu_fit opens with the verdict: «На одну H100 не поместится: …»
    # training opens with the need; a problem reported on no card named ran out of memory too
    if first.tool == "vram_training" and v.get("fits") is not True:
        text = _whole_on_each_first(text)
        text = f"{_SHORT}: {text[0].lower()}{text[1:]}"
    if cache_outgrows(first):  # «на 40 юзерах память кончается»: the cache, not the weights
        kv, w = (
            gb_text(_float(v.get("kv_cache_gb")), gib),
            gb_text(_float(v.get("weights_gb")), gib),
        )
        load = int(_float(first.inputs.get("batch")))
        return (
            f"Скорее всего, память занимает KV-кэш: на {sequences(load)} он требует {kv} — больше, "
            f"чем сами веса ({w}). {text}"
        )
    weights, memory = _float(v.get("weights_per_gpu_gb")), _float(v.get("gpu_memory_gb"))
    if memory and _MOSTLY <= weights / memory < 1:  # the cause itself, before its figures
        share = f"{gb_text(weights, gib)} из {gb_text(memory, gib)}"
        n = first.inputs.get("gpus")
        if isinstance(n, int) and n > 1:  # the whole before the share of each card
            # «суммарных»: the cards' memory together, as the fit states it («всего 160 ГБ»)
            whole = f"{gb_text(weights * n, gib)} из суммарных {gb_text(memory * n, gib)}"
            share = f"{whole} (по {share} на каждой из {n} GPU)"
        return f"Одни веса занимают {share} — на KV-кэш и буферы движка остаётся мало места. {text}"
    return text


def cache_outgrows(r: ToolResult) -> bool:
    """Many requests at once whose KV cache needs more than the weights: what grows with the
    load is the cache, so it is the cause of memory running out as users come."""
    batch = _float(r.inputs.get("batch"))
    kv, weights = _float(r.values.get("kv_cache_gb")), _float(r.values.get("weights_gb"))
    return r.tool in ("vram_inference", "gpu_fit") and batch > 1 and kv > weights > 0


def _whole_on_each_first(text: str) -> str:
    """Several GPUs without (full) sharding: what every one of them holds is the cause, so that
    sentence of the calculator's leads («без шардирования каждый из 8 GPU хранит полную
    копию…»), then the need and the rest."""
    sents = split_sentences(text)
    whole = [s for s in sents if any(p in s for p in WHOLE_ON_EACH)]
    return " ".join([*whole, *(s for s in sents if s not in whole)]) if whole else text


def _float(value: object) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def grows_with_load(entry: Entry) -> str:
    """The KV-cache entry's sentence on what it grows with, concurrent requests among them."""
    found = [x for x in split_sentences(entry.text) if _LOAD.search(x)]
    return standalone(entry, found[0]) if found else ""


def with_speed(entry: Entry) -> str:
    """The entry's first sentence that gives a link's speed («около 64 ГБ/с», «900 ГБ/с»)."""
    found = [x for x in split_sentences(entry.text) if _SPEED.search(x)]
    return found[0] if found else ""


def experts_held(entry: Entry) -> str:
    """The MoE entry's sentence that every expert is held in GPU memory (its memory sentence)."""
    found = [x for x in split_sentences(entry.text) if _MEMORY.search(x) and _EXPERTS.search(x)]
    return found[0] if found else how_it_helps(entry)


def how_it_helps(entry: Entry) -> str:
    """The entry's sentence about memory («Расход памяти снижается…»), standing alone; its
    definition when it has none."""
    sentences = split_sentences(entry.text)
    memory = [x for x in sentences[1:] if _MEMORY.search(x) and not is_reference(x, entry)]
    if memory:
        return standalone(entry, memory[0])
    return sentences[0] if sentences else ""


def remedies(outcome: Outcome, catalog: Catalog) -> str:
    """One sentence with the figures of what would help, "" when it fits or nothing would."""
    results = shown(outcome)[len(outcome.stated) :]
    lines = [
        _trained(r, catalog) if r.tool == "vram_training" else _inference(r, catalog)
        for r in results
    ]
    lines = [line for line in lines if line]
    return f"Что поможет по расчёту: {'; '.join(lines)}." if lines else ""


def stated_slugs(outcome: Outcome) -> list[str]:
    """The entries of the remedies an answer states («с QLoRA — …» cites QLoRA), in order."""
    out: list[str] = []
    for r in shown(outcome)[len(outcome.stated) :]:
        method, sharding = r.inputs.get("method"), r.inputs.get("sharding")
        if r.tool != "vram_training":
            out.append("quantization")
        elif method in ("lora", "qlora"):
            out.append(str(method))
        elif sharding not in (None, "none"):
            out.append("zero")
    return list(dict.fromkeys(out))


def remedy_slugs(first: ToolResult, catalog: Catalog) -> list[str]:
    """The entries that say what helps: for inference quantisation and tensor parallelism (the
    KV cache first when a long context or many requests make it large, MoE first when all its
    experts must be held); for training LoRA, QLoRA and sharding, the lighter ones first."""
    inputs = first.inputs
    if first.tool == "vram_training":
        return list(_ENTRIES.get(str(inputs.get("method") or "full"), _ENTRIES["full"]))
    out = list(_ENTRIES["inference"])
    context, batch = _int(inputs.get("context_tokens")), _int(inputs.get("batch")) or 1
    if context > _LONG_CONTEXT or batch > 1:
        out.insert(0, CACHE)
    model = catalog.models.get(str(inputs.get("model") or ""))
    if model is not None and model.active_b is not None:
        out.insert(0, "moe")  # «активно только 22B»: every expert is in memory all the same
    return out


def _int(value: object) -> int:
    return int(value) if isinstance(value, int | float) else 0


def _where(r: ToolResult, catalog: Catalog) -> tuple[str, str]:
    """(«H100 SXM» or «2 × L40S», the card's short name) of a result's setup; a card known by
    its memory only is «карту с 24 ГБ», «2 × карты по 24 ГБ»."""
    gpu = catalog.gpus.get(str(r.values.get("gpu") or r.inputs.get("gpu") or ""))
    n = _int(r.inputs.get("gpus")) or 1
    if gpu is None:
        memory = gb_text(_float(r.values.get("gpu_memory_gb")), bool(r.inputs.get("gib")))
        return (f"карту с {memory}" if n == 1 else f"{n} карты по {memory}"), f"карты по {memory}"
    return (gpu.short if n == 1 else f"{n} × {gpu.short}"), gpu.short


def _inference(r: ToolResult, catalog: Catalog) -> str:
    """«в FP8 — около 79–94 ГБ, на H100 SXM впритык»."""
    v, gib = r.values, bool(r.inputs.get("gib"))
    n = _int(r.inputs.get("gpus")) or 1
    lo, hi = v.get("per_gpu_low_gb"), v.get("per_gpu_high_gb")
    if not isinstance(lo, int | float) or not isinstance(hi, int | float):
        return ""
    per = " на GPU" if n > 1 else ""
    label = str(r.inputs.get("precision") or "").upper()
    where, name = _where(r, catalog)
    verdict = v.get("verdict")
    if verdict == "fits":
        tail = f"поместится на {where}"
    elif verdict == "tight":
        tail = f"на {where} впритык"
    elif verdict == "no":
        tail = f"на {where} не поместится, хватит {_int(v.get('gpus_needed'))} × {name}"
        if name.startswith("карты по"):  # «хватит 2 карты по 24 ГБ»
            tail = f"на {where} не поместится, хватит {_int(v.get('gpus_needed'))} {name}"
    else:
        tail = ""
    span = range_text(float(lo), float(hi), gib)
    return f"в {label} — около {span}{per}" + (f", {tail}" if tail else "")


def _training(rest: Sequence[ToolResult]) -> list[ToolResult]:
    """LoRA on the same card (QLoRA too when LoRA does not fit), then the fewest GPUs with
    ZeRO-3 that fit (the most when none does)."""
    lora = [r for r in rest if r.inputs.get("method") == "lora"]
    out = lora + [r for r in rest if r.inputs.get("method") == "qlora" and not any(map(fits, lora))]
    sharded = [
        r
        for r in rest
        if r.inputs.get("method") == "full" and r.inputs.get("sharding") not in (None, "none")
    ]
    fitting = [r for r in sharded if r.values.get("fits") is True]
    return out + (fitting or sharded[-1:])[:1]


def _trained(r: ToolResult, catalog: Catalog) -> str:
    """«с LoRA — около 17 ГБ, поместится на L40S», «с ZeRO-3 на 4 GPU — около 32 ГБ на GPU»."""
    gib = bool(r.inputs.get("gib"))
    per = r.values.get("per_gpu_gb")
    if not isinstance(per, int | float):
        return ""
    n = _int(r.inputs.get("gpus")) or 1
    how = _METHOD.get(str(r.inputs.get("method")), "")
    if not how:  # a full fine-tune spread over more GPUs
        how = f"полное дообучение с ZeRO-3 на {n} GPU"
    elif n > 1:
        how += f" на {n} GPU"
    figure = gb_text(float(per), gib) + (" на GPU" if n > 1 else "")
    fits = r.values.get("fits")
    _, name = _where(r, catalog)
    tail = "" if fits is None else f", {'поместится' if fits else 'не поместится'} на {name}"
    return f"{how} — около {figure}{tail}"
