"""Russian free text → calculator parameters (deterministic regular expressions, no LLM).

    extract("сколько памяти нужно Llama 3 70B в FP8 с контекстом 32k") -> Extraction(
        params={"model": "llama-3-70b", "precision": "fp8", "context_tokens": 32768},
        intents={"vram"}, definitional=False, notes=["32k = 32 768 токенов"])

Parameter keys (shared by all tools): model, params_b, precision, kv_precision, context_tokens,
batch, gpu, gpus, price_month, price_hour, price_scope, duration, duration_unit, method,
sharding, gib, egress. Intent words: vram, fit, training, cost (an egress allowance question
counts as cost). `request` marks an explicit calculation request; `price_scope` is "total" when a
price is stated for a server («сервер на 8 H100 стоит …», «за 8 карт») unless it says «за карту»;
«сколько стоит один GPU-час» asks for the rate and sets no duration.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from assistant.corpus import catalog
from assistant.parsing.numbers import normalise

NUM = r"(\d+(?:\.\d+)?)"
GPU_MARK = "§g§"
MONEY_MARK = "§m§"


@dataclass
class Extraction:
    params: dict[str, Any] = field(default_factory=dict)
    intents: set[str] = field(default_factory=set)
    definitional: bool = False
    price_words: bool = False  # «сколько стоит», «цена» — a price is needed
    request: bool = False  # explicit calculation request («сколько памяти нужно», «почём»)
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- precision

_PRECISION_PATTERNS = [
    (
        "fp32",
        r"fp ?32|float ?32|tf32|фп ?32|одинарн\w* точност\w*|полн\w* точност\w*|32[ -]?бит\w*",
    ),
    ("bf16", r"bf ?16|bfloat ?16|бф ?16|бфлоат\w*|brain float"),
    ("fp16", r"fp ?16|float ?16|фп ?16|половинн\w* точност\w*|half precision|16[ -]?бит\w*"),
    ("fp8", r"fp ?8|float ?8|фп ?8|e4m3|e5m2"),
    ("int8", r"int ?8|инт ?8|q8\w*|8[ -]?бит\w*|восьмибит\w*"),
    ("nf4", r"nf ?4|нф ?4"),
    ("fp4", r"nvfp4|mxfp4|fp ?4|фп ?4"),
    ("int4", r"int ?4|инт ?4|q4\w*|awq|gptq|4[ -]?бит\w*|четырехбит\w*"),
]
_KV_BEFORE = re.compile(r"(kv|кв|кэш\w*|кеш\w*|cache)[\s-]*(\w+\s+){0,2}$")


def _precisions(t: str, out: Extraction) -> None:
    found: list[tuple[int, str, bool]] = []
    for name, pattern in _PRECISION_PATTERNS:
        for m in re.finditer(rf"(?<![\w]){pattern}(?![\w])", t):
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


def _alias_spans(text: str, table: dict[str, Any]) -> tuple[Any, str] | None:
    """Longest alias of any record found in `text` (norm'ed tokens) → (record, alias)."""
    padded = f" {catalog.norm(_families(text))} "
    best: tuple[int, Any, str] | None = None
    for item, a in _normed_aliases(id(table), table):
        if f" {a} " in padded and (best is None or len(a) > best[0]):
            best = (len(a), item, a)
    return (best[1], best[2]) if best else None


_ALIAS_CACHE: dict[int, tuple[dict[str, Any], list[tuple[Any, str]]]] = {}


def _normed_aliases(key: int, table: dict[str, Any]) -> list[tuple[Any, str]]:
    """(record, normalised alias) pairs, computed once per catalogue table (hot path)."""
    cached = _ALIAS_CACHE.get(key)
    if cached is None or cached[0] is not table:
        pairs = [
            (item, catalog.norm(a)) for item in table.values() for a in [item.id, *item.aliases]
        ]
        cached = (table, pairs)
        _ALIAS_CACHE[key] = cached
    return cached[1]


def _model(raw: str, t: str, out: Extraction) -> str:
    hit = _alias_spans(raw, catalog.models())
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
            value = float(next(g for g in m.groups() if g))
            out.params["params_b"] = _clean(value * scale)
            return t[: m.start()] + " " + t[m.end() :]
    return t


def _clean(v: float) -> float | int:
    r = round(v, 6)
    return int(r) if r == int(r) else r


# ---------------------------------------------------------------- GPUs

_COUNT_WORDS = r"(?:карт\w*|gpu|гпу|джипию|видеокарт\w*|ускорител\w*|штук\w*|шт\.?|гпушк\w*)"


def _gpus(raw: str, t: str, out: Extraction) -> str:
    hit = _alias_spans(raw, catalog.gpus())
    if hit:
        gpu, alias = hit
        out.params["gpu"] = gpu.id
        pattern = r"[\s-]*".join(re.escape(p) for p in alias.split())
        t = re.sub(rf"(?:nvidia |amd |instinct |geforce )*{pattern}(?: sxm)?", GPU_MARK, t, count=1)
    m = (
        re.search(rf"(\d+) ?(?:x|х|\*)? ?{GPU_MARK}", t)
        or re.search(rf"{GPU_MARK} ?(?:x|х|\*) ?(\d+)", t)
        or re.search(rf"(?<![\w.])(\d+) ?(?:-? ?x ?)?{_COUNT_WORDS}(?![ -]?час)", t)
        or re.search(rf"{_COUNT_WORDS} ?x ?(\d+)(?![\w.])", t)
    )
    if m:
        out.params["gpus"] = int(m.group(1))
    elif re.search(r"восьми(?:гпу|карточн|gpu)\w*|8[ -]?(?:gpu|карточн\w*)[ -]?сервер\w*", t):
        out.params["gpus"] = 8
    return t


# ---------------------------------------------------------------- money and duration

_MONTH = r"(?:в|за|/|per|a) ?(?:мес\w*|month\w*|mo)\b|ежемесячн\w*|monthly"
_HOUR = (
    r"(?:в|за|/|per|an?) ?(?:1 )?(?:gpu[ -]?)?(?:гпу[ -]?)?(?:час\w*|ч\b|h\b|hr\w*|hour\w*)"
    r"|почасов\w*|hourly"
)
_DOLLAR = r"(?:\$|долл\w*|usd|бакс\w*|dollars?)"


def _money(t: str, out: Extraction) -> str:
    m = re.search(rf"(?:\$ ?{NUM}|{NUM} ?{_DOLLAR})", t)
    if not m:
        return t
    value = float(m.group(1) or m.group(2))
    after = t[m.end() : m.end() + 16]
    before = t[max(0, m.start() - 14) : m.start()]
    if re.match(rf"\s*(?:{_HOUR})", after) or re.search(rf"(?:{_HOUR})\s*$", before):
        key, tail = "price_hour", re.match(rf"\s*(?:{_HOUR})", after)
    elif re.match(rf"\s*(?:{_MONTH})", after) or re.search(rf"(?:{_MONTH})\s*$", before):
        key, tail = "price_month", re.match(rf"\s*(?:{_MONTH})", after)
    else:
        key, tail = ("price_month" if value >= 100 else "price_hour"), None
        period = "в месяц" if key == "price_month" else "в час"
        out.notes.append(f"период цены не указан — считаем, что это цена {period}")
    out.params[key] = _clean(value)
    if _total_price(t) and not re.search(r"(?<![\w])по $", before):  # «по 2 190 $» — each
        out.params["price_scope"] = "total"
    end = m.end() + (tail.end() if tail else 0)
    return t[: m.start()] + MONEY_MARK + t[end:]


_PER_GPU = re.compile(
    r"за (?:1 |каждую |каждый )?(?:карт[уы]|gpu|гпу|видеокарт[уы]|ускорител[ья]|штуку)"
    r"(?![\w]|[ -]?час)|per gpu|за каждую|за каждый"
)
_TOTAL = re.compile(
    r"за (?:весь |целый )?сервер|за все|в сумме|за (?:\d+ )?(?:карт|gpu|гпу)\w* вместе|"
    r"за (?:[2-9]|\d{2,}) (?:x ?)?(?:карт|gpu|гпу|видеокарт|ускорител|§g§)|"
    r"сервер\w*|восьми(?:гпу|карточн|gpu)\w*|\d+[ -]?карточн\w*"
)


def _total_price(t: str) -> bool:
    """A price stated for a server («сервер на 8 H100 стоит …», «за 8 карт») covers all its GPUs,
    unless it is explicitly per card («… за карту», «per GPU»)."""
    return bool(_TOTAL.search(t)) and not _PER_GPU.search(t)


_DURATIONS = [
    ("hours", r"час\w*|ч\b|h\b|hours?"),
    ("days", r"сут\w*|дн\w*|день|days?"),
    ("weeks", r"недел\w*|weeks?"),
    ("months", r"месяц\w*|мес\b|months?"),
    ("years", r"год\w*|лет\b|years?"),
]
_BARE = [
    ("hours", r"(?:за|на|в течение) час\b"),
    ("days", r"сутки|(?:за|на|в течение) (?:день|сутки)"),
    ("weeks", r"(?:за|на|в течение|всю|целую) недел[юя]"),
    ("months", r"(?:за|на|в течение|весь|целый) месяц\b"),
    ("years", r"(?:за|на|в течение|весь|целый) год\b"),
]


def _duration(t: str, out: Extraction) -> None:
    if re.search(r"полгода|пол года", t):
        out.params.update(duration=6, duration_unit="months")
        return
    m = re.search(rf"(?<![\w.]){NUM} ?(?:gpu|гпу)[ -]?час\w*", t)
    if m and not _rate_of_one(t, m):  # «100 GPU-часов» = 100 hours of one GPU
        out.params.update(duration=_clean(float(m.group(1))), duration_unit="hours")
        return
    for unit, words in _DURATIONS:
        m = re.search(rf"(?<![\w.]){NUM} ?(?:{words})(?![\w])", t)
        if m and not _is_per(t, m.start()):
            out.params.update(duration=_clean(float(m.group(1))), duration_unit=unit)
            return
    priced = "price_month" in out.params or "price_hour" in out.params
    for unit, pattern in _BARE:
        if unit == "hours" and priced:  # «2 190 $ в месяц — сколько за час?» asks for a rate
            continue
        if re.search(rf"(?<![\w]){pattern}", t):
            out.params.update(duration=1, duration_unit=unit)
            return


def _rate_of_one(t: str, m: re.Match[str]) -> bool:
    """«сколько стоит один GPU-час», «цена 1 GPU-часа» ask for the rate, not for a 1-hour job."""
    before = t[max(0, m.start() - 30) : m.start()]
    return float(m.group(1)) == 1 and bool(
        re.search(r"стои\w*|стоимост\w*|цен\w*|почем|сколько|выход\w*|обход\w*", before)
    )


def _is_per(t: str, start: int) -> bool:
    return bool(re.search(r"(?:токен\w*|запрос\w*) (?:в|за|/) ?$", t[max(0, start - 16) : start]))


# ---------------------------------------------------------------- context and batch

_POW2 = {2**k for k in range(1, 14)}


def _tokens(value: float, suffix: str, out: Extraction) -> int:
    if suffix in ("k", "к") and value in _POW2:
        n = int(value) * 1024
        word = "токена" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "токенов"
        out.notes.append(f"{int(value)}k понимаем как {n:,} {word}".replace(",", " "))
        return n
    if suffix.startswith(("k", "к", "тыс")):
        return round(value * 1000)
    if suffix.startswith(("m", "млн", "миллион")):
        return round(value * 1_000_000)
    return round(value)


_SUFFIX = r"(k\b|тыс\w*\.?|тысяч\w*|m\b|млн\.?|миллион\w*)?"


def _context(t: str, out: Extraction) -> None:
    patterns = [
        rf"(?:контекст\w*|context|окн\w*|длин\w* контекст\w*)(?: \w+){{0,2}}? ?"
        rf"(?:в|на|до|of|=|:)? ?{NUM} ?{_SUFFIX}",
        rf"{NUM} ?{_SUFFIX} ?(?:токен\w*|tokens?|ткн)(?!\w)(?! ?(?:в|/|per) ?(?:секунд|сек|s\b))",
        rf"{NUM} ?(k)\b ?(?:контекст\w*|context)",
    ]
    for p in patterns:
        m = re.search(p, t)
        if m:
            suffix = (m.group(2) or "").strip(".")
            out.params["context_tokens"] = _tokens(float(m.group(1)), suffix, out)
            return


def bare_context(text: str, out: Extraction) -> bool:
    """«а для 32k?» — a bare «32k» / «128 тыс.» (no «контекст», «токенов») as a context length.

    Only a follow-up to a memory question reads it so (solve.py); sets params["context_tokens"].
    """
    t = normalise(text)
    m = re.search(
        rf"(?<![\w.$]){NUM} ?(k|тыс\w*\.?|тысяч\w*)(?![\w])(?! ?(?:{_DOLLAR}|руб\w*|₽|€))", t
    )
    if not m:
        return False
    out.params["context_tokens"] = _tokens(float(m.group(1)), m.group(2).strip("."), out)
    return True


_WHO = (
    r"(?:пользовател\w*|юзер\w*|users?|запрос\w*|сесси\w*|клиент\w*|"
    r"последовательност\w*|поток\w*|чат\w*|диалог\w*|requests?)"
)


def _batch(t: str, out: Extraction) -> None:
    m = re.search(r"(?:батч\w*|batch(?: size)?|бач\w*)(?: размер\w*)? ?(?:в|=|:|из|на)? ?(\d+)", t)
    m = m or re.search(
        rf"(\d+) (?:одновременн\w* |параллельн\w* )?{_WHO}(?!\w)"
        r"(?! ?(?:в|/) ?(?:секунд|сек|s\b|минут|час))",
        t,
    )
    if m:
        out.params["batch"] = int(m.group(1))


# ---------------------------------------------------------------- method, sharding, flags


def _training(t: str, out: Extraction) -> None:
    if re.search(r"q ?lora|ку ?лора|кулора|qлора", t):
        out.params["method"] = "qlora"
    elif re.search(r"(?<![\w])(?:lora|лора|лору|лоры|лорой)(?![\w])", t):
        out.params["method"] = "lora"
    elif re.search(
        r"полн\w* (?:дообучени|файн|fine|обучени)\w*|full (?:fine|ft)\w*|full[ -]?finetun\w*|"
        r"с нуля|претрейн\w*|pre ?train\w*",
        t,
    ):
        out.params["method"] = "full"
    m = re.search(
        r"(?:zero|зеро)[ -]?(?:stage ?|стади\w* ?)?([123])"
        r"|(?:stage|стади\w*) ?([123]) ?(?:zero|зеро)",
        t,
    )
    if m:
        out.params["sharding"] = f"zero{m.group(1) or m.group(2)}"
    elif re.search(r"fsdp|фсдп", t):
        out.params["sharding"] = "fsdp"


# egress allowance (glossary:egress): outbound traffic, not traffic in general («льют трафик»,
# «трафик между картами» are not about the allowance)
_EGRESS = re.compile(
    r"исходящ\w*|egress|эгресс\w*|outbound|наружу|"
    r"(?:скач|выгруж|выгруз|отда|забир|кача)\w* (?:\w+ ){0,4}?(?:с|из|от) (?:\w+ )?сервер\w*|"
    r"(?:до)?плат\w* (?:\w+ ){0,1}?за (?:\w+ )?трафик\w*|"
    r"трафик\w* (?:\w+ ){0,2}?(?:включ|лимит|огранич|бесплат|платн|тариф|доплат|стои|оплач)\w*|"
    r"(?:включ|лимит|огранич|бесплат|платн|стоимост|цен|сколько|объем)\w* (?:\w+ ){0,2}?трафик\w*"
)


def _flags(t: str, out: Extraction) -> None:
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


def extract(text: str) -> Extraction:
    """All parameters and intent words found in one message (nothing carried over)."""
    from assistant.parsing import intent

    out = Extraction()
    t = normalise(text)
    raw = t
    t = _money(t, out)
    t = _gpus(raw, t, out)
    t = _model(raw, t, out)
    _precisions(t, out)
    _context(t, out)
    _batch(t, out)
    _duration(t, out)
    _training(t, out)
    _flags(t, out)
    out.intents = intent.intents(t) | ({"cost"} if out.params.get("egress") else set())
    out.definitional = intent.definitional(t)
    out.price_words = intent.price_words(raw)
    out.request = intent.request(raw)
    return out
