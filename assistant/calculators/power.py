"""GPU model + count (+ how long) → power at TDP and the energy it draws: kW and kWh.

    power  = TDP per GPU × GPUs                         glossary:tdp (H100 SXM ~700 W)
    energy = power × hours                              (a month = 730 hours, as for the cost)

TDP is the highest sustained power a chip is designed to draw (glossary:tdp), so these are upper
figures for the GPUs alone: CPUs, memory, networking and cooling are not included. A card whose
TDP is not published (catalogue `tdp_w: null`) gets a friendly refusal, never a guess.
"""

from __future__ import annotations

from pydantic import Field

from assistant.calculators.base import Arguments, Computation, Tool, ToolInput, Values
from assistant.calculators.cost import DurationUnit
from assistant.calculators.fields import MAX_GPUS, GpuName
from assistant.calculators.units import NBSP, num, rental_hours, sig
from assistant.corpus.catalog import Catalog
from assistant.errors import ToolInputError


class PowerInput(ToolInput):
    gpu: GpuName = Field(description="GPU из каталога, например «H100» или «MI355X»")
    gpus: int = Field(default=1, gt=0, le=MAX_GPUS, description="Число GPU")
    duration: float | None = Field(
        default=None, allow_inf_nan=False, gt=0, le=100_000, description="Длительность"
    )
    duration_unit: DurationUnit = Field(default="hours", description="Единица длительности")
    hours_per_month: float = Field(default=730, gt=0, le=744, description="Часов в месяце")

    def hours(self) -> float:
        return rental_hours(self.duration or 0.0, self.duration_unit, self.hours_per_month)


def compute(inp: PowerInput, catalog: Catalog) -> Computation:
    card = catalog.gpus[inp.gpu]
    if card.tdp_w is None:
        raise ToolInputError(
            f"для {card.name} производитель не публикует TDP одного GPU — посчитать "
            "энергопотребление не из чего."
        )
    kw = card.tdp_w * inp.gpus / 1000
    values: Values = {"tdp_w": card.tdp_w, "gpus": inp.gpus, "power_kw": sig(kw)}
    who = f"{inp.gpus}{NBSP}×{NBSP}{card.name}" if inp.gpus > 1 else card.name
    each = f" ({inp.gpus} × {num(card.tdp_w)}{NBSP}Вт)" if inp.gpus > 1 else ""
    parts = [f"{who}: около {num(kw)}{NBSP}кВт по TDP{each}."]
    if inp.duration is not None:
        hours = inp.hours()
        values.update(hours=sig(hours), energy_kwh=sig(kw * hours))
        parts.append(
            f"За {num(hours)}{NBSP}ч это до {num(kw * hours)}{NBSP}кВт·ч "
            f"({num(kw)}{NBSP}кВт × {num(hours)}{NBSP}ч)."
        )
    assumed = [
        "TDP — наибольшая длительная мощность GPU, поэтому это верхняя оценка",
        "не включены CPU, память, сеть и охлаждение сервера",
    ]
    formula = "мощность = TDP × число GPU; энергия = мощность × часы"
    unused = set() if inp.duration is not None else {"duration_unit"}
    if inp.duration is None or inp.duration_unit not in ("months", "years"):
        unused.add("hours_per_month")  # no month in the sum: no «месяц = 730 ч» to assume
    return Computation(formula, values, " ".join(parts), assumed, {}, frozenset(unused))


def related(args: Arguments, catalog: Catalog) -> list[str]:
    return ["tdp"]


LABELS = {
    "gpu": "GPU",
    "gpus": "число GPU",
    "duration": "длительность",
    "duration_unit": "единица длительности",
    "hours_per_month": "часов в месяце",
}
DESCRIPTION = (
    "Энергопотребление GPU по TDP: мощность = TDP × число GPU (кВт), энергия за срок = "
    "мощность × часы (кВт·ч). Верхняя оценка для самих GPU, без CPU и охлаждения."
)
TOOL = Tool(
    "gpu_power",
    DESCRIPTION,
    PowerInput,
    compute,
    LABELS,
    title="Энергопотребление",
    short="калькулятор энергопотребления",
    source="Расчёт: калькулятор энергопотребления по TDP",
    headline=("energy_kwh", "power_kw"),
    related=related,
)
