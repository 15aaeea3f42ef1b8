"""Parsed message + calculation outcome → does a calculator answer it (the calculation gate)?"""

from __future__ import annotations

import re

from assistant.understanding.intent import CHOOSE_CARD, PRICE_EN, TAKE
from assistant.understanding.reader import ParsedMessage

_ASKS_DEFINITION = re.compile(
    r"(?<!\w)(?:что (?:вообще )?(?:такое|за)|что значит|что означает|"
    r"(?:what is|what's|what are)(?! (?:the )?(?:price|cost|total)))(?!\w)"
)

# An explicit request to compute something (not «why does it not fit», which is a term question).
_CALC_ASK = re.compile(
    r"(?<!\w)(?:сколько|скока|скоко|скок|скольк\w*|посчита\w*|рассчита\w*|подсчита\w*|прикин\w*|"
    r"оцени\w*|хватит|хватает ли|влезет|поместится|уместится|войд[её]т|запустится|запустить|"
    r"получится ли|подойд[её]т|подойдут|подходит ли|во что обойд\w*|почём|почем|какая цена|"
    r"какова цена|какая стоимость|цен[аеуы] за|на скольк\w*|how much|how many|calculate|"
    rf"estimate|fit|{PRICE_EN}|"
    r"hourly|monthly|per hour|per month|в час|за час|в месяц|как\w* сумм\w*|сумм\w*|"
    r"как\w* сч[её]т|денег|распиш\w*|распиши\w*|разбивк\w*|из чего склад\w*|"
    rf"{CHOOSE_CARD}|"
    rf"{TAKE}|хватит ли|есть ли плата|платн\w*|как\w* запас\w*|"
    r"запас\w* на накладн\w*|накладн\w* расход\w*|доплачива\w*|деньги за|бесплатн\w*|"
    r"объ[её]м\w*|лимит\w*|потян\w*|тянет|пойд[её]т ли|завед[её]тся|справится|осилит|"
    r"выдержит)(?!\w)"
)
# «какой механизм использовать», «как разрезать» — advice about a term, not a calculation.
_HOW = re.compile(
    r"(?<!\w)(?:как\w*|почему|зачем|что (?:использовать|выбрать|делать|съедает)|чем|"
    r"what|why|which)(?!\w)"
)
# «what about int4?», «how about a month?»: an English follow-up opener, not a how-question
_ABOUT = re.compile(r"^(?:and )?(?:what|how) about\b")
# Without the model size there is nothing to compute: explain the term instead.
_SIZE_KEYS = frozenset({"params_b", "model"})
# Arguments that only a calculation question carries (a GPU count alone does not count).
_HARD_KEYS = frozenset(
    {"params_b", "model", "gpu", "price_month", "price_hour", "duration", "context_tokens"}
)


def wants_calculation(
    message: ParsedMessage,
    numeric: bool,
    missing: list[str],
    arguments: dict[str, object],
    carried: bool,
) -> bool:
    """A calculator answers explicit calculation requests and short follow-ups to one."""
    t = message.tokens.folded
    if not numeric or _SIZE_KEYS & set(missing) or _ASKS_DEFINITION.search(t):
        return False
    if message.signals.throughput:  # tokens per second: no calculator gives that figure
        return False
    ask = bool(_CALC_ASK.search(t))
    # the egress allowance is a number only when asked for («сколько трафика включено»)
    hard = bool(_HARD_KEYS & set(arguments)) or (ask and "egress" in arguments)
    if carried and len(message.tokens.words) <= 8 and not missing:
        return ask or not _HOW.search(_ABOUT.sub("", t))
    if missing:  # a follow-up to a calculation gets its question back, not a term answer
        return (ask and hard) or (carried and (ask or hard))
    if _HARD_KEYS & set(arguments) == {"duration"} and not ask:
        return False  # «стих коллеге на день рождения»: a duration alone asks for no cost
    return hard and (ask or not _HOW.search(t))
