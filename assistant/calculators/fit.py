"""Inference config (+ GPU or its memory, count) → fits or not, GPUs needed, the breakdown.

The need is the inference estimate of memory.py (weights + KV cache + 10–30 % overhead) or an
explicit `required_gb`. With tensor parallelism over N GPUs every GPU holds 1/N of the weights and
KV cache (glossary:tensor-parallelism). Verdict per GPU: "fits" when the upper estimate fits,
"tight" when only the lower one does, "no" otherwise. GPU counts are rounded up to a tensor-parallel
size (1, 2, 4, 8; beyond 8 — whole 8-GPU servers).

The GPU is a catalogue one (`gpu`), or any card given by its memory (`gpu_memory_gb`: «A6000 на
48 ГБ»), or none: then `gpus` alone splits the weights per card («405B в FP8 на 8 картах — сколько
весов на каждую?») and the catalogue's offered GPUs are listed. GPUs FullGPU does not offer
(`offered: false` in corpus/gpus.yaml) are computed when asked about and marked as such.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import Field, model_validator

from assistant.calculators import memory
from assistant.calculators.base import Arguments, Computation, GpuOption, Tool, Values
from assistant.calculators.fields import MAX_GPUS, GpuName
from assistant.calculators.memory import InferenceInput
from assistant.calculators.units import (
    NBSP,
    PRECISION_LABEL,
    exact_gb_text,
    gb_text,
    num,
    sig,
    to_gb,
)
from assistant.corpus.catalog import Catalog, Gpu
from assistant.errors import ToolInputError

SERVER_GPUS = 8


class FitInput(InferenceInput):
    gpu: GpuName | None = Field(
        default=None, description="GPU из каталога, например «H100» или «B200»"
    )
    gpus: int | None = Field(
        default=None, gt=0, le=MAX_GPUS, description="Сколько таких GPU (1 или 8 в сервере)"
    )
    gpu_memory_gb: float | None = Field(
        default=None,
        allow_inf_nan=False,
        gt=0,
        le=10_000,
        description="Память одной карты, ГБ — для GPU не из каталога («A6000 на 48 ГБ»)",
    )
    required_gb: float | None = Field(
        default=None,
        gt=0,
        le=1_000_000,
        description="Готовая потребность в памяти, ГБ (вместо модели)",
    )

    @model_validator(mode="before")
    @classmethod
    def _need(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("required_gb") is not None:
            data = {**data, "params_b": data.get("params_b") or 1.0}  # model size not needed
        return data


def tp_size(n: int) -> int:
    """Smallest tensor-parallel size ≥ n: 1, 2, 4, 8, then whole 8-GPU servers."""
    if n <= SERVER_GPUS:
        return 1 << max(0, math.ceil(math.log2(n)))
    return math.ceil(n / SERVER_GPUS) * SERVER_GPUS


def gpus_needed(need_gb: float, memory_gb: float) -> int:
    return tp_size(max(1, math.ceil(need_gb / memory_gb - 1e-9)))


def verdict(low: float, high: float, capacity: float) -> str:
    if high <= capacity + 1e-9:
        return "fits"
    if low <= capacity + 1e-9:
        return "tight"
    return "no"


def _need(inp: FitInput, catalog: Catalog) -> tuple[float, float, str]:
    if inp.required_gb is not None:
        r = inp.required_gb
        return r, r, f"нужно {gb_text(r)}"
    bd = memory.breakdown(inp, catalog)
    low, high = to_gb(bd.low), to_gb(bd.high)
    return low, high, f"нужно около {memory.range_text(low, high, False)} — {_what(inp, bd)}"


def _parts(inp: FitInput, catalog: Catalog) -> dict[str, float]:
    """The breakdown people check (weights, KV cache, overhead) and the weights per card."""
    if inp.required_gb is not None:
        return {}
    bd = memory.breakdown(inp, catalog)
    low, high = memory.overheads(bd, inp)
    n = inp.gpus or 1
    return {
        "weights_gb": sig(to_gb(bd.weights_b)),
        "kv_cache_gb": sig(to_gb(bd.kv_b)),
        "overhead_low_gb": sig(to_gb(low)),
        "overhead_high_gb": sig(to_gb(high)),
        "weights_per_gpu_gb": sig(to_gb(bd.weights_b) / n),
    }


def _what(inp: FitInput, bd: memory.Breakdown) -> str:
    """«веса 65,52 ГБ (32,76 млрд параметров × 2 байта, BF16), KV-кэш 1,07 ГБ и запас 10–30 %»:
    the weights in the text, not only in the table (screen readers, previews and copies read
    it), with the rule of thumb they follow, as the VRAM estimate states them."""
    s = (
        f"веса {exact_gb_text(to_gb(bd.weights_b))} ({memory.params_text(bd.params_b)} × "
        f"{memory.bytes_text(bd.bytes_per_param)}, {PRECISION_LABEL[inp.precision]})"
    )
    if bd.kv is not None:
        s += f", KV-кэш {gb_text(to_gb(bd.kv_b))}"
        if inp.batch > 1:  # «на 60 одновременных запросов»: what makes the cache this large
            s += f" на {memory.sequences(inp.batch)}"
    return s + f" и запас {num(inp.overhead_low_pct)}–{num(inp.overhead_high_pct)}{NBSP}%"


def _card(inp: FitInput, catalog: Catalog) -> tuple[str, str, float]:
    """(id or "", name for a sentence, memory GB) of the card asked about."""
    if inp.gpu is not None:
        g = catalog.gpus[inp.gpu]
        return g.id, g.name, g.memory_gb
    memory_gb = inp.gpu_memory_gb or 0.0
    return "", f"карту с {gb_text(memory_gb)}", memory_gb


def _for_gpu(inp: FitInput, low: float, high: float, catalog: Catalog) -> tuple[Values, str]:
    gid, name, memory_gb = _card(inp, catalog)
    n = inp.gpus or 1
    state = verdict(low / n, high / n, memory_gb)
    need_n = gpus_needed(high, memory_gb)
    if gid:
        where = f"одну {name}" if n == 1 else f"{n} × {name}"
        # the cards' memory together is what the weights are split over: «всего 320 ГБ»
        total = f"по {gb_text(memory_gb)}, всего {gb_text(memory_gb * n)}"
        cap = f"{gb_text(memory_gb)}" if n == 1 else total
        many = f"{need_n} × {catalog.gpus[gid].short}"  # the full name was just said
    else:
        where = name if n == 1 else f"{n} карты по {gb_text(memory_gb)}"
        cap = "память указана в вопросе"
        many = f"{need_n} таких карт"
    text = {
        "fits": f"На {where} ({cap}) поместится",
        "tight": f"На {where} ({cap}) поместится впритык, только при нижней оценке запаса",
        "no": f"На {where} ({cap}) не поместится",
    }[state]
    more = []
    if n > 1:
        span = memory.range_text(low / n, high / n, False)
        more.append(f"При тензорном параллелизме это около {span} на GPU.")
    if state != "fits":
        span = memory.range_text(low / need_n, high / need_n, False)
        more.append(f"С запасом хватит {many} (около {span} на GPU).")
    if gid and not catalog.gpus[gid].offered:
        more.append(f"{name} FullGPU не предлагает — это расчёт для сравнения.")
    text = " | ".join([text, *more])  # the verdict, then what follows: split by compute()
    values: Values = {"gpu": gid} if gid else {}
    values |= {
        "gpu_memory_gb": memory_gb,
        "gpus": n,
        "total_memory_gb": memory_gb * n,
        "per_gpu_low_gb": sig(low / n),
        "per_gpu_high_gb": sig(high / n),
        "verdict": state,
        "fits": state == "fits",
        "gpus_needed": need_n,
        "servers_needed": math.ceil(need_n / SERVER_GPUS),
    }
    return values, text


def _option(g: Gpu, high: float) -> GpuOption:
    need = gpus_needed(high, g.memory_gb)
    return {
        "gpu": g.id,
        "name": g.name,
        "memory_gb": g.memory_gb,
        "gpus_needed": need,
        "offered": g.offered,
    }


def _catalogue(
    low: float, high: float, catalog: Catalog, asked: str | None = None
) -> tuple[list[GpuOption], str]:
    """Options: the GPUs FullGPU offers, plus the one asked about if it is not offered (marked);
    the sentence names offered GPUs only."""
    shown = [g for g in catalog.gpus.values() if g.offered or g.id == asked]
    options = [_option(g, high) for g in sorted(shown, key=lambda x: x.memory_gb)]
    offered = [o for o in options if o["offered"]]
    single = [o for o in offered if o["gpus_needed"] == 1]
    tight = [o for o in offered if o["gpus_needed"] > 1 and o["memory_gb"] >= low]
    note = ""
    if tight:
        names = ", ".join(f"{o['name']} ({gb_text(o['memory_gb'])})" for o in tight)
        note = f" Впритык, только при нижней оценке запаса: {names}."
    if single:
        names = ", ".join(f"{o['name']} ({gb_text(o['memory_gb'])})" for o in single)
        return options, f"Поместится на один GPU: {names}.{note}"
    server = [o for o in offered if o["gpus_needed"] <= SERVER_GPUS]
    if server:
        names = ", ".join(f"{o['gpus_needed']} × {o['name']}" for o in server)
        text = f"На один GPU не поместится; с тензорным параллелизмом: {names}."
        return options, text + note
    return options, "Не поместится даже в один 8-GPU-сервер: нужен кластер из нескольких серверов."


def _per_card(inp: FitInput, low: float, high: float, parts: dict[str, float]) -> str:
    """«На каждой из 8 карт: около 50,6 ГБ весов, с KV-кэшем и запасом 56–66 ГБ.»"""
    n = inp.gpus or 1
    weights = parts.get("weights_per_gpu_gb")
    what = f"около {gb_text(float(weights))} весов, " if weights is not None else ""
    span = memory.range_text(low / n, high / n, False)
    return (
        f"При тензорном параллелизме на {n} GPU на каждой карте: {what}"
        f"с KV-кэшем и запасом около {span}."
    )


def compute(inp: FitInput, catalog: Catalog) -> Computation:
    inp = memory.with_default_context(inp)
    if inp.gpu is not None and inp.gpu_memory_gb is not None:
        raise ToolInputError("Укажите либо GPU из каталога, либо память карты, а не то и другое.")
    low, high, need_text = _need(inp, catalog)
    values: Values = {"need_low_gb": sig(low), "need_high_gb": sig(high)}
    parts_values = _parts(inp, catalog)
    values.update(parts_values)
    options, catalogue_text = _catalogue(low, high, catalog, inp.gpu)
    values["options"] = options
    values["fitting_gpus"] = [o["gpu"] for o in options if o["gpus_needed"] == 1 and o["offered"]]
    parts = [need_text[0].upper() + need_text[1:] + "."]
    assumed = [
        "при тензорном параллелизме веса и KV-кэш делятся между GPU поровну",
        "число GPU округлено до размера тензорного параллелизма: 1, 2, 4 или 8",
    ]
    n = inp.gpus or 1
    values["per_gpu_low_gb"], values["per_gpu_high_gb"] = sig(low / n), sig(high / n)
    if inp.gpu or inp.gpu_memory_gb:
        gv, text = _for_gpu(inp, low, high, catalog)
        values.update(gv)
        verdict_text, *more = text.split(" | ")
        parts = [f"{verdict_text}: {need_text}.", *more]  # the verdict first, then the need
        nvlink = catalog.gpus[inp.gpu].nvlink if inp.gpu else True
        needed = gv["gpus_needed"]
        if isinstance(needed, int) and needed > 1 and not nvlink:
            assumed.append("у этого GPU нет NVLink — обмен между картами идёт по PCIe, медленнее")
    else:
        if inp.gpus is not None and inp.gpus > 1:
            parts.append(_per_card(inp, low, high, parts_values))
            values["gpus"] = inp.gpus
        parts.append(catalogue_text)
    if inp.required_gb is None:
        assumed.extend(memory.assumptions(inp, memory.breakdown(inp, catalog), catalog))
    formula = "на GPU = (веса + KV-кэш) × (1 + запас) ÷ число GPU; поместится, если ≤ памяти GPU"
    unused = {"model", "params_b", "layers", "kv_heads", "head_dim", "gpu", "gpus", "required_gb"}
    unused |= {"gpu_memory_gb"}
    if inp.context_tokens == 0:
        unused |= {"kv_precision", "batch"}
    if inp.required_gb is not None:
        unused |= set(InferenceInput.model_fields)
    derived = {"context_tokens": inp.context_tokens}
    return Computation(formula, values, " ".join(parts), assumed, derived, frozenset(unused))


LABELS = {
    **memory.LABELS,
    "gpu": "GPU",
    "gpus": "число GPU",
    "gpu_memory_gb": "память карты",
    "required_gb": "потребность в памяти",
}

DESCRIPTION = (
    "Поместится ли модель на GPU или сервер (1 или 8 GPU), сколько GPU нужно с "
    "тензорным параллелизмом и какие GPU из каталога подходят."
)


def related(args: Arguments, catalog: Catalog) -> list[str]:
    """The memory entries of the inference estimate, then tensor parallelism."""
    return [*memory.related(args, catalog), "tensor-parallelism"]


TOOL = Tool(
    "gpu_fit",
    DESCRIPTION,
    FitInput,
    compute,
    LABELS,
    title="Подбор GPU",
    short="подбор GPU",
    source="Расчёт: подбор GPU по каталогу",
    headline=("need_low_gb", "need_high_gb"),
    related=related,
)
