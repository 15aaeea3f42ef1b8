"""Normalised Russian question → the calculation it asks for (vram/fit/training/cost) or none.

Word lists only, no model: a definition question («что такое FP8?», «чем HBM отличается от
GDDR7», and how-to questions «как дообучить …») is `definitional` and goes to the calculators
only with an explicit calculation `request` («сколько памяти нужно …», «сколько стоит …»,
«почём …», «посчитай»). Traffic words are not a cost intent by themselves: only an egress
allowance question (extract.py sets `egress`) is.
"""

from __future__ import annotations

import re

from assistant.understanding.lexicon import (
    CARD_WORD,
    DEFINITION,
    FIT,
    OPENER,
    PRICE,
    PRICE_EN,
    RUN_VERB,
)

_DEFINITIONAL = re.compile(
    rf"{DEFINITION}|чем отлича\w*|в ч[её]м разниц\w*|разниц\w* между|"
    r"зачем|почему|объясни\w*|расскажи\w*|как работа\w*|для чего|что за\b|"
    # «что лучше: HBM или GDDR7» compares terms; «что лучше взять — L40S или H100» and «что
    # лучше для Qwen 32B: L40S или RTX PRO 6000?» are fits (a model named makes it one)
    r"что лучше(?! (?:взять|выбрать|брать|арендовать|для))|"
    r"какая архитектур\w*|кто (?:такой|такая)|какая разница|отличи\w*|отлича\w*|"
    # how-to questions: «как дообучить …», «как разрезать …», «какой механизм использовать»
    r"(?<![\w])как (?:\w+ )?(?!памят)\w+(?:ать|ять|еть|ить|уть|ыть|оть|сти|зти|чь)(?:ся)?(?![\w])|"
    r"как\w* (?:механизм|способ|подход|движок|фреймворк|библиотек)\w*"
)

# a card or the hardware in general («что по железу»)
_CARD = rf"(?:{CARD_WORD}|желез\w*)"
# «какую видеокарту взять», «какой сервер нужен», «на какой карте», «на чём это крутить», «что по
# железу»: asking which card (a fit, not a definition)
CHOOSE_CARD = (
    rf"как\w* (?:{_CARD}|сервер\w*|тачк\w*) (?:выбрать|взять|брать|нужн\w*|нужен|надо)|"
    rf"(?:на|в) как\w* {_CARD}|на ч[её]м (?:\w+ ){{0,2}}?{RUN_VERB}\w*|"
    rf"^(?:{OPENER} )?что по {_CARD}\s*[?!.]*$|"
    r"(?:which|what) (?:gpu|card|graphics card|hardware)s? (?:should|to|do|would|will|fits?|for)\b"
)

# «что взять», «что лучше выбрать»: which card to take (with a model named: a fit)
TAKE = r"что (?:лучше )?(?:взять|выбрать|брать|арендовать)"

_INTENTS = {
    "cost": rf"{PRICE}\w*|расход\w*|сумм\w*|денег|деньг\w*|тариф\w*|"
    r"счет\w*|gpu[ -]?час\w*|гпу[ -]?час\w*|gpu-hour\w*|в час\b|в месяц\b|"
    r"за час\b|\$|долл\w*|дорог\w*|дешев\w*|почасов\w*|помесячн\w*|"
    rf"hourly|monthly|per hour|per month|§m§|{PRICE_EN}|expensive|cheap\w*|budget\w*",
    "training": r"обучени\w*|обучить|обуча\w*|(?<![\w])(?:учим|учу|учат)(?![\w])|дообуч\w*|"
    r"fine[ -]?tun\w*|finetun\w*|файн[ -]?тюн\w*|"
    r"тренир\w*|train\w*|lora|лора|лору|qlora|zero|зеро|fsdp|фсдп|adam|претрейн\w*",
    "fit": rf"{FIT}\w*|поднят\w*|подним\w*|тянет|завед[её]тся|справится|осилит|выдержит|"
    r"разверн\w*|(?:сколько|скока|скоко|скок) (?:нужно |надо |потребуется )?"
    rf"(?:таких |этих |всего )?{_CARD}(?![ -]?час)|"
    r"(?:сколько|скока|скок) (?:таких|этих|их) (?:\w+ )?(?:нужн\w*|надо|потребу\w*|понадоб\w*)|"
    rf"как\w* {_CARD}|на как\w*|подойд\w*|подходит|подходят|"
    r"fit\w*|сколько §g§|умести\w*|на кажд\w*|на карт[уы]\b|(?:на|в) одн\w* карт\w*|"
    rf"{CHOOSE_CARD}|{TAKE}",
    # energy drawn («сколько электроэнергии съедят 8 H100 за месяц», «кВт·ч»); not «потребляет»,
    # which is how people ask about memory, and not «сколько ватт у H100», a fact of the card
    "power": r"электроэнерги\w*|электричеств\w*|энергопотреблени\w*|квт\w*|kwh|киловатт\w*|"
    r"power draw|power consumption|electricity",
    "vram": r"памят\w*|vram|видеопамят\w*|врам|\bгб\b|\bgb\b|гигабайт\w*|\bгиб\b|\bgib\b|"
    r"kv|кэш\w*|кеш\w*|cache|весит|весят|веса|весов|занима\w*|объем\w*|требовани\w*|потреб\w*|"
    r"запас\w*|накладн\w*|разбивк\w*|складыва\w*|распиш\w*",
}


# an explicit request to compute something, even without a number in the question
_REQUEST = re.compile(
    r"(?:сколько|скока|скольк\w*) (?:\w+ ){0,3}?(?:памяти|видеопамяти|vram|врам\w*|гб|gb|"
    r"гигабайт\w*|гиб|gib|места)(?! ?/ ?(?:с|s|сек\w*)(?![\w]))|"
    r"(?:сколько|скока) (?:\w+ ){0,3}?(?:стои\w*|будет стоить|обойд\w*|выйд\w*|выход\w*|"
    r"заплат\w*|денег|gpu[ -]?час\w*|гпу[ -]?час\w*)|"
    rf"(?:сколько|скока) (?:\w+ ){{0,2}}?{_CARD} (?:\w+ )?"
    r"(?:нужн|надо|потребу|понадоб|хват)\w*|"
    r"почем(?!у)|во сколько (?:\w+ )?обойд\w*|how much|how many|"
    r"посчитай|рассчитай|прикинь|calculate|"
    r"(?:сколько|скока) (?:\w+ ){0,3}?(?:электроэнерги|электричеств|квт|киловатт)\w*|"
    # «цена за H200 на месяц», «price of an L40S per hour», «cost for 8 H100»
    # (a card model after «за»: «цену за одну карту» in a how-to question is no request)
    r"(?<![\w])(?:цен[аеуы] за (?:\d+ )?[a-z]+\d|(?:price|cost)s? (?:of|for|to)(?![\w]))"
)


# «сколько весов на каждую?»: weights split across cards — no GPU model needed
_PER_CARD = re.compile(
    r"на кажд\w*|на (?:одн\w* )?карт[уы](?!\w)|весов (?:\w+ ){0,2}?на|на (?:один )?gpu\b"
)
# «поместится ли … на 2 карты?»: a verdict needs the card
_VERDICT = re.compile(rf"{FIT}\w*|тянет|справится|осилит|выдержит")


# «сколько займёт KV-кэш у Qwen3 30B при 32k?»: the cache itself, which the weights' precision
# does not change; «сколько памяти с кэшем» or «а веса?» ask the whole
# a bare «кэш» of a model is its KV cache («кэш на 4к контекста»), not a card's L2
_KV_ASKED = re.compile(
    r"(?<![\w])(?:kv|кв)[- ]?(?:кэш|кеш|cache)\w*|кэш\w* (?:ключ|внимани)\w*|"
    r"(?<![\w-])(?:кэш|кеш)\w*(?! ?(?:l[123]|второго|первого))(?![\w])"
)
# a number right before or after («80 слоёв», «head_dim 128»): the figure is given, not asked
_STATED = re.compile(r"\d\s*(?:[×x*]\s*)?$")
_STATED_AFTER = re.compile(r"\s*[:=—-]?\s*\d")
# a model's attention shape asked as such («сколько слоёв и kv-голов у llama 3 70b?»): what its
# KV cache is made of, which the catalogue gives for the models it lists
_ARCHITECTURE = re.compile(
    r"(?<![\w])(?:сло[её]в|слои|layers|(?:kv|кв)[- ]?(?:голов\w*|heads?)|голов\w* внимани\w*|"
    r"head[_ ]dim\w*|размерност\w* голов\w*|архитектур\w* внимани\w*)(?![\w])"
)
_WHOLE = re.compile(
    r"(?<![\w])(?:вес[аоу]?\w*|всего|итого|целиком|с кэшем|вместе|помест\w*|влез\w*)"
)


# «сколько H100 нужно под 405B?», «сколько карт понадобится?»: the number of cards is the answer
_COUNT_ASKED = re.compile(
    rf"(?:сколько|скока|скольк\w*) (?:(?:\w+|§g§) ){{0,2}}?(?:§g§|{_CARD}|gpu|гпу|штук)\w* "
    r"(?:\w+ )?(?:нужн\w*|надо|потребу\w*|понадоб\w*|хватит)|how many gpus"
)


def count_asked(t: str) -> bool:
    return bool(_COUNT_ASKED.search(t))


# «сколько гигов займут одни веса?», «пока только веса интересуют»: the weights are the answer
_WEIGHTS_ASKED = re.compile(
    r"(?<![\w])(?:одни|только|чисто|сами|голые) веса|"
    r"(?:займут|занимают|весят|будут весить) (?:\w+ )?(?:одни |сами |только )?веса|"
    r"веса (?:займут|занимают|весят|сколько)"
)


def weights_asked(t: str) -> bool:
    return bool(_WEIGHTS_ASKED.search(t)) and not _KV_ASKED.search(t)


def kv_asked(t: str) -> bool:
    return (bool(_KV_ASKED.search(t)) or architecture(t)) and not _WHOLE.search(t)


def architecture(t: str) -> bool:
    """Asked, not stated: «48 слоёв, 8 kv-голов — посчитай кэш» gives the shape itself."""
    return any(
        not _STATED.search(t[max(0, m.start() - 8) : m.start()])
        and not _STATED_AFTER.match(t, m.end())
        for m in _ARCHITECTURE.finditer(t)
    )


def chooses_card(t: str) -> bool:
    """«на какой карте?», «на чём это крутить?», «какой сервер нужен?»: which card to take."""
    return bool(re.search(rf"(?<![\w])(?:{CHOOSE_CARD})", t))


def per_card(t: str) -> bool:
    return bool(_PER_CARD.search(t))


def verdict(t: str) -> bool:
    return bool(_VERDICT.search(t))


def request(t: str) -> bool:
    """«сколько памяти нужно …», «сколько стоит …», «почём …», «посчитай» — a calculation."""
    return bool(_REQUEST.search(t))


def definitional(t: str) -> bool:
    return bool(_DEFINITIONAL.search(t))


def intents(t: str) -> set[str]:
    """Intent words that start a word: «юзеров» holds «зеро» but is no ZeRO, «процент» holds
    «цен» but is no price (every alternative is anchored, not only the first)."""
    return {name for name, p in _INTENTS.items() if re.search(rf"(?<![\w])(?:{p})", t)}


_TRAFFIC_PRICE = re.compile(
    rf"(?:{PRICE}\w*|платн\w*) (?:\w+ ){{0,2}}?трафик\w*|"
    rf"трафик\w* (?:\w+ ){{0,2}}?(?:{PRICE}\w*|платн\w*|оплачива\w*)|"
    r"(?:без )?доплат\w*"  # «без доплаты» — the egress fee, not a price to compute with
)


def price_words(t: str) -> bool:
    t = _TRAFFIC_PRICE.sub(" ", t)  # «сколько стоит исходящий трафик» asks about the egress fee
    return bool(
        re.search(
            rf"{PRICE}\w*|\$|долл\w*|дорог\w*|сколько денег|счет\w*|сумм\w*|"
            r"(?:сколько|скока|скоко|скок) (?:\w+ ){0,3}?выйд\w*|"  # «сколько выйдет» — money
            rf"(?<![\w])(?:{PRICE_EN}|budget\w*|expensive)",
            t,
        )
    )
