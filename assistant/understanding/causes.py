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

from assistant.understanding.lexicon import AI_TOPS, CARD, DATA_PARALLEL, FP64
from assistant.understanding.reader import ParsedMessage


class Cause(StrEnum):
    copy_on_each = "copy_on_each"  # DDP: each GPU holds the whole model, more GPUs do not help
    batch_against_user = "batch_against_user"  # a larger batch: more in total, slower each
    load_on_cache = "load_on_cache"  # many at once: the KV cache bounds how many are served
    tensor_across_servers = "tensor_across_servers"  # TP over the network between servers
    sync_between_servers = "sync_between_servers"  # gradient sync waits on a slow network
    pipeline_bubble = "pipeline_bubble"  # pipeline stages idle while it fills and drains
    expert_traffic = "expert_traffic"  # expert parallelism: all-to-all on every MoE layer
    shared_by_time = "shared_by_time"  # speed that swings: someone else's work on the card
    shared_by_vgpu = "shared_by_vgpu"  # the same on a vGPU: a share of the card's compute
    quantized_quality = "quantized_quality"  # fewer bits, some quality lost
    fp8_range = "fp8_range"  # E5M2 chosen for range: E4M3 is the precise one
    one_at_a_time = "one_at_a_time"  # requests served one by one: no continuous batching
    peaks_apart = "peaks_apart"  # AI TOPS (FP4, sparse) set against BF16 TFLOPS
    sharding_traffic = "sharding_traffic"  # FSDP fits but is slower: it gathers every layer
    failing_card = "failing_card"  # a card that fails now and then: DCGM finds it early
    full_precision = "full_precision"  # all in FP32: the tensor cores are not used
    copies_of_one = "copies_of_one"  # many fine-tunes of one model: LoRA adapters swapped
    offload_left = "offload_left"  # ZeRO-3 and still OOM: Offload and Infinity remain
    cores_counted = "cores_counted"  # cards chosen by CUDA cores: tensor cores decide for AI
    double_on_consumer = "double_on_consumer"  # FP64 work on a consumer card: a small share
    roce_untuned = "roce_untuned"  # RoCE slower than InfiniBand: only a lossless network matches


_DATA_PARALLEL = re.compile(DATA_PARALLEL)
_MORE_CARDS = re.compile(
    rf"(?<![\w])(?:добав\w*|докин\w*|докупи\w*|увеличи\w*|поставил\w*) (?:ещ[её] )?"
    rf"(?:\d+ |пару |несколько )?{CARD}"
)
_EACH_CARD = re.compile(rf"(?:на )?кажд\w* {CARD}|на всех {CARD}|памят\w* (?:станет|будет) больше")
_BATCH_UP = re.compile(
    r"(?<![\w])(?:подня\w*|увелич\w*|повы\w*|выкрути\w*|больш\w*|рост\w*|выросл\w*)"
    r"(?: \w+){0,2} (?:max[ _]?)?(?:батч\w*|batch\w*|max[-_ ]num[-_ ]seqs)"
)
# «набежало человек 50 одновременно … суммарно токенов/с даже больше»: a larger batch in effect
_MANY_AT_ONCE = re.compile(
    r"(?:\d+|много|куча|толп\w*|набежал\w*)[^.?!]{0,30}(?:одновременн\w*|параллельн\w*)|"
    r"(?:одновременн\w*|параллельн\w*) (?:\w+ )?(?:юзер|пользовател|запрос)\w*"
)
_TOTAL_UP = re.compile(
    r"(?:суммарн\w*|общ\w*|в сумме|throughput)[^.?!]{0,40}(?:больше|выросл\w*|вырос|растет|выше)"
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
    r"(?:два|дв[еу]|двух|\d+|нескольк\w*) (?:нод\w*|сервер\w*|сервак\w*|узл\w*|машин\w*)|"
    r"между (?:нод|сервер|узл)\w*|на (?:все|всех) 16|(?<![\w])16 (?:gpu|гпу|карт\w*)"
)
_SYNC = re.compile(
    r"(?:синхрониз\w*|all-?reduce|обмен\w*) (?:\w+ )?градиент\w*|градиент\w* (?:\w+ )?"
    r"(?:синхрониз\w*|обмен\w*)|ждет синхрониз\w*|больше ждет"
)
_ROCE = re.compile(r"(?<![\w])(?:roce\w*|роки|роце)(?![\w])")
_BEHIND = re.compile(
    r"медленн\w*|хуже|отста\w*|уступа\w*|тягаться|в разы|тупик|не дотягива\w*|просел\w*"
)
_SLOW_NET = re.compile(
    r"(?<![\w])(?:\d+ ?g(?:bit|бит)?|ethernet|эзернет|tcp|сокет\w*|обычн\w* сет\w*)"
)


# scaling that disappoints («масштабируется отвратно», «что со скейлингом»), not scaling asked
# for («чтобы реплики автоматически масштабировались»)
_SCALING = re.compile(
    r"(?:плохо|отвратно|ужасно|слабо|не|никак) масштабир\w*|"
    r"масштабир\w*(?: \S+){0,5} (?:плохо|отвратн\w*|ужасн\w*|слаб\w*|никак\w*|хуже)|"
    r"скейлинг\w*|(?:почти |совсем )?не быстрее|ускорил\w* (?:от силы|всего|лишь)|"
    r"шаг (?:\w+ ){0,2}(?:дольше|медленнее)|прирост\w* (?:нет|копеечн\w*|мизерн\w*)"
)
_PIPELINE = re.compile(
    r"(?<![\w])(?:pipeline|пайплайн\w*|конвейер\w*|по этапам|(?:\d+|несколько) (?:этап|стади)\w*)"
)
_IDLE = re.compile(
    r"простаива\w*|простой|простоя\w*|idle|утилизац\w*|недогруж\w*|ждут друг|без дела|"
    r"ничего не делают|(?:тупо|просто) сто[яи]т"
)
_EXPERTS = re.compile(
    r"expert[ _-]?parallel\w*|параллелизм\w* экспертов|по экспертам|all-?to-?all|moe-?сло\w*"
)
_STALLED = re.compile(
    r"медленн\w*|ждет|ждут|полз\w*|пересылк\w*|трафик\w*|тормоз\w*|все время уходит"
)
# speed that swings over the day (not «с плавающей запятой»)
_SWINGS = re.compile(
    r"(?<![\w])(?:скака\w*|скач(?:ет|ут|ки)|плава(?:ет|ют|л|ла|ло|ли)|плывет|плывут|прыга\w*|"
    r"кто-то (?:ещ[её] )?(?:на ней|крутит\w*|сидит)|делим|соседи|noisy neighbou?rs?)(?![\w])"
)
_BITS = re.compile(
    r"(?<![\w])(?:int4|int8|fp8|fp4|nf4|4 ?бит\w*|8 ?бит\w*|квант\w*|ужали|сжали|awq|gptq|"
    r"e5m2|e4m3)"
)
_WORSE = re.compile(
    r"тупее|глупее|качеств\w* (?:\w+ )?(?:просел\w*|упал\w*|хуже|ниже|поплыл\w*)|"
    r"(?:просел\w*|упал\w*|ухудшил\w*) качеств\w*|хуже отвеча\w*|деградир\w*|"
    r"ответы стали (?:\w+ )?(?:хуже|тупее|глупее)"
)
# requests served one at a time while a queue builds («по очереди» is how a card is shared)
_ONE_BY_ONE = re.compile(
    r"(?:запрос\w* )(?:\w+ )?(?:строго |только )?(?:по одному|последовательно|один за другим)|"
    r"без батч\w*"
)
_QUEUE = re.compile(r"(?<!по )очеред\w*|копит\w*")
_TOPS = re.compile(rf"(?<![\w]){AI_TOPS}(?![\w])")
_FLOPS = re.compile(r"tflops|терафлоп\w*|тфлопс\w*|(?<![\w])bf16(?![\w])")


_SHARDED = re.compile(r"(?<![\w])(?:fsdp|фсдп|zero-?3|зеро-?3)(?![\w])")
_SLOWER = re.compile(r"дольше|медленнее|замедлил\w*|тормоз\w*|упал\w* скорост\w*")
_FAILING = re.compile(
    r"глючил\w*|глючит|сбоит|сбоил\w*|отвалил\w*|отвалива\w*|выход\w* из строя|битая|"
    r"неисправн\w*|умирает|дохнет"
)
_EARLY = re.compile(
    r"заранее|ловить|поймать|мониторинг\w*|предупред\w*|до того,? как|не по факту|"
    r"как (?:понять|проверить|отличить|узнать)"
)
_FP32 = re.compile(r"(?<![\w])(?:fp32|фп32|float32|full precision|полной точност\w*)(?![\w])")
_DOUBLE = re.compile(rf"(?<![\w]){FP64}(?![\w])")
_COPIES = re.compile(
    r"(?:\d+|много|десят\w*|несколько) (?:\w+ )?(?:копи\w*|вариант\w*|версий|файнтюн\w*|моделей)"
)
_TUNED = re.compile(r"дообуч\w*|файнтюн\w*|fine-?tun\w*|под (?:разных |каждого )?клиент\w*")
_CORES = re.compile(
    r"cuda[- ]?(?:ядер|ядра|ядрам|cores?)|ядер cuda|кол-?в\w* (?:cuda )?ядер|числу ядер"
)


def cause(message: ParsedMessage, *, memory: bool) -> Cause | None:
    """`memory`: the problem is memory (OOM): a copy on each card or tensor parallelism over
    servers explains it here, a slow or busy service does not."""
    t = message.tokens.folded
    if message.signals.outside:  # «gradient checkpointing при FSDP — насколько медленнее?»
        return None  # a technique no entry describes: its cost is not the entries' to state
    if _SHARDED.search(t) and _SLOWER.search(t):  # «на FSDP влезло по памяти, но шаг дольше»
        return Cause.sharding_traffic
    if memory:
        several = (message.quantities.params.gpus or 1) > 1 or bool(_MORE_CARDS.search(t))
        each = bool(_EACH_CARD.search(t) or _MORE_CARDS.search(t))
        if (_DATA_PARALLEL.search(t) or "data-parallelism" in message.terms) and (several or each):
            return Cause.copy_on_each
        if re.search(r"(?<![\w])(?:zero-?3|zero stage 3|stage 3|зеро-?3)(?![\w])", t):
            return Cause.offload_left  # «уже zero-3, всё пошардено — и всё равно OOM»
    if (_TENSOR.search(t) or "tensor-parallelism" in message.terms) and _SERVERS.search(t):
        return Cause.tensor_across_servers  # «в одну ноду не влезает: tp на все 16?»
    if memory:
        return None
    if peaks_apart(message):
        return Cause.peaks_apart
    batch_up = _BATCH_UP.search(t) or (_MANY_AT_ONCE.search(t) and _TOTAL_UP.search(t))
    if batch_up and _PER_USER_SLOW.search(t):
        return Cause.batch_against_user
    if _BUSY.search(t) and _QUEUED.search(t):
        return Cause.load_on_cache
    return _slow(t, message)


def _slow(t: str, message: ParsedMessage) -> Cause | None:
    """A slow, idle or worse service: what its words say it comes from."""
    if _FAILING.search(t) and _EARLY.search(t):
        return Cause.failing_card
    slow = _SLOWER.search(t) or re.search(r"скорост\w*|медленн\w*", t)
    if _DOUBLE.search(t) and slow:  # «CFD в double на RTX 5090 медленнее старой теслы»
        return Cause.double_on_consumer
    if _FP32.search(t) and slow and not _DOUBLE.search(t):  # FP64 work is another matter
        return Cause.full_precision
    if _COPIES.search(t) and _TUNED.search(t):
        return Cause.copies_of_one
    if _CORES.search(t) and re.search(r"быстрее|обгоня\w*|медленнее|как так|сравнива\w*", t):
        return Cause.cores_counted
    if _PIPELINE.search(t) and _IDLE.search(t):
        return Cause.pipeline_bubble
    if (_EXPERTS.search(t) or "expert-parallelism" in message.terms) and _STALLED.search(t):
        return Cause.expert_traffic
    if _ROCE.search(t) and _BEHIND.search(t):  # «на RoCE all-reduce в разы медленнее, чем на IB»
        return Cause.roce_untuned
    if _SYNC.search(t) and (_SERVERS.search(t) or _SLOW_NET.search(t)):
        return Cause.sync_between_servers
    if _SERVERS.search(t) and _SCALING.search(t):  # «на двух нодах шаг почти не быстрее»
        return Cause.sync_between_servers
    if _SWINGS.search(t) and ("скорост" in t or "производительн" in t):
        return Cause.shared_by_vgpu if "vgpu" in t else Cause.shared_by_time
    if _BITS.search(t) and _WORSE.search(t):
        return Cause.fp8_range if re.search(r"e5m2|e4m3", t) else Cause.quantized_quality
    if _ONE_BY_ONE.search(t) and _QUEUE.search(t):
        return Cause.one_at_a_time
    return None


def peaks_apart(message: ParsedMessage) -> bool:
    """«у 5090 3352 AI TOPS, а у H100 989 TFLOPS — нас обманули?»: the two figures are stated
    under different conditions, whichever cards are named."""
    t = message.tokens.folded
    return bool(_TOPS.search(t) and _FLOPS.search(t))
