"""Normalised Russian question → the calculation it asks for (vram/fit/training/cost) or none.

Word lists only, no model: a definition question («что такое FP8?», «чем HBM отличается от
GDDR7») is `definitional` and must not go to the calculators unless it also carries numbers to
compute with (a model size, a price, a duration).
"""

from __future__ import annotations

import re

_DEFINITIONAL = re.compile(
    r"что так\w*|что значит|что означа\w*|чем отлича\w*|в ч[её]м разниц\w*|разниц\w* между|"
    r"зачем|почему|объясни\w*|расскажи\w*|как работа\w*|для чего|что лучше|что за\b|"
    r"какая архитектур\w*|кто (?:такой|такая)|какая разница|отличи\w*|отлича\w*"
)

_INTENTS = {
    "cost": r"стои\w*|стоимост\w*|цен\w*|заплат\w*|обойд\w*|обход\w*|бюджет\w*|расход\w*|"
    r"оплат\w*|тариф\w*|счет\w*|gpu[ -]?час\w*|гпу[ -]?час\w*|gpu-hour\w*|в час\b|в месяц\b|"
    r"за час\b|\$|долл\w*|трафик\w*|egress|исходящ\w*|дорог\w*|дешев\w*|почасов\w*|помесячн\w*|"
    r"hourly|monthly|per hour|per month|§m§",
    "training": r"обучени\w*|обучить|обучать|дообуч\w*|fine[ -]?tun\w*|finetun\w*|файн[ -]?тюн\w*|"
    r"тренир\w*|train\w*|lora|лора|лору|qlora|zero|зеро|fsdp|фсдп|adam|претрейн\w*",
    "fit": r"помест\w*|влез\w*|влаз\w*|хват\w*|войд\w*|уместит\w*|запуст\w*|поднят\w*|подним\w*|"
    r"разверн\w*|сколько (?:нужно |надо |потребуется )?(?:карт|gpu|гпу|видеокарт)(?![ -]?час)\w*|"
    r"как\w* (?:gpu|гпу|карт\w*|видеокарт\w*)|на как\w*|подойд\w*|подходит|подходят|"
    r"fit\w*|сколько §g§|умести\w*",
    "vram": r"памят\w*|vram|видеопамят\w*|врам|\bгб\b|\bgb\b|гигабайт\w*|\bгиб\b|\bgib\b|"
    r"kv|кэш\w*|кеш\w*|cache|весит|весят|веса|занима\w*|объем\w*|требовани\w*|потреб\w*",
}


def definitional(t: str) -> bool:
    return bool(_DEFINITIONAL.search(t))


def intents(t: str) -> set[str]:
    return {name for name, p in _INTENTS.items() if re.search(rf"(?<![\w]){p}", t)}


def price_words(t: str) -> bool:
    return bool(
        re.search(
            r"стои\w*|стоимост\w*|цен\w*|заплат\w*|обойд\w*|бюджет\w*|\$|долл\w*|дорог\w*|"
            r"сколько денег|оплат\w*|счет\w*",
            t,
        )
    )
