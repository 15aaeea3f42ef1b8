"""Catalogue GPUs → citable spec sheets, and the sentences an answer states from them.

    sheet = spec_entry(catalog.gpus["h100-sxm"])   # an Entry: «Характеристики NVIDIA H100 SXM»
    sheet.text   «NVIDIA H100 SXM — GPU на архитектуре Hopper, форм-фактор SXM. Память — 80 ГБ
                  HBM3, пропускная способность памяти — 3,35 ТБ/с. …»
    fact_sentence(gpu, "memory")    «У NVIDIA H100 SXM 80 ГБ памяти HBM3, пропускная
                                     способность — 3,35 ТБ/с»
    comparison_lead(gpus, focus)    «Главное различие — память: …»

A spec sheet is an Entry like a glossary one (slug «gpu-<id>», url «/gpus/<id>»): the composer
cites it, the guard checks every figure of an answer against its sentences, the LLM prompt lists
it among the sources, and /gpus/<id> shows it with the source of every figure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from assistant.calculators.units import NBSP, bandwidth, gb_text, num
from assistant.corpus.catalog import Catalog, Gpu
from assistant.corpus.glossary import Entry

FIELDS: tuple[str, ...] = (
    "memory",
    "bandwidth",
    "compute",
    "fp4",
    "fp8",
    "tdp",
    "interconnect",
    "form",
    "offered",
    "overview",
)
PREFIX = "gpu-"


def sheet_slug(gpu_id: str) -> str:
    return PREFIX + gpu_id


def short_name(gpu: Gpu) -> str:
    """«NVIDIA GB300 NVL72 (на один GPU)» → «NVIDIA GB300 NVL72»: the name inside a sentence."""
    return gpu.name.split(" (")[0]


def _tflops(value: float | None) -> str:
    return f"{num(value)}{NBSP}TFLOPS" if value is not None else ""


def _bandwidth(gpu: Gpu) -> str:
    return bandwidth(gpu.bandwidth_tbs)


def _memory(gpu: Gpu) -> str:
    return f"{num(gpu.memory_gb)}{NBSP}ГБ {gpu.memory_type}"


def _no_bf16(gpu: Gpu) -> bool:
    return gpu.bf16_tflops is None and gpu.sources.get("bf16_tflops", "").startswith("нет BF16")


def no_fp8(gpu: Gpu) -> bool:
    """The sheet says the card has no FP8 (an unknown rate is no such statement)."""
    return gpu.fp8_tflops is None and gpu.sources.get("fp8_tflops", "").startswith("нет FP8")


def sheet_sentences(gpu: Gpu) -> dict[str, str]:
    """One sentence per field, each naming the GPU: every figure stands next to its card."""
    name = short_name(gpu)
    rates = ", ".join(f"{p} — {_tflops(v)}" for p, v in _peaks(gpu))
    if rates:
        compute_text = f"Пиковая производительность {name} без разреженности: {rates}."
    elif _no_bf16(gpu):
        compute_text = f"{name} не поддерживает BF16."
    else:
        compute_text = ""
    if _no_bf16(gpu) and rates:
        compute_text += f" BF16 {name} не поддерживает."
    if no_fp8(gpu) and compute_text:  # «fp8e4nv not supported» on an A100: its sheet says so
        compute_text += f" FP8 {name} не поддерживает."
    fp4 = "поддерживает FP4 аппаратно" if gpu.fp4_support else "не поддерживает FP4 аппаратно"
    out: dict[str, str] = {
        "memory": f"У {name} {num(gpu.memory_gb)}{NBSP}ГБ памяти {gpu.memory_type}, "
        f"пропускная способность памяти — {_bandwidth(gpu)}.",
        "bandwidth": f"Пропускная способность памяти {name} — {_bandwidth(gpu)} ({_memory(gpu)}).",
        "compute": compute_text,
        "fp4": f"{name} {fp4}.",
        "fp8": _fp8_support(gpu, name),
        # «какой TDP у B300?»: the sheet has none, and saying so beats its memory
        "tdp": f"TDP {name} — {num(gpu.tdp_w)}{NBSP}Вт."
        if gpu.tdp_w
        else f"TDP {name} в каталоге FullGPU не указан.",
        "interconnect": f"Связь между GPU у {name}: {gpu.interconnect}"
        + ("." if gpu.nvlink else ", NVLink нет."),  # «у RTX 5090 NVLink нет» is then backed
        "form": f"{name} — GPU на архитектуре {gpu.architecture}, форм-фактор {gpu.form_factor}.",
        "offered": f"{name} есть в аренде у FullGPU."
        if gpu.offered
        else f"FullGPU не предлагает {name} в аренду.",
        "overview": _overview(gpu, name, rates),
    }
    return {k: v for k, v in out.items() if v}


# what a card without FP4 in hardware does with 4-bit weights (the FP4 entry)
FP4_HELD = "веса в FP4 она хранит, но вычисления в FP4 не ускоряет"


def _fp8_support(gpu: Gpu, name: str) -> str:
    """«у l40s есть fp8?»: from its FP8 rate, or its sheet's «нет FP8»; "" when it says neither."""
    if gpu.fp8_tflops:
        return f"{name} поддерживает FP8: {_tflops(gpu.fp8_tflops)} без разреженности."
    return f"{name} не поддерживает FP8." if no_fp8(gpu) else ""


def _overview(gpu: Gpu, name: str, rates: str) -> str:
    """The card in one sentence, for a comparison: compute, power, link, FP4, FullGPU."""
    # a card FullGPU does not rent out says so first: «у вас A100 вообще есть?» is often asked
    named = name if gpu.offered else f"{name} (FullGPU её не предлагает)"
    parts = [f"{named}: {rates}" if rates else named]
    if _no_bf16(gpu):
        parts.append("без BF16")
    if gpu.tdp_w:
        parts.append(f"TDP {num(gpu.tdp_w)}{NBSP}Вт")
    link = gpu.interconnect
    # «PCIe Gen5 x16» alone does not tell a customer the cards have no NVLink; the sheet does
    link += ", без NVLink" if not gpu.nvlink and "PCIe" in link else ""
    parts.append(f"связь между GPU — {link}")
    parts.append("FP4 аппаратно" if gpu.fp4_support else "без аппаратной поддержки FP4")
    parts += ["есть в аренде у FullGPU"] if gpu.offered else []
    return ", ".join(parts) + "."


def spec_entry(gpu: Gpu) -> Entry:
    """The GPU's spec sheet as a citable source."""
    text = " ".join(sheet_sentences(gpu)[f] for f in FIELDS if f in sheet_sentences(gpu))
    return Entry(
        slug=sheet_slug(gpu.id),
        title=f"Характеристики {short_name(gpu)}",
        english=gpu.name,
        aliases=tuple(gpu.aliases),
        related=(),
        see_also=(),
        text=text,
        url=f"/gpus/{gpu.id}",
    )


def spec_entries(catalog: Catalog) -> dict[str, Entry]:
    return {sheet_slug(g.id): spec_entry(g) for g in catalog.gpus.values()}


def fact_sentences(gpu: Gpu, fields: Sequence[str]) -> list[str]:
    """What was asked of one card, in the order asked; the memory when nothing in particular;
    for what no sheet carries («частота», «RT-ядра»), that it is not there and what is."""
    sentences = sheet_sentences(gpu)
    if "unlisted" in fields:
        sentences["unlisted"] = (
            f"Этой характеристики {short_name(gpu)} в каталоге FullGPU нет: в нём — память, "
            f"пропускная способность, {_rates_held(gpu)}TDP и связь между GPU."
        )
    asked = [f for f in fields if f in sentences and f != "overview"] or ["memory"]
    if "bandwidth" in asked and "memory" in asked:  # «пропускная способность памяти»
        asked.remove("memory")
    return [sentences[f] for f in dict.fromkeys(asked)]


def _peaks(gpu: Gpu) -> list[tuple[str, float]]:
    """(precision, TFLOPS) for each peak the card's sheet holds, in the sheet's order."""
    rates = (("BF16", gpu.bf16_tflops), ("FP8", gpu.fp8_tflops), ("FP4", gpu.fp4_tflops))
    return [(p, v) for p, v in rates if v]


def _rates_held(gpu: Gpu) -> str:
    """«пиковая производительность в BF16 и FP8 (TFLOPS), »: the precisions this card's sheet
    has a peak for, so that no precision it lacks (FP4 on an H100) is named beside it."""
    held = [p for p, _ in _peaks(gpu)]
    if not held:
        return ""
    names = held[0] if len(held) == 1 else f"{', '.join(held[:-1])} и {held[-1]}"
    return f"пиковая производительность в {names} (TFLOPS), "


def unknown(gpu: Gpu, fields: Sequence[str]) -> bool:
    """Every spec asked of the card is one its sheet lacks: the question is not answered."""
    asked = [f for f in fields if f not in ("offered", "overview")]
    sheet = sheet_sentences(gpu)
    return bool(asked) and all(
        f == "unlisted" or (f == "tdp" and not gpu.tdp_w) or f not in sheet for f in asked
    )


_FOCUS_WORDS: dict[str, str] = {
    "memory": "память",
    "bandwidth": "пропускная способность памяти",
    "compute": "производительность",
    "tdp": "энергопотребление",
    "interconnect": "связь между GPU",
    "fp4": "поддержка FP4",
    "fp8": "поддержка FP8",
}


def _focus_value(gpu: Gpu, focus: str) -> str:
    if focus in ("memory", "bandwidth"):
        return f"{_memory(gpu)} и {_bandwidth(gpu)}"
    if focus == "compute":
        parts = [f"BF16 {_tflops(gpu.bf16_tflops)}" if gpu.bf16_tflops else ""]
        parts.append(f"FP8 {_tflops(gpu.fp8_tflops)}" if gpu.fp8_tflops else "")
        return ", ".join(p for p in parts if p) or "нет данных производителя"
    if focus == "tdp":
        return f"TDP {num(gpu.tdp_w)}{NBSP}Вт" if gpu.tdp_w else "TDP не опубликован"
    if focus == "interconnect":  # as the sheet says it: «PCIe Gen5 x16, NVLink нет»
        return gpu.interconnect if gpu.nvlink else f"{gpu.interconnect}, NVLink нет"
    return "есть" if gpu.fp4_support else "нет"


def _widest(gpus: Sequence[Gpu]) -> str:
    """The spec the cards differ in most, by the ratio of the larger figure to the smaller:
    memory for H100 and H200 (141 against 80 ГБ), compute for A100 and H100 (989 against 312
    TFLOPS, the same 80 ГБ); memory when nothing else differs more."""
    specs = (
        ("memory", [g.memory_gb for g in gpus]),
        ("bandwidth", [g.bandwidth_tbs for g in gpus]),
        ("compute", [g.bf16_tflops for g in gpus]),
    )
    ratios: dict[str, float] = {}
    for focus, values in specs:
        known = [v for v in values if v]
        if len(known) == len(values):
            ratios[focus] = max(known) / min(known)
    widest = max(ratios, key=lambda f: ratios[f], default="memory")
    return widest if ratios.get(widest, 1.0) > ratios.get("memory", 1.0) else "memory"


def comparison_lead(gpus: Sequence[Gpu], numbers: Sequence[int], fields: Sequence[str]) -> str:
    """«Главное различие — память: у H100 SXM — 80 ГБ HBM3 и 3,35 ТБ/с [1], у H200 — 141 ГБ
    HBM3e и 4,8 ТБ/с [2].» Each card's figures end with its own sheet's marker."""
    asked = next((f for f in fields if f in _FOCUS_WORDS), "")
    if asked and len({_focus_value(g, asked) for g in gpus}) == 1:
        asked = ""  # «по tflops вроде одно и то же»: no difference there; what differs leads
    focus = asked or _widest(gpus)
    lead = f"Главное различие — {_FOCUS_WORDS[focus]}: {_each(gpus, numbers, focus)}."
    if focus in ("memory", "bandwidth"):
        return lead
    # the cards' memory is what a fit question turns on: said in the same sentence even when
    # it is not the main difference, or another was asked («…; память: у A100 80GB — 80 ГБ…»)
    return f"{lead[:-1]}; память: {_each(gpus, numbers, 'memory')}."


def use_verdict(gpus: Sequence[Gpu], numbers: Sequence[int], terms: Iterable[str]) -> str:
    """The card for the work the customer names, by the sheets' figures: FP4 — the one that
    computes in it, or the faster one; tensor or expert parallelism — the one with NVLink; a
    mixture of experts — the one with more memory (every expert is held). «Для этой задачи
    разумнее NVIDIA B300: в FP4 — 13 500 TFLOPS [2] против 9 000 TFLOPS у NVIDIA B200 [1];
    памяти — 288 ГБ [2] против 180 ГБ у NVIDIA B200 [1].» Each figure is followed by its own
    sheet's marker. "" when the work names none of these, or they pull apart."""
    if len(gpus) != 2:
        return ""
    named, mark = set(terms), dict(zip((g.id for g in gpus), numbers, strict=True))

    def against(best: Gpu, label: str, value: Callable[[Gpu], str]) -> tuple[Gpu, str]:
        other = next(g for g in gpus if g is not best)
        return best, (
            f"{label} — {value(best)} [{mark[best.id]}] против {value(other)} у "
            f"{short_name(other)} [{mark[other.id]}]"
        )

    reasons: list[tuple[Gpu, str]] = []
    if "fp4" in named:
        able = [g for g in gpus if g.fp4_support]
        if len(able) == 1:
            reasons.append((able[0], f"FP4 аппаратно поддерживает только она [{mark[able[0].id]}]"))
        elif all(g.fp4_tflops for g in gpus) and gpus[0].fp4_tflops != gpus[1].fp4_tflops:
            best = max(gpus, key=lambda g: g.fp4_tflops or 0.0)
            reasons.append(against(best, "в FP4", lambda g: _tflops(g.fp4_tflops)))
    linked = [g for g in gpus if g.nvlink]
    if named & {"tensor-parallelism", "expert-parallelism"} and len(linked) == 1:
        # the work exchanges data on every layer: the link decides
        reasons.append(against(linked[0], "связь между GPU", lambda g: g.interconnect))
    if "moe" in named and gpus[0].memory_gb != gpus[1].memory_gb:
        best = max(gpus, key=lambda g: g.memory_gb)
        reasons.append(against(best, "памяти", lambda g: gb_text(g.memory_gb)))
    if len({g.id for g, _ in reasons}) != 1:  # nothing decides, or the figures pull apart
        return ""
    best = reasons[0][0]
    return f"Для этой задачи разумнее {short_name(best)}: " + "; ".join(r for _, r in reasons) + "."


def same_specs(gpus: Sequence[Gpu], numbers: Sequence[int]) -> str:
    """«h100 vs h200 — считать одинаково будут?»: what the cards share is part of the answer —
    «Одинаковые у обеих: производительность (BF16 — 989 TFLOPS, FP8 — 1 979 TFLOPS), TDP 700
    Вт и связь между GPU (NVLink 4, 900 ГБ/с на GPU) [1], [2].» "" when they share nothing."""
    first = gpus[0]
    shared: list[str] = []
    if first.bf16_tflops and all(
        (g.bf16_tflops, g.fp8_tflops) == (first.bf16_tflops, first.fp8_tflops) for g in gpus
    ):
        rates = [f"BF16 — {_tflops(first.bf16_tflops)}"]
        rates += [f"FP8 — {_tflops(first.fp8_tflops)}"] if first.fp8_tflops else []
        shared.append(f"производительность ({', '.join(rates)})")
    if first.tdp_w and all(g.tdp_w == first.tdp_w for g in gpus):
        shared.append(f"TDP {num(first.tdp_w)}{NBSP}Вт")
    if all(g.interconnect == first.interconnect for g in gpus):
        shared.append(f"связь между GPU ({_focus_value(first, 'interconnect')})")
    if not shared:
        return ""
    who = "обеих" if len(gpus) == 2 else "всех"
    said = shared[0] if len(shared) == 1 else f"{', '.join(shared[:-1])} и {shared[-1]}"
    marks = ", ".join(f"[{n}]" for n in numbers)
    return f"Одинаковые у {who}: {said} {marks}."


def _each(gpus: Sequence[Gpu], numbers: Sequence[int], focus: str) -> str:
    return ", ".join(
        f"у {short_name(g)} — {_focus_value(g, focus)} [{n}]"
        for g, n in zip(gpus, numbers, strict=True)
    )
