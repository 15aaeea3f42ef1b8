"""Calculator arguments → the friendly Russian explanation of a value out of range, or None.

    out_of_range("gpu_cost", {"duration": 500, "duration_unit": "years"})
        → "Посчитать не получится: срок аренды в вопросе больше, чем умеет калькулятор: …"

The calculators validate their inputs too (a ToolInputError); this check runs first so that a
person who wrote «на 500 лет», «-13B» or a 400-digit number gets an answer that names the value,
the limit and what to write instead — never an exception (HTTP 200, one JSON line in the CLI).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from assistant.calculators.fields import MAX_BATCH, MAX_CONTEXT, MAX_GPUS, MAX_PARAMS_B

MAX_HOURS = 24 * 366 * 10  # ten years: the cost calculator's limit
HOURS = {"hours": 1.0, "days": 24.0, "weeks": 168.0, "months": 730.0, "years": 8760.0}


@dataclass(frozen=True)
class Limit:
    label: str  # «размер модели»
    top: float  # largest accepted value
    top_text: str  # «до двадцати триллионов параметров»: the limit, in words (see below)
    example: str  # what to write instead, without figures
    zero_ok: bool = False


# The texts carry no figures of their own: every number in an answer must be backed by a cited
# entry, a tool result or the user's words (answer/grounding.py), and a refusal has no tool
# result. The limits are therefore spelled out, and the user's own value is not repeated.
LIMITS: dict[str, Limit] = {
    "params_b": Limit(
        "размер модели",
        MAX_PARAMS_B,
        "до двадцати триллионов параметров",
        "число параметров, как в названии модели",
    ),
    "context_tokens": Limit(
        "контекст", MAX_CONTEXT, "до десяти миллионов токенов", "длину контекста", zero_ok=True
    ),
    "batch": Limit(
        "число одновременных запросов",
        MAX_BATCH,
        "до ста тысяч запросов",
        "сколько запросов идёт одновременно",
    ),
    "gpus": Limit("число GPU", MAX_GPUS, "до ста тысяч GPU", "сколько карт нужно"),
    "gpu_memory_gb": Limit(
        "память карты", 10_000, "до десяти тысяч ГБ", "сколько гигабайт памяти у карты"
    ),
    "price_month": Limit(
        "цена в месяц", 10_000_000, "до десяти миллионов долларов", "цену в долларах в месяц"
    ),
    "price_hour": Limit("цена в час", 100_000, "до ста тысяч долларов", "цену в долларах в час"),
    "layers": Limit("число слоёв", 1000, "до тысячи слоёв", "число слоёв модели"),
    "kv_heads": Limit("число KV-голов", 1024, "не больше тысячи с небольшим", "число KV-голов"),
    "head_dim": Limit(
        "размерность головы", 4096, "не больше нескольких тысяч", "размерность головы"
    ),
}
DURATION_EXAMPLE = "например, «на неделю» или «на месяц»"


def _check(key: str, value: float) -> str | None:
    limit = LIMITS[key]
    if math.isnan(value):
        return f"{limit.label} — не число. Напишите {limit.example} цифрами."
    if value < 0:
        return f"{limit.label} в вопросе со знаком минус — такого не бывает: напишите без минуса."
    if value == 0 and not limit.zero_ok:
        return f"{limit.label} в вопросе — ноль, считать нечего. Укажите {limit.example}."
    if value > limit.top:
        return (
            f"{limit.label} в вопросе больше, чем умеет калькулятор: он считает "
            f"{limit.top_text}. Проверьте {limit.example}."
        )
    return None


def _duration(args: Mapping[str, object]) -> str | None:
    value, unit = args.get("duration"), str(args.get("duration_unit") or "hours")
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    if math.isnan(value):
        return f"длительность аренды — не число. Напишите срок, {DURATION_EXAMPLE}."
    if value < 0:
        return f"срок аренды в вопросе отрицательный. Напишите его без минуса, {DURATION_EXAMPLE}."
    if value == 0:
        return (
            f"срок аренды в вопросе нулевой — платить не за что. Укажите срок, {DURATION_EXAMPLE}."
        )
    if value * HOURS.get(unit, 1.0) > MAX_HOURS:
        return (
            "срок аренды в вопросе больше, чем умеет калькулятор: он считает аренду сроком до "
            f"десяти лет. Укажите срок покороче, {DURATION_EXAMPLE}."
        )
    return None


def out_of_range(args: Mapping[str, object]) -> str | None:
    """The first argument out of range, explained in Russian («Посчитать не получится: …»)."""
    problems = [_duration(args)]
    for key in LIMITS:
        value = args.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            problems.append(_check(key, float(value)))
    first = next((p for p in problems if p), None)
    return f"Посчитать не получится: {first}" if first else None


def explain(message: str) -> str:
    """A calculator's own refusal (ToolInputError), worded as an answer."""
    text = message.removeprefix("Неверные параметры расчёта — ").strip()
    if text[1:2].islower():
        text = text[:1].lower() + text[1:]
    return f"Посчитать не получится: {text}"
