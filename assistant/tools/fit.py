"""Inference config (+ GPU, count) → fits or not, GPUs needed with tensor parallelism, fitting GPUs.

The need is the inference estimate of memory.py (weights + KV cache + 10–30 % overhead) or an
explicit `required_gb`. With tensor parallelism over N GPUs every GPU holds 1/N of the weights and
KV cache (glossary:tensor-parallelism). Verdict per GPU: "fits" when the upper estimate fits,
"tight" when only the lower one does, "no" otherwise. GPU counts are rounded up to a tensor-parallel
size (1, 2, 4, 8; beyond 8 — whole 8-GPU servers).
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import Field, model_validator

from assistant.corpus.catalog import Catalog
from assistant.errors import ToolInputError
from assistant.tools import memory
from assistant.tools.base import Computation
from assistant.tools.fields import MAX_GPUS, GpuName
from assistant.tools.memory import InferenceInput
from assistant.tools.units import NBSP, gb_text, num, sig, to_gb

SERVER_GPUS = 8


class FitInput(InferenceInput):
    gpu: GpuName | None = Field(
        default=None, description="GPU из каталога, например «H100» или «B200»"
    )
    gpus: int | None = Field(
        default=None, gt=0, le=MAX_GPUS, description="Сколько таких GPU (1 или 8 в сервере)"
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
    return low, high, f"нужно около {memory.range_text(low, high, False)} ({_what(inp, bd)})"


def _what(inp: FitInput, bd: memory.Breakdown) -> str:
    s = f"{memory.params_text(bd.params_b)} в {inp.precision.upper()}"
    if bd.kv is not None:
        s += f", KV-кэш {gb_text(to_gb(bd.kv_b))}"
    return s + f" и запас {num(inp.overhead_low_pct)}–{num(inp.overhead_high_pct)}{NBSP}%"


def _for_gpu(
    inp: FitInput, low: float, high: float, catalog: Catalog
) -> tuple[dict[str, Any], str]:
    g = catalog.gpus[inp.gpu or ""]
    n = inp.gpus or 1
    state = verdict(low / n, high / n, g.memory_gb)
    need_n = gpus_needed(high, g.memory_gb)
    where = f"одну {g.name}" if n == 1 else f"{n} × {g.name}"
    cap = f"{gb_text(g.memory_gb)}" if n == 1 else f"по {gb_text(g.memory_gb)}"
    text = {
        "fits": f"На {where} ({cap}) поместится",
        "tight": f"На {where} ({cap}) поместится впритык — только при нижней оценке запаса",
        "no": f"На {where} ({cap}) не поместится",
    }[state]
    if n > 1:
        text += f": около {gb_text(high / n)} на GPU при тензорном параллелизме"
    text += "."
    if state != "fits":
        text += f" С запасом хватит {need_n} × {g.name} ({gb_text(high / need_n)} на GPU)."
    values = {
        "gpu": g.id,
        "gpu_memory_gb": g.memory_gb,
        "gpus": n,
        "per_gpu_low_gb": sig(low / n),
        "per_gpu_high_gb": sig(high / n),
        "verdict": state,
        "fits": state == "fits",
        "gpus_needed": need_n,
        "servers_needed": math.ceil(need_n / SERVER_GPUS),
    }
    return values, text


def _catalogue(low: float, high: float, catalog: Catalog) -> tuple[list[dict[str, Any]], str]:
    options: list[dict[str, Any]] = []
    for g in sorted(catalog.gpus.values(), key=lambda x: x.memory_gb):
        options.append(
            {
                "gpu": g.id,
                "name": g.name,
                "memory_gb": g.memory_gb,
                "gpus_needed": gpus_needed(high, g.memory_gb),
            }
        )
    single = [o for o in options if o["gpus_needed"] == 1]
    tight = [o for o in options if o["gpus_needed"] > 1 and o["memory_gb"] >= low]
    note = ""
    if tight:
        names = ", ".join(f"{o['name']} ({gb_text(o['memory_gb'])})" for o in tight)
        note = f" Впритык, только при нижней оценке запаса: {names}."
    if single:
        names = ", ".join(f"{o['name']} ({gb_text(o['memory_gb'])})" for o in single)
        return options, f"Поместится на один GPU: {names}.{note}"
    server = [o for o in options if o["gpus_needed"] <= SERVER_GPUS]
    if server:
        names = ", ".join(f"{o['gpus_needed']} × {o['name']}" for o in server)
        text = f"На один GPU не поместится; с тензорным параллелизмом: {names}."
        return options, text + note
    return options, "Не поместится даже в один 8-GPU-сервер: нужен кластер из нескольких серверов."


def compute(inp: FitInput, catalog: Catalog) -> Computation:
    if inp.gpus is not None and inp.gpu is None:
        raise ToolInputError("Укажите, какие GPU: например, «8 × H100».")
    low, high, need_text = _need(inp, catalog)
    values: dict[str, Any] = {"need_low_gb": sig(low), "need_high_gb": sig(high)}
    options, catalogue_text = _catalogue(low, high, catalog)
    values["options"] = options
    values["fitting_gpus"] = [o["gpu"] for o in options if o["gpus_needed"] == 1]
    parts = [need_text[0].upper() + need_text[1:] + "."]
    assumed = [
        "при тензорном параллелизме веса и KV-кэш делятся между GPU поровну",
        "число GPU округлено до размера тензорного параллелизма: 1, 2, 4 или 8",
    ]
    if inp.gpu:
        gv, text = _for_gpu(inp, low, high, catalog)
        values.update(gv)
        parts.append(text)
        if gv["gpus_needed"] > 1 and not catalog.gpus[inp.gpu].nvlink:
            assumed.append("у этого GPU нет NVLink — обмен между картами идёт по PCIe, медленнее")
    else:
        parts.append(catalogue_text)
    if inp.required_gb is None:
        assumed.extend(memory.assumptions(inp, memory.breakdown(inp, catalog), catalog))
    formula = "на GPU = (веса + KV-кэш) × (1 + запас) ÷ число GPU; поместится, если ≤ памяти GPU"
    unused = {"model", "params_b", "layers", "kv_heads", "head_dim", "gpu", "gpus", "required_gb"}
    if inp.context_tokens == 0:
        unused |= {"kv_precision", "batch"}
    if inp.required_gb is not None:
        unused |= set(InferenceInput.model_fields)
    return Computation(formula, values, " ".join(parts), assumed, {}, frozenset(unused))


LABELS = {**memory.LABELS, "gpu": "GPU", "gpus": "число GPU", "required_gb": "потребность в памяти"}
