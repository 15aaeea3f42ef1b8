"""Calculator arguments → the friendly Russian explanation of a value out of range, or None.

    out_of_range("gpu_cost", {"duration": 500, "duration_unit": "years"})
        → "Посчитать не получится: длительность аренды 500 лет — больше предела в 10 лет. …"

The calculators validate their inputs too (a ToolInputError); this check runs first so that a
person who wrote «на 500 лет», «-13B» or a 400-digit number gets an answer that names the value,
the limit and what to write instead — never an exception (HTTP 200, one JSON line in the CLI).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from assistant.tools.fields import MAX_BATCH, MAX_CONTEXT, MAX_GPUS, MAX_PARAMS_B
from assistant.tools.units import NBSP, num

MAX_HOURS = 24 * 366 * 10  # ten years: the cost calculator's limit
HOURS = {"hours": 1.0, "days": 24.0, "weeks": 168.0, "months": 730.0, "years": 8760.0}
UNIT_WORDS = {
    "hours": ("час", "часа", "часов"),
    "days": ("день", "дня", "дней"),
    "weeks": ("неделя", "недели", "недель"),
    "months": ("месяц", "месяца", "месяцев"),
    "years": ("год", "года", "лет"),
}


@dataclass(frozen=True)
class Limit:
    label: str  # «размер модели»
    top: float  # largest accepted value
    top_text: str  # «20 000 млрд параметров (20 трлн)»
    example: str  # what to write instead: «например, 70B»
    zero_ok: bool = False


LIMITS: dict[str, Limit] = {
    "params_b": Limit("размер модели", MAX_PARAMS_B, "20 трлн параметров", "например, 70B"),
    "context_tokens": Limit(
        "контекст", MAX_CONTEXT, "10 млн токенов", "например, «контекст 32k»", zero_ok=True
    ),
    "batch": Limit(
        "число одновременных запросов", MAX_BATCH, "100 000", "например, «10 пользователей»"
    ),
    "gpus": Limit("число GPU", MAX_GPUS, "100 000", "например, «8 H100»"),
    "gpu_memory_gb": Limit("память карты", 10_000, "10 000 ГБ", "например, «24 ГБ»"),
    "price_month": Limit("цена в месяц", 10_000_000, "10 млн $", "например, «2 190 $ в месяц»"),
    "price_hour": Limit("цена в час", 100_000, "100 000 $", "например, «3 $ в час»"),
    "layers": Limit("число слоёв", 1000, "1 000", "например, «80 слоёв»"),
    "kv_heads": Limit("число KV-голов", 1024, "1 024", "например, «8 KV-голов»"),
    "head_dim": Limit("размерность головы", 4096, "4 096", "например, 128"),
}


def _huge(value: float) -> bool:
    return not math.isfinite(value) or abs(value) >= 1e15


def _shown(value: float) -> str:
    """« 500» as the person wrote it, or «: слишком длинное число» when it is too long to repeat."""
    return ": слишком длинное число" if _huge(value) else f" {num(value)}"


def _check(key: str, value: float) -> str | None:
    limit = LIMITS[key]
    if math.isnan(value):
        return f"{limit.label} не число. Напишите число цифрами, {limit.example}."
    if value < 0:
        return (
            f"{limit.label}{_shown(value)} — отрицательное значение, такого не бывает. "
            f"Напишите его без минуса, {limit.example}."
        )
    if value == 0 and not limit.zero_ok:
        return f"{limit.label} 0 — посчитать нечего. Укажите значение больше нуля, {limit.example}."
    if value > limit.top:
        return (
            f"{limit.label}{_shown(value)} — больше предела калькулятора "
            f"({limit.top_text}). Проверьте число, {limit.example}."
        )
    return None


def _duration(args: Mapping[str, Any]) -> str | None:
    value, unit = args.get("duration"), str(args.get("duration_unit") or "hours")
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    words = UNIT_WORDS.get(unit, UNIT_WORDS["hours"])
    shown = f"{_shown(value).strip(' :')}{NBSP}{_plural(value, words)}"
    example = "например, «на 3 дня» или «на месяц»"
    if math.isnan(value):
        return f"длительность аренды не число. Напишите её цифрами, {example}."
    if value < 0:
        return f"длительность аренды {shown} — отрицательная. Напишите срок без минуса, {example}."
    if value == 0:
        return f"длительность аренды {shown} — платить не за что. Укажите срок, {example}."
    if value * HOURS.get(unit, 1.0) > MAX_HOURS:
        shown = "— слишком длинное число" if _huge(value) else shown
        return (
            f"длительность аренды {shown} — больше предела калькулятора в 10 лет. "
            f"Укажите срок до 10 лет, {example}."
        )
    return None


def _plural(n: float, words: tuple[str, str, str]) -> str:
    if not math.isfinite(n) or n != int(n) or abs(n) >= 1e15:
        return words[2] if not math.isfinite(n) or abs(n) >= 1e15 else words[1]
    k = abs(int(n))
    if k % 10 == 1 and k % 100 != 11:
        return words[0]
    return words[1] if 2 <= k % 10 <= 4 and not 12 <= k % 100 <= 14 else words[2]


def out_of_range(args: Mapping[str, Any]) -> str | None:
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
