"""Options computed side by side → the sentence that says which fits, first.

    choice_lead([fit on L40S, fit on RTX PRO 6000], catalog)
        → «Подойдёт NVIDIA RTX PRO 6000 Blackwell (96 ГБ); на NVIDIA L40S (48 ГБ) не поместится.»

Options are cards («одна L40S или одна RTX PRO 6000?»), precisions («FP8 или FP4?»),
fine-tuning methods («фулл файнтюн или LoRA?»), prices («2190$/мес или 3.20$/ч?») or usages
(«8 карт на 10 ч или одна на 80 ч?»); each option's own figures follow in the answer.
"""

from __future__ import annotations

from collections.abc import Sequence

from assistant.answer.calculations.words import SHARDING_NAME
from assistant.answer.specs import FP4_HELD, short_name
from assistant.calculators.base import ToolResult
from assistant.calculators.units import (
    NBSP,
    PRECISION_LABEL,
    bandwidth,
    gb_text,
    gpu_hours_text,
    num,
    plural,
    usd,
)
from assistant.corpus.catalog import Catalog, Gpu

BANDWIDTH = "memory-bandwidth"  # the entry that says bandwidth bounds generation speed
_FITS = {"fits": "поместится", "tight": "поместится только впритык", "no": "не поместится"}


def choice_lead(results: Sequence[ToolResult], catalog: Catalog, *, speed: bool = False) -> str:
    """Options computed side by side («одна L40S или одна RTX PRO 6000?», «FP8 или FP4?»,
    «фулл файнтюн или LoRA?»): which fits, first — «Подойдёт NVIDIA RTX PRO 6000 Blackwell
    (96 ГБ); на NVIDIA L40S (48 ГБ) не поместится.» Each option's figures follow. When several
    fit, what decides between them (`speed`: the customer wants fast generation)."""
    verdicts = [_verdict(r) for r in results]
    if len(results) < 2 or "" in verdicts:
        return ""
    named = [_option_name(r, catalog, results) for r in results]
    good = [n for (n, _), v in zip(named, verdicts, strict=True) if v == "fits"]
    rest = [
        f"{where} {n} {_FITS[v]}".strip()
        for (n, where), v in zip(named, verdicts, strict=True)
        if v != "fits"
    ]
    if not good:
        none = "Ни одна из карт" if _cards(results, catalog) else "Ни один из вариантов"
        return f"{none} не подходит с запасом: " + "; ".join(rest) + "."
    # one of several: «только» says the others were weighed and do not fit
    head = "Подойдёт " + ("только " if rest else "") if len(good) == 1 else "Подойдут "
    head += " и ".join(good)
    others = "; " + "; ".join(rest) if rest else ""
    lower = _below_fp4([r for r, v in zip(results, verdicts, strict=True) if v == "fits"], catalog)
    if lower and not speed:  # «bf16, fp8 или fp4 на H200?»: FP4 fits, the card computes FP8
        return f"{head}, но разумнее {lower}{others}."
    head += others
    if speed and len(good) == 1 and len(_cards(results, catalog)) >= 2:
        # «что брать — 5090 или PRO 6000? скорость тоже важна»: one fits; the pace, for each
        return head + "." + _speeds(_cards(results, catalog))
    fitting = [r for r, v in zip(results, verdicts, strict=True) if v == "fits"]
    said = _fp4_decides(fitting, catalog)  # «…, но FP4 аппаратно поддерживает только B200»
    said += _rates(fitting, catalog)  # «…; FP8 на H100 SXM быстрее: …» in the same sentence
    notes = "".join((_fp4_note(results, catalog), _no_fp4(results, catalog)))
    wiser = "" if speed else _wiser(fitting, catalog)
    if wiser and not said and not notes:
        # «Подойдут H200 и 2 × L40S, но разумнее 1 × H200: …»: the verdict in the first sentence
        return f"{head}, но разумнее {wiser}."
    tail = f" Разумнее {wiser}." if wiser else (_between(fitting, catalog) if speed else "")
    return head + said + "." + notes + tail


# what bounds a model's generation at small batches (the memory-bandwidth entry)
_PACE = " Скорость генерации при небольших батчах ограничивает пропускная способность памяти"


def lighter_lead(results: Sequence[ToolResult]) -> str:
    """Fine-tuning methods weighed with no card named («full fine-tune или LoRA?»): which needs
    less memory, and both figures — «Меньше всего памяти нужно с LoRA: около 17,3 ГБ против
    128 ГБ (полное дообучение).» "" unless the results differ by method only."""
    methods = [str(r.inputs.get("method") or "full") for r in results]
    if len(results) < 2 or any(r.tool != "vram_training" for r in results):
        return ""
    if len(set(methods)) != len(methods) or any(_verdict(r) for r in results):
        return ""  # a card named: choice_lead says which fits
    need = [r.values.get("per_gpu_gb") for r in results]
    if not all(isinstance(x, int | float) for x in need):
        return ""
    gb = [float(x) for x in need if isinstance(x, int | float)]
    best = gb.index(min(gb))
    rest = ", ".join(
        f"{gb_text(gb[i])} ({_METHOD_NAME[methods[i]]})" for i in range(len(gb)) if i != best
    )
    who = (
        "с " + _METHOD_NAME[methods[best]] if methods[best] != "full" else "для полного дообучения"
    )
    return f"Меньше всего памяти нужно {who}: около {gb_text(gb[best])} против {rest}."


def cache_lead(results: Sequence[ToolResult], catalog: Catalog) -> str:
    """Two models' KV caches side by side («почему у Llama 2 7B кэш больше, чем у Llama 3 8B?»):
    each one's size, and what sets it apart — the KV heads (grouped-query attention keeps fewer
    of them than attention heads). "" unless the options differ by model."""
    models = [str(r.inputs.get("model")) for r in results]
    if len(results) < 2 or len(set(models)) < 2 or not all(m in catalog.models for m in models):
        return ""
    sizes, heads = [], []
    for r, m in zip(results, models, strict=True):
        name, kv = catalog.models[m].name, r.values.get("kv_cache_gb")
        n = r.inputs.get("kv_heads")
        if not isinstance(kv, int | float) or not isinstance(n, int):
            return ""
        sizes.append(f"у {name} — около {gb_text(kv)}")
        heads.append(f"у {name} {n}{NBSP}{plural(n, 'KV-голова', 'KV-головы', 'KV-голов')}")
    return (
        f"KV-кэш на том же контексте {', '.join(sizes)}: он растёт с числом KV-голов, а "
        f"{', '.join(heads)}."
    )


def rental_lead(results: Sequence[ToolResult]) -> str:
    """Renting by the month or by the hour, each computed for the same use: which costs less,
    and both totals (each a calculator's result). "" unless the two results are one rental by
    the month and one by the hour."""
    if len(results) != 2 or any(r.tool != "gpu_cost" for r in results):
        return ""
    by_month = next((r for r in results if r.inputs.get("price_month")), None)
    by_hour = next((r for r in results if r.inputs.get("price_hour")), None)
    if by_month is None or by_hour is None:
        return ""
    month, hour = _amount(by_month, "job_cost"), _amount(by_hour, "job_cost")
    if month is None or hour is None:
        return ""
    cheaper = "почасовая" if hour < month else "помесячная"
    used = by_hour.values.get("hours")
    hours = f" за {num(round(used))}{NBSP}ч работы" if isinstance(used, int | float) else ""
    return (
        f"Дешевле выйдет {cheaper} аренда: почасово{hours} — около {usd(hour)}, помесячно — "
        f"{usd(month)}."
    )


def usage_lead(results: Sequence[ToolResult]) -> str:
    """Usages priced side by side («8 карт на 10 ч или одна на 80 ч?»): the GPU-hours decide
    at one price per GPU-hour — the same, or which costs less (each a calculator's figure). ""
    unless every result is a rental and they differ in GPUs or hours."""
    if len(results) < 2 or any(r.tool != "gpu_cost" for r in results):
        return ""
    used = [(_count(r), _amount(r, "hours"), _amount(r, "gpu_hours")) for r in results]
    if any(h is None or gh is None for _, h, gh in used) or len(set(used)) < 2:
        return ""
    names = [f"{n}{NBSP}GPU × {num(h or 0)}{NBSP}ч" for n, h, _ in used]
    hours = [gh or 0.0 for _, _, gh in used]
    costs = [_amount(r, "job_cost") for r in results]
    priced = None not in costs
    if len(set(hours)) == 1:
        each = f"около {usd(costs[0] or 0)} в каждом случае" if priced else ""
        tail = each or "а при одной цене за GPU-час стоимость задаёт только их число"
        both = " и ".join(names)
        same = f"По деньгам одинаково: {both} — это по {gpu_hours_text(hours[0])}, {tail}."
        return same + _sooner(used, names)
    best = min(range(len(used)), key=lambda i: hours[i])
    rest = [i for i in range(len(used)) if i != best]
    against = ", ".join(f"{gpu_hours_text(hours[i])} у {names[i]}" for i in rest)
    money = ""
    if priced:
        money = (
            f" (около {usd(costs[best] or 0)} против "
            + ", ".join(usd(costs[i] or 0) for i in rest)
            + ")"
        )
    return f"Дешевле выйдет {names[best]}: {gpu_hours_text(hours[best])} против {against}{money}."


def _sooner(used: Sequence[tuple[int, float | None, float | None]], names: Sequence[str]) -> str:
    """The same GPU-hours spread over more cards end sooner: « Раньше закончится 8 GPU × 10 ч —
    за 10 ч вместо 40 ч, если задача делится на все карты»."""
    hours = [h or 0.0 for _, h, _ in used]
    fast, slow = hours.index(min(hours)), hours.index(max(hours))
    if hours[fast] == hours[slow]:
        return ""
    return (
        f" Раньше закончится {names[fast]} — за {num(hours[fast])}{NBSP}ч вместо "
        f"{num(hours[slow])}{NBSP}ч, если задача делится на все карты."
    )


def _amount(r: ToolResult, key: str) -> float | None:
    value = r.values.get(key)
    return float(value) if isinstance(value, int | float) and value > 0 else None


def _cards(results: Sequence[ToolResult], catalog: Catalog) -> list[Gpu]:
    """The catalogue card of each result, when the options differ by card."""
    ids = [str(r.inputs.get("gpu")) for r in results]
    if len(set(ids)) < 2 or not all(i in catalog.gpus for i in ids):
        return []
    return [catalog.gpus[i] for i in ids]


def decided_by_bandwidth(results: Sequence[ToolResult], catalog: Catalog, speed: bool) -> bool:
    """The lead compares the cards' memory bandwidth (the answer cites its entry): the fitting
    ones', or every card's when speed is asked and not all of them fit."""
    fitting = [r for r in results if _verdict(r) == "fits"]
    return speed and len(results) >= 2 and len(_cards(_paced(results, fitting), catalog)) >= 2


def _paced(results: Sequence[ToolResult], fitting: Sequence[ToolResult]) -> Sequence[ToolResult]:
    """The options whose generation speed the lead compares: the fitting ones when several
    fit, else all (the customer asked about speed: «скорость генерации тоже важна»)."""
    return fitting if len(fitting) >= 2 else results


def sheets_stated(results: Sequence[ToolResult], catalog: Catalog, speed: bool) -> list[Gpu]:
    """The cards whose sheet figures the lead states (bandwidths, peak rates): the answer cites
    their sheets, where those figures come from."""
    if len(results) < 2 or "" in [_verdict(r) for r in results]:
        return []
    fitting = [r for r in results if _verdict(r) == "fits"]
    if decided_by_bandwidth(results, catalog, speed):
        return _cards(_paced(results, fitting), catalog)
    if _rates(fitting, catalog):
        return [catalog.gpus[str(fitting[0].inputs.get("gpu"))]]
    return []


def _between(fitting: Sequence[ToolResult], catalog: Catalog) -> str:
    """Several cards fit and speed is asked: the one that reads memory fastest (the
    memory-bandwidth entry: at small batches the bandwidth bounds the speed)."""
    cards = _cards(fitting, catalog)
    if len(cards) < 2:
        return ""
    if _same_bandwidth(cards):  # «5090 или PRO 6000 по скорости?»: 1 792 ГБ/с both
        same = bandwidth(cards[0].bandwidth_tbs)
        return f"{_PACE}, а она у них одна: {same}, так что по скорости разницы не будет."
    best = max(cards, key=lambda g: g.bandwidth_tbs)  # one figure a sentence: each its sheet's
    others = " ".join(
        f"У {g.short} — {bandwidth(g.bandwidth_tbs)}." for g in cards if g is not best
    )
    return (
        f"{_PACE}, так что быстрее будет {best.short}: у неё {bandwidth(best.bandwidth_tbs)}. "
        + others
    )


def _wiser(fitting: Sequence[ToolResult], catalog: Catalog) -> str:
    """Several cards fit: the one that leaves the most memory for the KV cache, and why —
    «1 × H200: на ней больше памяти останется на KV-кэш и длинный контекст, …»; "" when the
    options are not cards."""
    cards = _cards(fitting, catalog)
    if len(cards) < 2:
        return ""
    room = "больше памяти останется на KV-кэш и длинный контекст"
    counts = [_count(r) for r in fitting]
    if len(set(counts)) > 1:  # «8×H100 или 4×B200»: all the cards' memory, not one card's
        total = [(g, n, n * g.memory_gb) for g, n in zip(cards, counts, strict=True)]
        best, n, _ = max(total, key=lambda x: x[2])
        if n > 1:
            return f"{n} × {best.short}: на них {room}"
        # «одна H200 или две L40S»: the one card also spares the model a split across cards
        return f"1 × {best.short}: на ней {room}, и модель не придётся делить между картами"
    best = max(cards, key=lambda g: g.memory_gb)
    return f"{best.short}: на ней {room}"


def _speeds(cards: Sequence[Gpu]) -> str:
    """Each card's memory bandwidth, which bounds generation at small batches."""
    if _same_bandwidth(cards):
        return f"{_PACE}, а она у них одна: {bandwidth(cards[0].bandwidth_tbs)}."
    each = " ".join(f"У {g.short} — {bandwidth(g.bandwidth_tbs)}." for g in cards)
    return f"{_PACE}. {each}"


def _same_bandwidth(cards: Sequence[Gpu]) -> bool:
    """Within 2 %: the sheets' figures, not a measurement, so no card is faster by them."""
    rates = [g.bandwidth_tbs for g in cards]
    return max(rates) <= min(rates) * SAME_BANDWIDTH


SAME_BANDWIDTH = 1.02


def _fp4_decides(fitting: Sequence[ToolResult], catalog: Catalog) -> str:
    """«H200 или B200 под 70B в FP4?», both fitting: the card that computes in FP4 is the
    answer, said in the verdict's sentence — «, но вычисления в FP4 аппаратно поддерживает
    только NVIDIA B200 (Blackwell)»; "" unless FP4 is asked and the fitting cards differ."""
    cards = _cards(fitting, catalog)
    if len(cards) < 2 or not any(str(r.inputs.get("precision")) == "fp4" for r in fitting):
        return ""
    able = [g for g in cards if g.fp4_support]
    if not able or len(able) == len(cards):
        return ""
    names = " и ".join(f"{g.short} ({g.architecture})" for g in able)
    return f", но вычисления в FP4 аппаратно поддерживает только {names}"


def _below_fp4(fitting: Sequence[ToolResult], catalog: Catalog) -> str:
    """Precisions on one card, FP4 among those that fit, and the card's sheet says it does not
    compute in FP4: the next precision that fits, and why — «FP8: аппаратной поддержки FP4 у
    NVIDIA H200 нет (Hopper) — веса в FP4 она хранит, но вычисления в FP4 не ускоряет»."""
    precisions = [str(r.inputs.get("precision")) for r in fitting]
    cards = {str(r.inputs.get("gpu")) for r in fitting} & set(catalog.gpus)
    if "fp4" not in precisions or len(set(precisions)) < 2 or len(cards) != 1:
        return ""
    gpu = catalog.gpus[cards.pop()]
    if gpu.fp4_support:
        return ""
    instead = next((p for p in ("fp8", "int8", "bf16", "fp16") if p in precisions), "")
    if not instead:
        return ""
    return (
        f"{_label(instead)}: аппаратной поддержки FP4 у {short_name(gpu)} нет "
        f"({gpu.architecture}) — {FP4_HELD}"
    )


def _no_fp4(results: Sequence[ToolResult], catalog: Catalog) -> str:
    """«B300 или H200 в FP4?»: a card whose sheet says it does not compute in FP4 still holds
    4-bit weights, but does not compute in FP4 (the FP4 entry)."""
    out = []
    for gpu in _cards(results, catalog):
        if not gpu.fp4_support and any(str(r.inputs.get("precision")) == "fp4" for r in results):
            out.append(
                f" У {gpu.short} нет аппаратной поддержки FP4 ({gpu.architecture}): {FP4_HELD}."
            )
    return "".join(out)


def _rates(fitting: Sequence[ToolResult], catalog: Catalog) -> str:
    """«BF16 или FP8 на H100?», both fitting: which the card computes faster in, by its sheet's
    peak rates — «; FP8 на H100 SXM быстрее: в BF16 — 989 TFLOPS, в FP8 — 1 979 TFLOPS»."""
    precisions = list(dict.fromkeys(str(r.inputs.get("precision")) for r in fitting))
    cards = {str(r.inputs.get("gpu")) for r in fitting} & set(catalog.gpus)
    if len(precisions) < 2 or len(cards) != 1:
        return ""
    gpu = catalog.gpus[cards.pop()]
    rate = {"bf16": gpu.bf16_tflops, "fp8": gpu.fp8_tflops, "fp4": gpu.fp4_tflops}
    known = [(p, value) for p in precisions if (value := rate.get(p)) is not None]
    if len(known) < 2:
        return ""
    fastest = max(known, key=lambda x: x[1])[0]
    parts = ", ".join(f"в {_label(p)} — {num(value)}{NBSP}TFLOPS" for p, value in known)
    return f"; {_label(fastest)} на {gpu.short} быстрее: {parts} (пик без разреженности)"


def _label(precision: str) -> str:
    return PRECISION_LABEL.get(precision, precision.upper())


def _fp4_note(results: Sequence[ToolResult], catalog: Catalog) -> str:
    """«FP8 или FP4?» on a named card: whether the card computes in FP4 itself, from its sheet
    (the FP4 entry: Blackwell and MI355X do, Hopper does not)."""
    precisions = {str(r.inputs.get("precision")) for r in results}
    cards = {str(r.inputs.get("gpu")) for r in results} & set(catalog.gpus)
    if "fp4" not in precisions or len(precisions) < 2 or len(cards) != 1:
        return ""
    gpu = catalog.gpus[cards.pop()]
    name = short_name(gpu)
    if gpu.fp4_support:
        return f" {name} поддерживает FP4 аппаратно ({gpu.architecture})."
    return f" Аппаратной поддержки FP4 у {name} нет ({gpu.architecture})."


def _verdict(r: ToolResult) -> str:
    """A fit's verdict; a training estimate on a named card fits or not (activations aside)."""
    if r.tool == "gpu_fit" and "verdict" in r.values:
        return str(r.values["verdict"])
    if r.tool == "vram_training" and isinstance(r.values.get("fits"), bool):
        return "fits" if r.values["fits"] else "no"
    return ""


_METHOD_NAME = {"full": "полное дообучение", "lora": "LoRA", "qlora": "QLoRA"}


def _count(r: ToolResult) -> int:
    n = r.inputs.get("gpus")
    return int(n) if isinstance(n, int | float) else 1


def _option_name(r: ToolResult, catalog: Catalog, options: Sequence[ToolResult]) -> tuple[str, str]:
    """What differs between the options, with its preposition: the card («на», «NVIDIA L40S
    (48 ГБ)»), the method («полное дообучение») or the precision («в», «FP8»)."""
    cards = {str(o.inputs.get("gpu")) for o in options}
    if len(cards) > 1 and isinstance(r.inputs.get("gpu"), str):
        g = catalog.gpus[str(r.inputs["gpu"])]
        n = _count(r)
        if n > 1 and len({_count(o) for o in options}) > 1:  # «одна H200 или две H100»
            return f"{n} × {g.name} (по {gb_text(g.memory_gb)})", "на"
        return f"{g.name} ({gb_text(g.memory_gb)})", "на"
    if len({str(o.inputs.get("method")) for o in options}) > 1:
        return _METHOD_NAME.get(str(r.inputs.get("method")), "этот вариант"), ""
    if len({str(o.inputs.get("sharding")) for o in options}) > 1:  # «обычный DDP или FSDP?»
        name = SHARDING_NAME.get(str(r.inputs.get("sharding")), "этот вариант")
        need = r.values.get("per_gpu_gb")  # what each card holds: the copy, or its share
        return (
            f"{name} (около {gb_text(need)} на GPU)" if isinstance(need, int | float) else name
        ), "с"
    return PRECISION_LABEL.get(str(r.inputs.get("precision")), "этот вариант"), "в"
