"""A problem message → Cause: what the symptom it describes comes from, when its words say so.

    cause(read("DDP на 4 картах падает по памяти, добавили ещё 4 — всё равно OOM на каждой"))
        → Cause.copy_on_each
    cause(read("подняли батч: общая пропускная выросла, а у юзеров печатает медленнее"))
        → Cause.batch_against_user

A symptom of this kind has one cause the glossary states whatever the entries the search ranks
first: each GPU holds a whole copy under data parallelism, a larger batch trades per-user speed
for the total, the KV cache bounds how many are served at once, tensor parallelism needs the
link inside one server, and gradient sync between servers waits on their network. The answer
stage says each cause with its entries' sentences (answer/causes.py). None: no such symptom.
"""

from __future__ import annotations

import re
from enum import StrEnum

from assistant.understanding.lexicon import CARD
from assistant.understanding.reader import ParsedMessage


class Cause(StrEnum):
    copy_on_each = "copy_on_each"  # DDP: each GPU holds the whole model, more GPUs do not help
    batch_against_user = "batch_against_user"  # a larger batch: more in total, slower each
    load_on_cache = "load_on_cache"  # many at once: the KV cache bounds how many are served
    tensor_across_servers = "tensor_across_servers"  # TP over the network between servers
    sync_between_servers = "sync_between_servers"  # gradient sync waits on a slow network


_DATA_PARALLEL = re.compile(r"(?<![\w])(?:ddp|distributeddataparallel|data parallel\w*|дп)(?![\w])")
_MORE_CARDS = re.compile(
    rf"(?<![\w])(?:добав\w*|докин\w*|докупи\w*|увеличи\w*|поставил\w*) (?:ещ[её] )?"
    rf"(?:\d+ |пару |несколько )?{CARD}"
)
_EACH_CARD = re.compile(rf"(?:на )?кажд\w* {CARD}|на всех {CARD}|памят\w* (?:станет|будет) больше")
_BATCH_UP = re.compile(
    r"(?<![\w])(?:подня\w*|увелич\w*|повы\w*|выкрути\w*|больш\w*|рост\w*|выросл\w*)"
    r"(?: \w+){0,2} (?:max[ _]?)?(?:батч\w*|batch\w*)"
)
_PER_USER_SLOW = re.compile(
    r"(?:юзер\w*|пользовател\w*|клиент\w*|на поток|кажд\w* (?:запрос|ответ)\w*)[^.?!]{0,60}"
    r"(?:медленн\w*|тормоз\w*|пада\w*|печата\w*|дольше|жалуют\w*)|"
    r"(?:печата\w*|стрим\w*|ответ\w*)[^.?!]{0,30}(?:медленн\w*|дольше|тормоз\w*)"
)
_BUSY = re.compile(
    r"(?<![\w])(?:дн[её]м|в пик\w*|под нагрузк\w*|когда (?:\w+ ){0,2}(?:много|куча|наплыв)|"
    r"много (?:народу|юзеров|пользователей|запросов|клиентов)|наплыв\w*|час\w* пик)"
)
_QUEUED = re.compile(r"очеред\w*|вис(?:ит|ят|нут)|ждут|пада\w* (?:throughput|скорост)|throughput")
_TENSOR = re.compile(
    r"(?<![\w])(?:tensor[ _-]?parallel\w*|тензорн\w* параллел\w*|tp ?= ?\d+|tp)(?![\w])"
)
_SERVERS = re.compile(
    r"(?:дв[еу]|две|\d+|нескольк\w*) (?:нод\w*|сервер\w*|сервак\w*|узл\w*|машин\w*)|"
    r"между (?:нод|сервер|узл)\w*|на (?:все|всех) 16|(?<![\w])16 (?:gpu|гпу|карт\w*)"
)
_SYNC = re.compile(
    r"(?:синхрониз\w*|all-?reduce|обмен\w*) (?:\w+ )?градиент\w*|градиент\w* (?:\w+ )?"
    r"(?:синхрониз\w*|обмен\w*)|ждет синхрониз\w*|больше ждет"
)
_SLOW_NET = re.compile(
    r"(?<![\w])(?:\d+ ?g(?:bit|бит)?|ethernet|эзернет|tcp|сокет\w*|обычн\w* сет\w*)"
)


def cause(message: ParsedMessage, *, memory: bool) -> Cause | None:
    """`memory`: the problem is memory (OOM): a copy on each card or tensor parallelism over
    servers explains it here, a slow or busy service does not."""
    t = message.tokens.folded
    if memory:
        several = (message.quantities.params.gpus or 1) > 1 or bool(_MORE_CARDS.search(t))
        each = bool(_EACH_CARD.search(t) or _MORE_CARDS.search(t))
        if (_DATA_PARALLEL.search(t) or "data-parallelism" in message.terms) and (several or each):
            return Cause.copy_on_each
    if (_TENSOR.search(t) or "tensor-parallelism" in message.terms) and _SERVERS.search(t):
        return Cause.tensor_across_servers  # «в одну ноду не влезает: tp на все 16?»
    if memory:
        return None
    if _BATCH_UP.search(t) and _PER_USER_SLOW.search(t):
        return Cause.batch_against_user
    if _BUSY.search(t) and _QUEUED.search(t):
        return Cause.load_on_cache
    if _SYNC.search(t) and (_SERVERS.search(t) or _SLOW_NET.search(t)):
        return Cause.sync_between_servers
    return None
