"""Russian free text → calculator parameters (deterministic regular expressions, no LLM).

    extract("сколько памяти нужно Llama 3 70B в FP8 с контекстом 32k", catalog) -> Extraction(
        params={"model": "llama-3-70b", "precision": "fp8", "context_tokens": 32768},
        intents={"vram"}, definitional=False, notes=("32k = 32 768 токенов",),
        models=("llama-3-70b",))

`extract_normalised` reads text already normalised (parsing/message.py reads each message once);
money, durations, context and batch readers live in amounts.py.

Parameter keys (shared by all tools): model, params_b, precision, kv_precision, context_tokens,
batch, gpu, gpus, price_month, price_hour, price_scope, duration, duration_unit, method,
sharding, gib, egress. Intent words: vram, fit, training, cost (an egress allowance question
counts as cost). `request` marks an explicit calculation request; `price_scope` is "total" when a
price is stated for a server («сервер на 8 H100 стоит …», «за 8 карт») unless it says «за карту»;
«сколько стоит один GPU-час» asks for the rate and sets no duration.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field, replace

from assistant.calculators.fields import MAX_GPUS
from assistant.corpus.catalog import Catalog, Record, norm
from assistant.text.numbers import normalise
from assistant.understanding import intent
from assistant.understanding.amounts import (
    GPU_MARK,
    NUM,
    Found,
    batch,
    clean,
    context,
    count,
    duration,
    money,
    signed,
)
from assistant.understanding.amounts import bare_context as _bare_context
from assistant.understanding.architecture import architecture
from assistant.understanding.dates import DateMention
from assistant.understanding.hardware import gpu_memory, unknown_gpu
from assistant.understanding.lexicon import CARD_WORD, DATA_PARALLEL
from assistant.understanding.params import Params
from assistant.understanding.periods import masked


@dataclass(frozen=True)
class Setup:
    """One of the usages a message weighs against each other: «8 карт на 10 часов»."""

    gpus: int
    duration: float
    unit: str


@dataclass(frozen=True)
class Extraction:
    """Calculator parameters, intent words and catalogue names read from one message."""

    params: Params = field(default_factory=Params)
    intents: frozenset[str] = frozenset()
    definitional: bool = False
    price_words: bool = False  # «сколько стоит», «цена» — a price is needed
    request: bool = False  # explicit calculation request («сколько памяти нужно», «почём»)
    per_card: bool = False  # «сколько весов на каждую карту?»
    verdict: bool = False  # «поместится?», «хватит?»: asks whether it fits
    kv_asked: bool = False  # «сколько займёт KV-кэш?»: the cache, whatever the weights' precision
    weights_asked: bool = False  # «сколько займут одни веса?»: the weights, not the total
    architecture: bool = False  # «сколько слоёв и kv-голов у …?»: the model's attention shape
    count_asked: bool = False  # «сколько H100 нужно?»: the number of cards is the answer
    notes: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()  # Russian: a value that cannot be used («дата окончания …»)
    gpus: tuple[str, ...] = ()  # every catalogue GPU named, in order of appearance
    # how many of each, when written before its name: «одна h200 или две h100» → h200 1, h100 2
    gpu_counts: tuple[tuple[str, int], ...] = ()
    models: tuple[str, ...] = ()  # every catalogue model named, in order of appearance
    # «8 карт часов на 10 или одна карта 80 часов?»: each usage, to be priced side by side
    setups: tuple[Setup, ...] = ()

    def merged(self, other: Extraction) -> Extraction:
        """This reading plus another's parameters (theirs win) and notes."""
        params = self.params.merged(other.params)
        return replace(self, params=params, notes=self.notes + other.notes)


# ---------------------------------------------------------------- precision

# «4-битный float», «8-битный флоат», «4 бита с плавающей точкой» are FP4 / FP8, not INT4 / INT8
_FLOAT = r"(?:float\w*|floating[ -]point|флоат\w*|с плавающ\w* (?:точк|запят)\w*)"
# «4bit», «8-bit», «16 bit»: the English word too (chat writes it in Latin, not only «4 бита»)
_BIT = r"(?:бит|bit)\w*"
_PRECISION_PATTERNS = [
    (
        "fp32",
        rf"fp ?32|float ?32|tf32|фп ?32|одинарн\w* точност\w*|полн\w* точност\w*|32[ -]?{_BIT}",
    ),
    ("bf16", r"bf ?16|bfloat ?16|бф ?16|бфлоат\w*|brain float"),
    ("fp16", rf"fp ?16|float ?16|фп ?16|половинн\w* точност\w*|half precision|16[ -]?{_BIT}"),
    ("fp8", rf"fp ?8|float ?8|фп ?8|e4m3|e5m2|8[ -]?{_BIT} {_FLOAT}"),
    ("int8", rf"int ?8|инт ?8|q8\w*|8[ -]?{_BIT}(?! {_FLOAT})|восьмибит\w*"),
    ("nf4", r"nf ?4|нф ?4"),
    ("fp4", rf"nvfp4|mxfp4|fp ?4|фп ?4|float ?4|4[ -]?{_BIT} {_FLOAT}"),
    ("int4", rf"int ?4|инт ?4|q4\w*|awq|gptq|4[ -]?{_BIT}(?! {_FLOAT})|четырехбит\w*"),
]
# «KV-кэш в FP8», «кэш в int8»: the precision is the cache's; whole words only — «квантануть в
# 4 бита», «квантование в FP8» are about the weights
_KV_BEFORE = re.compile(r"(?<![\w])(?:kv|кв|кэш\w*|кеш\w*|cache)(?![\w])[\s-]*(\w+\s+){0,2}$")


def _precisions(t: str, out: Found) -> None:
    found: list[tuple[int, str, bool]] = []
    for name, pattern in _PRECISION_PATTERNS:
        for m in re.finditer(rf"(?<![\w])(?:{pattern})(?![\w])", t):
            is_kv = bool(_KV_BEFORE.search(t[max(0, m.start() - 25) : m.start()]))
            found.append((m.start(), name, is_kv))
    found.sort()
    weights = [n for _, n, kv in found if not kv]
    kv = [n for _, n, k in found if k]
    if weights:
        out.params["precision"] = weights[0]
        if len(dict.fromkeys(weights)) > 1:
            out.params["compare_precisions"] = list(dict.fromkeys(weights))
    if kv:
        out.params["kv_precision"] = kv[0]


# ---------------------------------------------------------------- model and size


_FAMILIES = (
    (r"л?лам\w*", "llama"),
    (r"квен\w*", "qwen"),
    (r"мистрал\w*", "mistral"),
    (r"микстрал\w*", "mixtral"),
    (r"дипсик\w*", "deepseek"),
)


def _families(text: str) -> str:
    """Russian spellings of model families in any case form → Latin («лламе» → «llama»)."""
    for pattern, latin in _FAMILIES:
        text = re.sub(rf"(?<![\w]){pattern}", latin, text)
    return text


def _alias_spans(padded: str, aliases: tuple[tuple[Record, str], ...]) -> tuple[Record, str] | None:
    """Longest alias of any record found in `padded` (norm'ed tokens) → (record, alias)."""
    best: tuple[int, Record, str] | None = None
    for item, a in aliases:
        if f" {a} " in padded and (best is None or len(a) > best[0]):
            best = (len(a), item, a)
    return (best[1], best[2]) if best else None


def _named(padded: str, aliases: tuple[tuple[Record, str], ...]) -> tuple[str, ...]:
    """Ids of every record named in `padded`, in order; of overlapping names the longest wins."""
    return tuple(dict.fromkeys(rid for _, _, rid in _spans(padded, aliases)))


# a count written right before a card's name: «1 h200 или 2 h100», «8 x h100 или 4 x b200»
# not a precision's digits: the catalogue form splits «bf16 — ртх 5090» into «bf 16 ртх 5090»
_COUNT_BEFORE = re.compile(
    r"(?<![\w.,])(?<!bf )(?<!fp )(?<!int )(?<!tf )(?<!nf )"
    r"(\d{1,3}) ?(?:x|х|\*|×)? ?(?:(?:nvidia|amd|geforce|instinct) )*$"
)


def _counts(padded: str, aliases: tuple[tuple[Record, str], ...]) -> tuple[tuple[str, int], ...]:
    """(card id, how many) for each card named with its own count, in order of appearance."""
    out: dict[str, int] = {}
    for start, _, rid in _spans(padded, aliases):
        m = _COUNT_BEFORE.search(padded[max(0, start - 32) : start])
        if m and rid not in out and 0 < int(m.group(1)) <= MAX_GPUS:
            out[rid] = int(m.group(1))
    return tuple(out.items())


def _spans(padded: str, aliases: tuple[tuple[Record, str], ...]) -> list[tuple[int, int, str]]:
    """(start, end, id) of every name in `padded`, in order; of overlapping ones the longest."""
    spans: list[tuple[int, int, str]] = []
    for item, a in aliases:
        at = padded.find(f" {a} ")
        while at >= 0:
            spans.append((at + 1, at + 1 + len(a), item.id))
            at = padded.find(f" {a} ", at + 1)
    kept: list[tuple[int, int, str]] = []  # in order of start; they never overlap
    for span in sorted(spans, key=lambda s: (s[0] - s[1], s[0])):
        # of the names kept, only the last one starting before this one ends can overlap it
        at = bisect_left(kept, (span[1],))
        if not (at and kept[at - 1][1] > span[0]):
            kept.insert(at, span)
    return kept


def _model(padded: str, t: str, out: Found, catalog: Catalog) -> str:
    hit = _alias_spans(padded, catalog.model_aliases)
    if hit:
        out.params["model"] = hit[0].id
        return t
    for pattern, scale in (
        (rf"{NUM} ?(?:b|bn|млрд\.?|миллиард\w*|billion)(?![\w])", 1.0),
        (rf"{NUM} ?(?:t|трлн\.?|триллион\w*)(?= ?параметр)|{NUM}t(?![\w])", 1000.0),
        (rf"{NUM} ?(?:m|млн\.?|миллион\w*) ?(?:параметр\w*)|{NUM}m(?![\w])", 0.001),
        (rf"{NUM} ?(?:параметр\w*)", 1e-9),
    ):
        m = re.search(rf"(?<![\w.x]){pattern}", t)
        if m:
            group = next(i for i, g in enumerate(m.groups(), 1) if g)
            value = signed(t, m.start(group), clean(float(m.group(group)) * scale))
            out.params["params_b"] = value
            return t[: m.start()] + " " + t[m.end() :]
    return t


# ---------------------------------------------------------------- GPUs

_COUNT_WORDS = rf"(?:{CARD_WORD}|штук\w*|шт\.?)"
# «100 GPU-часов», «8 гпу часов» are GPU-hours, not a count; «на 8 карт часов на 10» is a count
_GPU_HOUR = r"-?час|(?<=gpu|гпу) час"


def _gpus(padded: str, t: str, out: Found, catalog: Catalog) -> str:
    hit = _alias_spans(padded, catalog.gpu_aliases)
    every = t
    if hit:
        gpu, alias = hit
        out.params["gpu"] = gpu.id
        pattern = r"[\s-]*".join(re.escape(p) for p in alias.split())
        named = rf"(?:nvidia |amd |instinct |geforce )*{pattern}(?: sxm)?"
        every = re.sub(named, GPU_MARK, t)
        t = re.sub(named, GPU_MARK, t, count=1)
    # «в одну h100 влезает, а на 8×h100 падает»: a count written as «N × card» is the setup
    times = re.search(rf"(?<!\d)(\d+) ?(?:x|х|\*) ?{GPU_MARK}", every)
    m = (
        times
        or re.search(rf"(?<!\d)(\d+) ?(?:x|х|\*)? ?{GPU_MARK}", t)
        or re.search(rf"{GPU_MARK} ?(?:x|х|\*) ?(\d+)", t)
        or re.search(rf"(?<![\w.])(\d+) ?(?:-? ?x ?)?{_COUNT_WORDS}(?!{_GPU_HOUR})", t)
        or re.search(rf"{_COUNT_WORDS} ?x ?(\d+)(?![\w.])", t)
    )
    tp = re.search(
        r"(?<![\w])(?:tp|tensor[ -]?parallel\w*(?: size)?)\s*[=:]?\s*(\d{1,5})(?![\w.])", t
    )
    if tp:  # «при TP=4»: the tensor-parallel size is the GPU count
        out.params["gpus"] = count(tp.group(1))
    elif m:
        out.params["gpus"] = signed(every if m is times else t, m.start(1), count(m.group(1)))
    elif re.search(r"восьми(?:гпу|карточн|gpu)\w*|8[ -]?(?:gpu|гпу|карточн\w*)[ -]?сервер\w*", t):
        out.params["gpus"] = 8
    return t


# ---------------------------------------------------------------- method, sharding, flags


_METHODS = (
    ("qlora", r"q ?lora|ку ?лора|кулора|qлора"),
    ("lora", r"(?<![\w])(?:lora|лора|лору|лоры|лорой)(?![\w])"),
    (
        "full",
        r"(?:полн\w*|фулл\w*|full) ?(?:дообучени|файн|fine|обучени|ft|sft)\w*|"
        r"full[ -]?finetun\w*|с нуля|претрейн\w*|pre ?train\w*",
    ),
)


def _training(t: str, out: Found) -> None:
    """The fine-tuning method (QLoRA before LoRA, whose name it contains); two or more named
    («фулл файнтюн или LoRA?») are each computed, in the order written."""
    found: list[tuple[int, str]] = []
    taken: list[tuple[int, int]] = []
    for method, pattern in _METHODS:
        for hit in re.finditer(pattern, t):
            if not any(a <= hit.start() < b for a, b in taken):  # «q lora» is QLoRA only
                found.append((hit.start(), method))
                taken.append(hit.span())
                break
    if found:
        out.params["method"] = min(found)[1]
        if len(found) > 1:
            out.params["compare_methods"] = [f for _, f in sorted(found)]
    m = re.search(
        r"(?:zero|зеро)[ -]?(?:stage ?|стади\w* ?)?([123])"
        r"|(?:stage|стади\w*) ?([123]) ?(?:zero|зеро)",
        t,
    )
    if m:
        out.params["sharding"] = f"zero{m.group(1) or m.group(2)}"
    elif re.search(r"fsdp|фсдп", t):
        out.params["sharding"] = "fsdp"
    copies = re.search(DATA_PARALLEL, t)
    if copies and "sharding" in out.params:  # «обычный DDP или FSDP?»: both computed, in order
        sharded = re.search(r"fsdp|фсдп|zero|зеро", t)
        first = copies.start() < (sharded.start() if sharded else len(t))
        pair = ["none", out.params["sharding"]]
        out.params["compare_sharding"] = pair if first else pair[::-1]


# egress allowance (glossary:egress): outbound traffic, not traffic in general («льют трафик»,
# «трафик между картами» are not about the allowance)
_EGRESS = re.compile(
    r"исходящ\w*|egress|эгресс\w*|outbound|наружу|"
    r"(?:скач|выгруж|выгруз|отда|забир|кача)\w* (?:\w+ ){0,4}?(?:с|из|от) (?:\w+ )?сервер\w*|"
    r"(?:до)?пла[тч]\w* (?:\w+ ){0,1}?за (?:\w+ )?трафик\w*|"
    r"трафик\w* (?:\w+ ){0,2}?(?:включ|лимит|огранич|бесплат|платн|тариф|доплат|стои|оплач)\w*|"
    r"(?:включ|лимит|огранич|бесплат|платн|стоимост|цен|сколько|объем)\w* (?:\w+ ){0,2}?трафик\w*"
)


def _flags(t: str, out: Found) -> None:
    if re.search(r"(?<![\w])(?:гиб|gib|гибибайт\w*)(?![\w])", t):
        out.params["gib"] = True
    if _EGRESS.search(t):
        out.params["egress"] = True
    if re.search(
        r"масштаб\w* (?:коэффициент\w* )?квантован\w*|квантован\w* масштаб\w*|"
        r"quant\w* scales?|scales? overhead",
        t,
    ):
        out.params["quant_scales"] = True


# ---------------------------------------------------------------- entry point


def extract(text: str, catalog: Catalog) -> Extraction:
    """All parameters and intent words found in one message (nothing carried over)."""
    return extract_normalised(normalise(text), catalog)


def extract_normalised(
    raw: str, catalog: Catalog, found: tuple[DateMention, ...] | None = None
) -> Extraction:
    """extract() of text already passed through numbers.normalise (`found`: its dates)."""
    out = Found()
    padded = f" {norm(_families(raw))} "  # catalogue names are matched on this form
    t = _period(raw, found, out)
    t = money(t, out)
    t = _gpus(padded, t, out, catalog)
    named = _versions(_named(padded, catalog.gpu_aliases), t, catalog)
    if len(named) > 1:  # «L40S или H100»: the first one named leads
        out.params["gpu"] = named[0]
    t = unknown_gpu(t, out)
    gpu_memory(t, out, verdict=intent.verdict(t))
    _gpu_version(out, catalog)
    t = _model(padded, t, out, catalog)
    _precisions(t, out)
    context(t, out)
    batch(t, out)
    duration(t, out)
    architecture(t, out)
    _cache_precision(out)
    _training(t, out)
    _flags(t, out)
    return Extraction(
        params=Params.model_validate(out.params),
        intents=frozenset(intent.intents(t) | ({"cost"} if out.params.get("egress") else set())),
        definitional=intent.definitional(t),
        price_words=intent.price_words(raw),
        request=intent.request(raw),
        per_card=intent.per_card(t),
        verdict=intent.verdict(t),
        kv_asked=intent.kv_asked(t),
        weights_asked=intent.weights_asked(t),
        architecture=intent.architecture(t),
        count_asked=intent.count_asked(t),
        notes=tuple(out.notes),
        problems=tuple(out.problems),
        gpus=named,
        gpu_counts=_counts(padded, catalog.gpu_aliases) if len(named) > 1 else (),
        models=_named(padded, catalog.model_aliases),
        setups=_setups(raw, catalog) if "duration" in out.params else (),
    )


SETUPS = 4  # usages weighed at most
_OR = re.compile(r"\s(?:или|либо|vs\.?|против)\s")


def _setups(raw: str, catalog: Catalog) -> tuple[Setup, ...]:
    """The usages joined by «или», each with its own duration (one GPU unless counted); ()
    unless at least two differ."""
    parts = _OR.split(raw, maxsplit=SETUPS)
    if not 2 <= len(parts) <= SETUPS:  # a list of many «или» is no choice between usages
        return ()
    found = []
    for part in parts:
        p = extract_normalised(part, catalog).params
        if p.duration is not None and p.duration_unit is not None:
            found.append(Setup(int(p.gpus or 1), float(p.duration), p.duration_unit))
    return tuple(found) if len(set(found)) >= 2 else ()


def _period(raw: str, found: tuple[DateMention, ...] | None, out: Found) -> str:
    """Dates and years masked (never a duration or a size); a date range is the duration."""
    t, p = masked(raw, found)
    if p is not None and p.problem:
        out.problems.append(p.problem)
    elif p is not None and p.days:
        out.params.update(duration=p.days, duration_unit="days")
        out.notes.append(f"диапазон дат считаем включительно: {p.days} {_days(p.days)}")
    elif p is not None and p.months:
        out.params.update(duration=1, duration_unit="years")
    return t


def _days(n: int) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return "день"
    return "дня" if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else "дней"


# a memory size said next to a card's family name: «A100 на 40 или на 80 гб», «A100 40/80»
_SIZE_SAID = re.compile(r"(?<![\d.])(\d{2,3})(?=\s*(?:гб|gb|гиг\w*|или\b|/))")


def _versions(named: tuple[str, ...], t: str, catalog: Catalog) -> tuple[str, ...]:
    """«есть у вас A100 на 40 или на 80 гб?» names both versions of the family, not one."""
    out = list(named)
    sizes = {float(m.group(1)) for m in _SIZE_SAID.finditer(t)}
    for gid in named:
        family = catalog.gpus[gid].family
        if family is None:
            continue
        for g in catalog.gpus.values():
            if g.family == family and g.id not in out and g.memory_gb in sizes:
                out.append(g.id)
    return tuple(out) if len(sizes) > 1 else named


def _gpu_version(out: Found, catalog: Catalog) -> None:
    """«A100 на 40 ГБ» → the 40 GB A100; a catalogue GPU with other memory than stated is
    computed with the stated memory (the customer knows their card)."""
    gpu, memory = out.params.get("gpu"), out.params.get("gpu_memory_gb")
    if not isinstance(gpu, str) or not isinstance(memory, int | float):
        return
    count = out.params.get("gpus")
    if isinstance(count, int) and count > 1 and memory == count * catalog.gpus[gpu].memory_gb:
        del out.params["gpu_memory_gb"]  # «4×H100 … не лезет в 320 гигов»: all the cards'
        return
    version = catalog.version_with_memory(gpu, float(memory))
    if version is not None:
        out.params["gpu"] = version.id
        del out.params["gpu_memory_gb"]
    else:
        out.params["gpu_label"] = catalog.gpus[gpu].name
        del out.params["gpu"]


def _cache_precision(out: Found) -> None:
    """KV cache from an architecture with no model size: the precision stated is the cache's."""
    p = out.params
    if "layers" in p and not ("params_b" in p or "model" in p) and "precision" in p:
        p.setdefault("kv_precision", p.pop("precision"))


def bare_context(normalised: str) -> Extraction | None:
    """«а для 32k?»: a bare «32k» read as a context length (solve.py decides when it applies)."""
    out = Found()
    _bare_context(normalised, out)
    if not out.params:
        return None
    return Extraction(params=Params.model_validate(out.params), notes=tuple(out.notes))
