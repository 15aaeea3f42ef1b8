"""Short follow-ups to a calculation → the parameter they change, read against what is carried.

with_follow_up(read("а для 32k?"), carried)   → context 32 768 after a memory question
with_follow_up(read("а на одной?"), carried)  → gpus 1 after a calculation with GPUs
with_follow_up(read("у неё 24 ГБ"), carried)  → gpu_memory_gb 24 after the question back
                                                about an unknown card's memory
with_follow_up(read("а 80 гигов хватит?"), carried) → gpu_memory_gb 80 after a memory question
with_follow_up(read("да, возьми пример"), carried, "h100-sxm") → the glossary's example card
                                                after the question back about the price
with_follow_up(read("а если по 3.2?"), carried) → price_hour 3.2 after a cost at an hourly price
"""

from __future__ import annotations

import re

from assistant.understanding import intent
from assistant.understanding.lexicon import CARD_WORD, OPENER
from assistant.understanding.params import Params
from assistant.understanding.quantities import Extraction
from assistant.understanding.reader import ParsedMessage

SIZE = ("model", "params_b")
CARD_KEYS = ("gpu", "gpu_memory_gb", "gpu_label")  # the card a fit is for: one of them at a time
MEMORY_TOOLS = ("vram_inference", "gpu_fit", "vram_training")
SHORT_FOLLOW_UP_WORDS = 5
ASKS_FIT_WORDS = 8  # the calculation gate's limit for a follow-up (routing/router.py)


def short_follow_up(message: ParsedMessage, carried: Params) -> bool:
    if not carried.tool:
        return False
    return message.signals.continues or len(message.words) <= SHORT_FOLLOW_UP_WORDS


def asks_fit(message: ParsedMessage, carried: Params) -> bool:
    """A longer follow-up (up to 8 words) that asks where the carried calculation fits: which
    card («16к, и на какой карте лучше?» after the agent asked for the context) or whether it
    fits what it names («will it fit on a 4090?», «окей, а в bf16 влезет в h100?»). A fit word
    alone («неделю не могу запустить модель») is no such question."""
    if not carried.tool or len(message.words) > ASKS_FIT_WORDS:
        return False
    q = message.quantities
    return intent.chooses_card(message.normalised) or ("fit" in q.intents and bool(q.params))


_BARE_COUNT = re.compile(
    r"(?:^|\s)(?:на|в|для|взять|возьм\w*|бер[её]м|беру) (\d{1,5}|одн(?:ой|у|ом))(?: ?x)?"
    r"(?: (?:таких|штук\w*|шт))?\s*[?!.…]*$"
)


_ONLY_COUNT = re.compile(
    rf"^(?:(?:{OPENER}|ну) )?(\d{{1,5}})(?: ?x)?(?: (?:таких|такие|штук\w*|шт|{CARD_WORD}))?"
    r"\s*[?!.…]*$"
)


def _with_bare_count(message: ParsedMessage, carried: Params, ex: Extraction) -> Extraction:
    """«а на одной?», «а на 8?»: after a calculation with GPUs a bare number is their count;
    after a fit on a card a number alone is too («ну а две?»)."""
    if ex.params.has("gpus") or not short_follow_up(message, carried):
        return ex
    if carried.tool not in (*MEMORY_TOOLS, "gpu_cost"):
        return ex
    m = _BARE_COUNT.search(message.normalised)
    if m is None and carried.tool == "gpu_fit" and carried.has("gpu", "gpu_memory_gb"):
        m = _ONLY_COUNT.search(message.normalised)  # «ну а две?» after a fit on a card
    if m is None or ex.params.has("context_tokens", "duration", *SIZE):
        return ex
    n = int(m.group(1)) if m.group(1).isdigit() else 1
    gpus = Extraction(params=Params(gpus=n))
    return ex.merged(gpus)


_BARE_MEMORY = re.compile(r"(?<![\w.])(\d{1,5}(?:\.\d+)?) ?(?:гб|gb|гиг\w*|гигабайт\w*)(?![\w])")


_NUMBER_ONLY = re.compile(
    r"^(?:(?:ну|там|у нее|у него|примерно|около) )?(\d{1,5}(?:\.\d+)?)\s*[?!.…]*$"
)


def _memory_expected(carried: Params, ex: Extraction) -> bool:
    """The question back about an unknown card's memory is open, or a memory calculation is
    followed by «хватит?» / «влезет?» naming no card («а 80 гигов хватит?»)."""
    if ex.params.has("gpu_memory_gb"):
        return False
    if carried.has("gpu_label") and not carried.has("gpu_memory_gb"):
        return True
    inference = carried.tool in ("vram_inference", "gpu_fit")
    return inference and ex.verdict and not ex.params.has("gpu", "gpu_label")


def _with_bare_memory(message: ParsedMessage, carried: Params, ex: Extraction) -> Extraction:
    """«24 ГБ», «там 48 гигов», or a number alone («12») after the question back about an
    unknown card's memory; «а 80 гигов хватит?» after a memory calculation: the memory of the
    card asked about."""
    if not _memory_expected(carried, ex):
        return ex
    m = _BARE_MEMORY.search(message.normalised)
    if m is None and carried.asked == "gpu_memory":  # «Сколько памяти у этой карты?»
        m = _NUMBER_ONLY.search(message.normalised)  # «12», «ну 16»
    if m is None or not short_follow_up(message, carried):
        return ex
    return ex.merged(Extraction(params=Params(gpu_memory_gb=float(m.group(1)))))


# «да», «давай пример», «бери из глоссария»: yes to the offer in the question back
_YES = re.compile(
    r"^(?:да|ага|угу|давай\w*|ок|окей|ok|okay|yes|конечно|хорошо|возьм\w*|бери\w*|"
    r"посчитай\w*|считай\w*)(?!\w)|пример\w* из глоссари\w*|по примеру|как в примере"
)


def _with_example_price(
    message: ParsedMessage, carried: Params, ex: Extraction, example_gpu: str | None
) -> Extraction:
    """«да, возьми пример» after «По какой цене считать? … возьму пример из глоссария»: the
    example's card (its price is the glossary's) — never for another card already named."""
    if carried.asked != "price" or example_gpu is None:
        return ex
    if carried.gpu not in (None, example_gpu) or ex.params.has("gpu", "price_month", "price_hour"):
        return ex
    if not short_follow_up(message, carried) or not _YES.search(message.normalised):
        return ex
    return ex.merged(Extraction(params=Params(gpu=example_gpu)))


# «а если по 3.2?», «а по 1000?»: a number alone after «по» is the price, in the carried unit
_BARE_PRICE = re.compile(r"(?:^|\s)по (\d{1,7}(?:\.\d+)?)\s*[?!.…]*$")
PRICES = ("price_hour", "price_month")


def _with_bare_price(message: ParsedMessage, carried: Params, ex: Extraction) -> Extraction:
    """After a cost with a price, «а если по 3.2?» changes the price (per card, «по») and
    keeps its period."""
    key = next((k for k in PRICES if carried.has(k)), None)
    if carried.tool != "gpu_cost" or key is None or ex.params.has(*PRICES):
        return ex
    m = _BARE_PRICE.search(message.normalised)
    if m is None or not short_follow_up(message, carried):
        return ex
    price = Params.model_validate({key: float(m.group(1)), "price_scope": "per_gpu"})  # «по»: each
    return ex.merged(Extraction(params=price))


def with_follow_up(
    message: ParsedMessage, carried: Params, example_gpu: str | None = None
) -> Extraction:
    """«а для 32k?»: after a memory question a bare «32k» is the context length."""
    ex = _with_bare_count(message, carried, message.quantities)
    ex = _with_bare_memory(message, carried, ex)
    ex = _with_example_price(message, carried, ex, example_gpu)
    ex = _with_bare_price(message, carried, ex)
    if (
        carried.tool in MEMORY_TOOLS
        and not ex.params.has("context_tokens")
        and (short_follow_up(message, carried) or asks_fit(message, carried))
        and message.bare_context is not None
    ):
        return ex.merged(message.bare_context)
    return ex


def replace_card(base: Params, new: Params) -> Params:
    """`base` without the carried card the follow-up's card replaces: a card named («а на
    H200?», «а на A6000 на 48 ГБ?») replaces the carried one with its memory; a memory alone
    («а 80 гигов хватит?») replaces the catalogue card, and an unknown card's name once its
    memory was known (the reply «у неё 24 ГБ» to the question back keeps the name)."""
    if new.has("gpu", "gpu_label"):
        return base.without(*CARD_KEYS)
    if new.has("gpu_memory_gb"):
        base = base.without("gpu")
        if base.has("gpu_memory_gb"):
            base = base.without("gpu_label")
    return base
