"""Cost results → Display body: GPU-hours, price per GPU-hour, total, included egress.

Часы          1 344 GPU-ч     8 GPU × 168 ч
Цена GPU-часа 3,00 $          пример из глоссария: H100 SXM за 2 190 $ в месяц
Итого         4 032 $         1 344 GPU-ч × 3,00 $
"""

from __future__ import annotations

from collections.abc import Callable

from assistant.answer.calculations.facts import Body, Facts, number
from assistant.answer.calculations.words import NBSP, count, duration, gpu_name, num, sentence, usd
from assistant.schema import DisplayRow


def _cost(f: Facts) -> Body:
    hourly, month = f.value("price_per_gpu_hour"), f.value("price_per_gpu_month")
    hours, gpu_hours, total = f.value("hours"), f.value("gpu_hours"), f.value("job_cost")
    gpus = int(f.value("gpus") or f.arg("gpus") or 1)
    hpm = f.value("hours_per_month") or 730.0
    rows: list[DisplayRow] = []
    if hours is not None and gpu_hours is not None:
        note = f"{gpus}{NBSP}GPU × {num(hours)}{NBSP}ч"
        rows.append(DisplayRow(label="Часы", value=f"{num(gpu_hours)}{NBSP}GPU-ч", note=note))
    if hourly is not None:
        rows.append(DisplayRow(label="Цена GPU-часа", value=usd(hourly), note=_hour_note(f, hpm)))
    if month is not None and _month_is_new(f):
        note = f"{usd(hourly)} × {num(hpm)}{NBSP}ч" if hourly is not None else ""
        rows.append(DisplayRow(label="Цена GPU в месяц", value=usd(month), note=note))
    if total is not None and gpu_hours is not None and hourly is not None:
        note = f"{num(gpu_hours)}{NBSP}GPU-ч × {usd(hourly)}"
        rows.append(DisplayRow(label="Итого", value=usd(total), note=note, strong=True))
    egress = f.value("egress_tb_included")
    if egress is not None and (f.arg("egress") or not rows):
        note = "без платы за трафик, при добросовестном использовании"
        value = f"{num(egress)}{NBSP}ТБ в месяц"
        rows.append(DisplayRow(label="Исходящий трафик включён", value=value, note=note))
    return Body(headline=_cost_headline(f, gpus, hourly, month, total, gpu_hours), rows=rows)


def _month_is_new(f: Facts) -> bool:
    """The monthly price per GPU is news unless the user said it (no duplicated inputs)."""
    if f.arg("price_hour") is not None:
        return True
    split = f.arg("price_scope") == "total" and int(f.arg("gpus") or 1) > 1
    return f.arg("price_month") is not None and split


def _hour_note(f: Facts, hpm: float) -> str:
    pm, ph = f.value("price_month") or number(f.arg("price_month")), number(f.arg("price_hour"))
    split = int(f.arg("gpus") or 1) if f.arg("price_scope") == "total" else 1
    by = f" ÷ {split}{NBSP}GPU" if split > 1 else ""
    if pm is not None:
        return f"{usd(pm)}{by} ÷ {num(hpm)}{NBSP}ч"
    if ph is not None:
        return f"{usd(ph)}{by}" if by else "названа в вопросе"
    gpu = f.arg("gpu")
    month = f.value("price_per_gpu_month")
    if isinstance(gpu, str) and gpu and month is not None:
        return f"пример из глоссария: {gpu_name(gpu, f.catalog)} за {usd(month)} в месяц"
    return ""


def _cost_headline(
    f: Facts,
    gpus: int,
    hourly: float | None,
    month: float | None,
    total: float | None,
    gpu_hours: float | None,
) -> str:
    gpu = f.arg("gpu")
    what = (
        f"{gpus} × {gpu_name(gpu, f.catalog)}"
        if isinstance(gpu, str) and gpu
        else count(gpus, "GPU", "GPU", "GPU")
    )
    span = f.arg("duration")
    if total is not None and span:
        when = duration(float(span), str(f.arg("duration_unit") or "hours"), on=True)
        return f"{what} на {when}: около {usd(total)}."
    if gpu_hours is not None:
        return f"{what}: {num(gpu_hours)}{NBSP}GPU-ч; цена не названа, стоимость не считали."
    if hourly is not None and month is not None:
        return f"{usd(month)} в месяц за GPU ≈ {usd(hourly)} за GPU-час."
    egress = f.value("egress_tb_included")
    if egress is not None:
        return f"{what}: {num(egress)}{NBSP}ТБ исходящего трафика в месяц включено."
    return sentence(f.result.summary_ru.split(". ")[0]) + "."


BUILDERS: dict[str, Callable[[Facts], Body]] = {"gpu_cost": _cost}
