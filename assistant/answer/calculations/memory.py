"""Inference, GPU-fit and training results → Display bodies: headline, breakdown, GPU options.

weights / KV cache / overhead 10–30 % / total     (vram_inference, gpu_fit)
weights / gradients / optimizer / per GPU         (vram_training)
GPU · Память · Нужно GPU · На одну карту?            (gpu_fit's catalogue options)
"""

from __future__ import annotations

from collections.abc import Callable

from assistant.answer.calculations.facts import Body, Facts, number
from assistant.answer.calculations.words import (
    METHOD_TITLE,
    NBSP,
    SHARDING_NAME,
    gb,
    gpu_name,
    model_name,
    num,
    params_short,
    precision,
    tokens,
)
from assistant.calculators.base import GpuOption
from assistant.calculators.units import plural
from assistant.corpus.catalog import Catalog
from assistant.schema import DisplayRow, DisplayTable


def who(f: Facts) -> str:
    """«Llama 3 70B» or «Модель на 70 млрд параметров» (the subject of a headline)."""
    model = f.arg("model")
    if isinstance(model, str) and model:
        return model_name(model, f.catalog)
    size = number(f.arg("params_b")) or f.value("params_b")
    return f"Модель на {params_short(size)} параметров" if size else "Модель"


def _of_whom(f: Facts) -> str:
    """«Llama 3 8B» or «модели на 8 млрд параметров» (after «Полное дообучение …»)."""
    text = who(f)
    return "модели" + text[len("Модель") :] if text.startswith("Модель") else text


def total(f: Facts) -> tuple[float | None, float | None]:
    lo = f.value("total_low_gb") or f.value("need_low_gb")
    hi = f.value("total_high_gb") or f.value("need_high_gb")
    return lo, hi


def memory_rows(f: Facts) -> list[DisplayRow]:
    """Веса / KV-кэш / Запас 10–30 % / Итого — only the parts the result (or source) has."""
    parts = f  # vram_inference and gpu_fit both report weights, KV cache and overhead
    w, kv = parts.value("weights_gb"), parts.value("kv_cache_gb") or 0.0
    lo, hi = total(f)
    rows: list[DisplayRow] = []
    if w:  # KV cache from an architecture alone has no weights row
        rows.append(DisplayRow(label="Веса", value=f.gb(w), note=_weights_note(parts)))
    if kv:
        rows.append(DisplayRow(label="KV-кэш", value=f.gb(kv), note=_kv_note(f)))
    low_pct, high_pct = f.arg("overhead_low_pct"), f.arg("overhead_high_pct")
    if w is not None and lo is not None and hi is not None and low_pct is not None:
        over_lo = f.value("overhead_low_gb") or max(lo - w - kv, 0.0)
        over_hi = f.value("overhead_high_gb") or max(hi - w - kv, 0.0)
        label = f"Запас {num(float(low_pct))}–{num(float(high_pct or low_pct))}{NBSP}%"
        note = "служебные расходы" if kv else "KV-кэш и служебные расходы"
        rows.append(DisplayRow(label=label, value=f.span(over_lo, over_hi, False), note=note))
    if lo is not None and hi is not None:
        rows.append(DisplayRow(label="Итого", value=f.span(lo, hi), strong=True))
    return rows


def _weights_note(f: Facts) -> str:
    size = f.value("params_b") or number(f.arg("params_b"))
    per = f.value("bytes_per_param")
    p = f.arg("precision")
    if not size or per is None or not isinstance(p, str):
        return ""
    word = plural(per, "байт", "байта", "байт")
    return f"{params_short(size)} × {num(per)}{NBSP}{word} ({precision(p)})"


def _kv_note(f: Facts) -> str:
    ctx, batch, kvp = f.arg("context_tokens"), f.arg("batch"), f.arg("kv_precision")
    if not isinstance(ctx, int) or not ctx:
        return ""
    n = int(batch or 1)
    reqs = f"{n}{NBSP}{plural(n, 'запрос', 'запроса', 'запросов')}"
    tail = f", {precision(kvp)}" if isinstance(kvp, str) else ""
    return f"{tokens(ctx)} × {reqs}{tail}"


def _inference(f: Facts) -> Body:
    lo, hi = total(f)
    need = f.span(lo, hi) if lo is not None and hi is not None else ""
    p = f.arg("precision")
    head = f"{who(f)} в {precision(p)}" if isinstance(p, str) else who(f)
    return Body(headline=f"{head}: около {need} видеопамяти с запасом.", rows=memory_rows(f))


def _training(f: Facts) -> Body:
    rows = []
    for key, label, note in (
        ("weights_gb", "Веса", _train_weights_note(f)),
        ("gradients_gb", "Градиенты", ""),
        ("optimizer_gb", "Оптимизатор", "мастер-копия FP32 и два момента Adam"),
    ):
        v = f.value(key)
        if v is not None:
            rows.append(DisplayRow(label=label, value=f.gb(v), note=note))
    per, whole = f.value("per_gpu_gb"), f.value("total_gb")
    gpus = int(f.arg("gpus") or 1)
    if per is not None:
        note = "без активаций" if gpus == 1 else f"на каждом из {gpus}{NBSP}GPU, без активаций"
        rows.append(DisplayRow(label="Итого на GPU", value=f.gb(per), note=note, strong=True))
    if whole is not None and per is not None and whole > per * 1.001:
        rows.append(DisplayRow(label="Всего на все GPU", value=f.gb(whole)))
    sharded = f.value("per_gpu_zero3_gb")
    if sharded is not None:
        note = "шардируются и веса, градиенты, оптимизатор"
        rows.append(DisplayRow(label="С ZeRO-3 или FSDP", value=f.gb(sharded), note=note))
    method = METHOD_TITLE.get(str(f.arg("method") or "full"), "Обучение")
    # «… с FSDP на 8 GPU»: two setups weighed side by side read apart by their headlines
    setup = f" с {SHARDING_NAME.get(str(f.arg('sharding') or 'none'), 'DDP')} на {gpus}{NBSP}GPU"
    head = f"{method} {_of_whom(f)}{setup if gpus > 1 else ''}: около {f.gb(per or whole or 0)}"
    head += " на GPU без активаций"
    gpu = f.arg("gpu")
    if isinstance(gpu, str) and gpu and isinstance(f.result.values.get("fits"), bool):
        verdict = "поместится" if f.result.values["fits"] else "не поместится"
        mem = f.value("gpu_memory_gb")
        cap = f" ({f.gb(mem)})" if mem else ""
        rows.append(DisplayRow(label=f"{gpu_name(gpu, f.catalog)}{cap}", value=verdict))
        head += f"; на {gpu_name(gpu, f.catalog)} {verdict}"
    return Body(headline=head + ".", rows=rows)


def _train_weights_note(f: Facts) -> str:
    method = f.arg("method")
    if method == "lora":
        return "замороженная база в BF16 + адаптеры"
    if method == "qlora":
        return "замороженная база в NF4 + адаптеры"
    return "BF16, 2 байта на параметр"


def _fit(f: Facts) -> Body:
    lo, hi = total(f)
    rows = memory_rows(f) if f.arg("required_gb") is None else []
    if f.arg("required_gb") is not None and lo is not None and hi is not None:
        rows.append(DisplayRow(label="Нужно памяти", value=f.span(lo, hi), strong=True))
    options = _options(f)
    gpu, n = f.arg("gpu"), int(f.arg("gpus") or f.value("gpus") or 1)
    stated = f.value("gpu_memory_gb") if f.arg("gpu_memory_gb") else None
    if stated and not gpu:  # a card outside the catalogue, by the memory the user stated
        verdict = str(f.result.values.get("verdict", ""))
        many = f"{n} {plural(n, 'карта', 'карты', 'карт')} по {f.gb(stated)}"
        card = f"Карта с {f.gb(stated)}" if n == 1 else many
        rows.append(DisplayRow(label=card, value=_verdict_text(verdict)))
        needed = int(f.value("gpus_needed") or 0)
        such = plural(needed, "такая карта", "такие карты", "таких карт")
        more = f"; с запасом нужно {needed} {such}" if needed > n else ""
        where = f"карту с {f.gb(stated)}" if n == 1 else many
        headline = f"{_verdict_text(verdict)} на {where}{more}"
    elif isinstance(gpu, str) and gpu:
        per_lo, per_hi = f.value("per_gpu_low_gb"), f.value("per_gpu_high_gb")
        if n > 1 and per_lo is not None and per_hi is not None:
            note = "тензорный параллелизм делит веса и KV-кэш поровну"
            label = f"На каждую из {n}{NBSP}GPU"
            rows.append(DisplayRow(label=label, value=f.span(per_lo, per_hi), note=note))
        verdict = str(f.result.values.get("verdict", ""))
        where = gpu_name(gpu, f.catalog) if n == 1 else f"{n} × {gpu_name(gpu, f.catalog)}"
        rows.append(DisplayRow(label=where, value=_verdict_text(verdict)))
        headline = _fit_gpu_headline(f, gpu, n, verdict)
    else:
        headline = _fit_catalogue_headline(options, f.catalog)
        rows += _per_card_rows(f, n)
    need = f.span(lo, hi) if lo is not None and hi is not None else ""
    lead = who(f) if f.arg("required_gb") is None else "Потребность"
    p = f.arg("precision")
    if f.arg("required_gb") is None and isinstance(p, str):
        lead += f" в {precision(p)}"
    table = _options_table(options, lo, f.catalog) if options else None
    return Body(headline=f"{lead}: около {need} — {headline}.", rows=rows, table=table)


def _per_card_rows(f: Facts, n: int) -> list[DisplayRow]:
    """«405B в FP8 на 8 картах — сколько весов на каждую?»: the split, no GPU model needed."""
    weights, lo, hi = (
        f.value("weights_per_gpu_gb"),
        f.value("per_gpu_low_gb"),
        f.value("per_gpu_high_gb"),
    )
    if n <= 1 or weights is None or lo is None or hi is None:
        return []
    note = "тензорный параллелизм делит веса и KV-кэш поровну"
    return [
        DisplayRow(label=f"Веса на каждую из {n}{NBSP}GPU", value=f.gb(weights), note=note),
        DisplayRow(label="С KV-кэшем и запасом на GPU", value=f.span(lo, hi)),
    ]


def _verdict_text(verdict: str) -> str:
    return {"fits": "поместится", "tight": "впритык", "no": "не поместится"}.get(verdict, "")


def _fit_gpu_headline(f: Facts, gpu: str, n: int, verdict: str) -> str:
    name = gpu_name(gpu, f.catalog)
    mem = f.value("gpu_memory_gb")
    cap = f" ({f.gb(mem)})" if mem and n == 1 else f" (по {f.gb(mem)})" if mem else ""
    where = f"одну {name}{cap}" if n == 1 else f"{n} × {name}{cap}"
    needed = int(f.value("gpus_needed") or 0)
    more = f"; с запасом нужно {needed} × {name}" if needed > n else ""
    if verdict == "fits":
        return f"поместится на {where}"
    if verdict == "tight":
        return f"на {where} поместится впритык{more}"
    return f"на {where} не поместится{more}"


def _options(f: Facts) -> list[GpuOption]:
    raw = f.result.values.get("options")
    if not isinstance(raw, list):
        return []
    return [o for o in raw if isinstance(o, dict) and isinstance(o.get("memory_gb"), int | float)]


def _fit_catalogue_headline(options: list[GpuOption], catalog: Catalog) -> str:
    if not options:
        return "подходящих GPU в каталоге нет"
    best = min(options, key=lambda o: (int(o.get("gpus_needed") or 10**9), o["memory_gb"]))
    name, n = gpu_name(str(best.get("gpu", "")), catalog), int(best.get("gpus_needed") or 0)
    if n == 1:
        return f"поместится на одну {name} ({gb(float(best['memory_gb']))})"
    if n == 0:
        return "подходящих GPU в каталоге нет"
    return f"на один GPU не поместится; хватит {n} × {name}"


def _options_table(
    options: list[GpuOption], need_low: float | None, catalog: Catalog
) -> DisplayTable:
    """GPU · Память · Нужно GPU · На одну карту? (on one card: да / впритык / нет)."""
    rows = []
    for o in options:
        n = int(o.get("gpus_needed") or 0)
        tight = need_low is not None and float(o["memory_gb"]) >= need_low
        fits = "да" if n == 1 else "впритык" if tight else "нет"
        name = gpu_name(str(o.get("gpu", "")), catalog)
        if o.get("offered") is False:
            name += " (не предлагаем)"
        rows.append([name, gb(float(o["memory_gb"])), num(n), fits])
    return DisplayTable(
        caption="Варианты GPU", columns=["GPU", "Память", "Нужно GPU", "На одну карту?"], rows=rows
    )


BUILDERS: dict[str, Callable[[Facts], Body]] = {
    "vram_inference": _inference,
    "vram_training": _training,
    "gpu_fit": _fit,
}
