"""A calculation plan that lacks a parameter → the one Russian question back; a card outside
the catalogue → the note that says which memory was used.

    question(("precision",), merged, catalog) → «Какая точность — BF16, FP8 или FP4? …»
    question(("price",), Params(gpu="h200"), catalog) → «Цены H200 в глоссарии нет — есть
                                                         только пример: … По какой цене считать…»
    card_note(plan) → ["RTX A5000 — не из каталога FullGPU, считаем по указанной памяти: 24 ГБ"]
"""

from __future__ import annotations

from assistant.answer.calculations.words import gpu_name
from assistant.calculators.registry import ToolName
from assistant.calculators.units import gb_text, usd
from assistant.corpus.catalog import Catalog
from assistant.understanding.calculation import Plan
from assistant.understanding.params import Params

QUESTIONS = {
    "params_b": "Для какой модели считать — сколько у неё параметров (например, 8B или 70B) "
    "или как она называется (например, Llama 3 70B)?",
    "gpu": "На каких GPU — например, H100, H200 или B200?",
    "price": "По какой цене считать — сколько стоит GPU в месяц или в час?",
    "precision": "Какая точность — BF16, FP8 или FP4? Если не уверены, посчитаю для BF16.",
    "gpu_memory": "Сколько памяти у этой карты? Напишите объём в гигабайтах — посчитаю, "
    "поместится ли модель.",
}


def question(missing: tuple[str, ...], merged: Params, catalog: Catalog) -> str | None:
    """The one question back; the card named when there is one: «Сколько памяти у RTX 3060?»,
    «Цены H200 в глоссарии нет — … По какой цене считать H200 …»."""
    if not missing:
        return None
    label, gpu = merged.gpu_label, merged.gpu
    if missing[0] == "gpu_memory" and label:
        return (
            f"{label} нет в каталоге FullGPU. Сколько у этой карты памяти? Напишите объём в "
            "гигабайтах — посчитаю, поместится ли модель."
        )
    if missing[0] == "price":
        return _price_question(gpu, catalog)
    return QUESTIONS[missing[0]]


def _price_question(gpu: str | None, catalog: Catalog) -> str:
    """The price question with the glossary's example offered (read from the catalogue, not
    copied here); for another named card the example is only mentioned, never offered for it."""
    examples = catalog.prices.examples
    if not examples:
        return QUESTIONS["price"]
    ex = examples[0]
    hourly = ex.price_month_usd / catalog.prices.hours_per_month
    offer = (
        f"{gpu_name(ex.gpu, catalog)} за {usd(ex.price_month_usd)} в месяц "
        f"(около {usd(hourly)} за GPU-час)"
    )
    if gpu is None or gpu not in catalog.gpus:
        return f"{QUESTIONS['price']} Если хотите, возьму пример из глоссария: {offer}."
    name = gpu_name(gpu, catalog)
    # «почём у вас B200 в месяц?» asks the very price: that the glossary has none comes first
    return (
        f"Цены {name} в глоссарии нет — есть только пример: {offer}. По какой цене считать "
        f"{name} — сколько она стоит в месяц или в час? Назовите цену, и я посчитаю."
    )


def card_note(plan: Plan) -> list[str]:
    """«RTX A5000 — не из каталога FullGPU, считаем по указанной памяти: 24 ГБ»."""
    label, memory = plan.merged.gpu_label, plan.arguments.gpu_memory_gb
    if plan.tool != ToolName.gpu_fit or not label or memory is None:
        return []
    return [f"{label} — не из каталога FullGPU, считаем по указанной памяти: {gb_text(memory)}"]


def notes(plan: Plan) -> list[str]:
    """How the values were read, then the card's note: the assumptions a reader is shown."""
    return [*plan.notes, *card_note(plan)]
