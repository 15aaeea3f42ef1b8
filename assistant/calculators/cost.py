"""Price (per month or hour) + GPUs + duration → hourly/monthly price, GPU-hours, job cost, egress.

Convention (glossary:gpu-hour): a month is 730 hours; hourly price per GPU = monthly price ÷ GPUs
÷ 730; GPU-hours = GPUs × hours; job cost = GPU-hours × price per GPU-hour. Egress
(glossary:egress): 20 TB/month included on single-GPU plans, 50 TB on 8-GPU servers, no egress
fee, fair use. Prices in corpus/prices.yaml are examples only; every call may pass its own price.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, model_validator

from assistant.calculators.base import Arguments, Computation, Tool, ToolInput, Values
from assistant.calculators.fields import MAX_GPUS, GpuName
from assistant.calculators.units import (
    HOURS_PER_MONTH,
    NBSP,
    UNIT_RU,
    gpu_hours_text,
    num,
    plural,
    rental_hours,
    sig,
    usd,
)
from assistant.corpus.catalog import Catalog, Prices
from assistant.errors import ToolInputError

DurationUnit = Literal["hours", "days", "weeks", "months", "years"]


class CostInput(ToolInput):
    gpu: GpuName | None = Field(default=None, description="GPU из каталога (для примера цены)")
    gpus: int = Field(default=1, gt=0, le=MAX_GPUS, description="Число GPU")
    price_month: float | None = Field(
        default=None,
        allow_inf_nan=False,
        gt=0,
        le=10_000_000,
        description="Цена в месяц, $ (за GPU или за всё)",
    )
    price_hour: float | None = Field(
        default=None,
        allow_inf_nan=False,
        gt=0,
        le=100_000,
        description="Цена в час, $ (за GPU или за всё)",
    )
    price_scope: Literal["per_gpu", "total"] = Field(
        default="per_gpu", description="Цена указана за один GPU (per_gpu) или за все GPU (total)"
    )
    duration: float | None = Field(
        default=None, allow_inf_nan=False, gt=0, le=100_000, description="Длительность"
    )
    duration_unit: DurationUnit = Field(default="hours", description="Единица длительности")
    hours_per_month: float = Field(
        default=HOURS_PER_MONTH, gt=0, le=744, description="Часов в месяце"
    )
    egress: bool = Field(default=False, description="Рассказать о включённом исходящем трафике")

    @model_validator(mode="after")
    def _check(self) -> CostInput:
        if self.price_month is not None and self.price_hour is not None:
            raise ToolInputError("Укажите одну цену — в месяц или в час, а не обе сразу.")
        if self.duration is not None and self.hours() > 24 * 366 * 10:
            raise ToolInputError("Слишком большая длительность: больше 10 лет.")
        return self

    def hours(self) -> float:
        return rental_hours(self.duration or 0.0, self.duration_unit, self.hours_per_month)


Rate = tuple[float | None, str, list[str]]  # price per GPU-hour, its explanation, assumptions


def _hourly(inp: CostInput, catalog: Catalog) -> Rate:
    """Price per GPU-hour, the Russian explanation, and assumptions.

    A price for all GPUs (price_scope="total", e.g. a whole 8-GPU server) is split per GPU first.
    """
    n = inp.gpus if inp.price_scope == "total" else 1
    if inp.price_month is not None:
        return _from_month(inp, inp.price_month, n)
    if inp.price_hour is not None:
        return _from_hour(inp, inp.price_hour, n)
    if inp.gpu is not None:
        return _from_example(inp, inp.gpu, catalog)
    return None, "", []


def _from_month(inp: CostInput, price: float, n: int) -> Rate:
    hpm, split = num(inp.hours_per_month), f" ÷ {n} GPU" if n > 1 else ""
    h = price / n / inp.hours_per_month
    per_gpu = f" за {n}{NBSP}GPU — это {usd(price / n)} в месяц за GPU и" if n > 1 else " —"
    text = (
        f"{usd(price)} в месяц{per_gpu} примерно {usd(h)} за GPU-час "
        f"({usd(price)}{split} ÷ {hpm}{NBSP}ч)."
    )
    return h, text, []


def _from_hour(inp: CostInput, price: float, n: int) -> Rate:
    hpm, split = num(inp.hours_per_month), f" ÷ {n} GPU" if n > 1 else ""
    h = price / n
    m = h * inp.hours_per_month
    text = (
        f"{usd(price)} в час{split and ' за ' + str(n) + ' GPU'} — это "
        f"{usd(m)} в месяц за GPU ({usd(h)} × {hpm}{NBSP}ч)."
    )
    return h, text, []


def _from_example(inp: CostInput, gpu: str, catalog: Catalog) -> Rate:
    ex = catalog.prices.example_month(gpu)
    if ex is None:
        return None, "", []
    hpm = num(inp.hours_per_month)
    h = ex.price_month_usd / inp.hours_per_month
    text = (
        f"Для примера возьмём {catalog.gpus[gpu].name} за {usd(ex.price_month_usd)} в месяц — "
        f"это около {usd(h)} за GPU-час ({usd(ex.price_month_usd)} ÷ {hpm}{NBSP}ч)."
    )
    return h, text, [f"цена — пример из глоссария{example_note(ex.source)}, {NOT_A_PRICE_LIST}"]


NOT_A_PRICE_LIST = "а не прайс-лист; подставьте свою"
_SOURCE = re.compile(r"^glossary:[\w.-]+\s*(?:\((?P<what>.*)\))?\s*$")


def example_note(source: str) -> str:
    """prices.yaml's «glossary:gpu-hour (один H100 за 2 190 $ в месяц)» → « (один H100 за …)»:
    the slug is a reference for maintainers, never text for a customer."""
    m = _SOURCE.match(source.strip())
    if m is None:
        return f" ({source})" if source and ":" not in source else ""
    return f" ({m.group('what')})" if m.group("what") else ""


def egress_tb(gpus: int, prices: Prices) -> float:
    e = prices.egress
    if gpus % 8 == 0:
        return e.server_8gpu_tb_month * gpus / 8
    return e.single_gpu_tb_month * gpus


def _egress_text(gpus: int, prices: Prices, counted: bool = True) -> str:
    """The allowance of this many GPUs; with no count asked, both plans, as the glossary says."""
    e = prices.egress
    if not counted:
        return (
            f"Исходящий трафик: {num(e.single_gpu_tb_month)}{NBSP}ТБ в месяц включено на "
            f"тарифах с одним GPU и {num(e.server_8gpu_tb_month)}{NBSP}ТБ на 8-GPU-серверах, "
            "без платы за исходящий трафик, при добросовестном использовании."
        )
    plan = "8-GPU-сервере" if gpus % 8 == 0 else "тарифе с одним GPU"
    per_plan = e.server_8gpu_tb_month if gpus % 8 == 0 else e.single_gpu_tb_month
    s = f"Исходящий трафик: {num(per_plan)}"
    s += f"{NBSP}ТБ в месяц включено на {plan}"
    if gpus not in (1, 8):
        s += f" (всего около {num(egress_tb(gpus, prices))}{NBSP}ТБ на {gpus} GPU)"
    return s + ", без платы за исходящий трафик, при добросовестном использовании."


def _duration_text(inp: CostInput) -> str:
    d = inp.duration or 0.0
    word = plural(d, *UNIT_RU[inp.duration_unit])
    return f"{num(d)}{NBSP}{word}"


def _job(inp: CostInput, hourly: float | None, values: Values, example: bool = False) -> list[str]:
    """GPU-hours of the job (and its cost at `hourly`): sentences; figures go into `values`."""
    hours = inp.hours()
    gpu_hours = inp.gpus * hours
    values.update(hours=sig(hours), gpu_hours=sig(gpu_hours))
    span = _duration_text(inp)
    if inp.duration_unit != "hours":
        span += f" = {num(hours)}{NBSP}ч"
    gh = gpu_hours_text(gpu_hours)
    if hourly is None:
        return [f"{inp.gpus} GPU × {span} = {gh}."]
    cost = gpu_hours * hourly
    values["job_cost"] = sig(cost)
    # the total is what «сколько заплачу?» asks: first, with the hours it comes from
    at = "По цене из примера глоссария аренда" if example else "Аренда"
    total = usd(cost, cents=cost < ROUGH_USD)
    return [
        f"{at} обойдётся примерно в {total}: {inp.gpus} GPU × {span} = {gh} "
        f"по {usd(hourly)} за GPU-час."
    ]


# «примерно в 864 $», not «864,00 $»: cents of an approximate total from this sum on
ROUGH_USD = 100


def _assumptions(inp: CostInput, hourly: float | None, example: list[str]) -> list[str]:
    hpm = inp.hours_per_month
    # the month's hours matter only when a price or a duration is turned into hours
    used = hourly is not None or inp.duration_unit in ("months", "years")
    month = [f"месяц = {num(hpm)} часов (среднее число часов в месяце, как в глоссарии)"]
    out = [*(month if used else []), *example]
    if hourly is not None and inp.gpus > 1:
        scope = "за все GPU вместе" if inp.price_scope == "total" else "за один GPU"
        out.append(f"цена указана {scope}")
    if hourly is None and inp.duration is not None:
        out.append("цена не указана — посчитаны только GPU-часы")
    return out


def compute(inp: CostInput, catalog: Catalog) -> Computation:
    hpm = inp.hours_per_month
    hourly, price_text, example = _hourly(inp, catalog)
    values: Values = {"hours_per_month": hpm, "gpus": inp.gpus}
    parts = [price_text] if price_text else []
    if hourly is not None:
        values["price_per_gpu_hour"] = sig(hourly)
        values["price_per_gpu_month"] = sig(hourly * hpm)
    if inp.duration is not None:  # the job's total first, then the price it is counted at
        parts = [*_job(inp, hourly, values, example=bool(example)), *parts]
    values["egress_tb_included"] = egress_tb(inp.gpus, catalog.prices)
    values["egress_fee"] = 0
    if inp.egress or not parts:
        parts.append(_egress_text(inp.gpus, catalog.prices, "gpus" in inp.model_fields_set))
    if hourly is not None or inp.duration_unit in ("months", "years"):
        parts.append(f"Месяц считаем как {num(hpm)}{NBSP}часов — среднее число часов в месяце.")
    formula = (
        "цена за GPU-час = цена в месяц ÷ число GPU ÷ 730; GPU-часы = GPU × часы; "
        "стоимость = GPU-часы × цена за GPU-час"
    )
    unused = {"egress"} | (set() if inp.duration is not None else {"duration_unit"})
    if hourly is None or inp.gpus == 1:
        unused.add("price_scope")
    if hourly is None and inp.duration_unit not in ("months", "years"):  # no month turned into
        unused.add("hours_per_month")  # hours: «спишут ли за трафик?», «GPU-часы за 3 дня»
    assumed = _assumptions(inp, hourly, example)
    return Computation(formula, values, " ".join(parts), assumed, {}, frozenset(unused))


LABELS = {
    "gpu": "GPU",
    "gpus": "число GPU",
    "price_month": "цена в месяц",
    "price_hour": "цена в час",
    "duration": "длительность",
    "duration_unit": "единица длительности",
    "hours_per_month": "часов в месяце",
    "price_scope": "к чему относится цена",
    "egress": "исходящий трафик",
}

DESCRIPTION = (
    "Стоимость GPU: цена в месяц ↔ цена за GPU-час (730 часов в месяце), GPU-часы = "
    "GPU × часы, стоимость задачи на часы, сутки, недели или месяцы, включённый "
    "исходящий трафик (20 ТБ на тарифе с одним GPU, 50 ТБ на 8-GPU-сервере)."
)


def related(args: Arguments, catalog: Catalog) -> list[str]:
    return ["gpu-hour", *(["egress"] if args.get("egress") else [])]


TOOL = Tool(
    "gpu_cost",
    DESCRIPTION,
    CostInput,
    compute,
    LABELS,
    title="Стоимость аренды",
    short="калькулятор стоимости GPU",
    source="Расчёт: калькулятор стоимости GPU",
    headline=("job_cost", "price_per_gpu_hour", "egress_tb_included"),
    related=related,
)
