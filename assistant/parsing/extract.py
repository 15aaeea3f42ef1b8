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
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from assistant.corpus.catalog import Catalog, Record, norm
from assistant.parsing import intent
from assistant.parsing.amounts import (
    GPU_MARK,
    NUM,
    Found,
    batch,
    clean,
    context,
    duration,
    money,
)
from assistant.parsing.amounts import bare_context as _bare_context
from assistant.parsing.numbers import normalise


@dataclass(frozen=True)
class Extraction:
    """Calculator parameters, intent words and catalogue names read from one message."""

    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    intents: frozenset[str] = frozenset()
    definitional: bool = False
    price_words: bool = False  # «сколько стоит», «цена» — a price is needed
    request: bool = False  # explicit calculation request («сколько памяти нужно», «почём»)
    notes: tuple[str, ...] = ()
    gpus: tuple[str, ...] = ()  # every catalogue GPU named, in order of appearance
    models: tuple[str, ...] = ()  # every catalogue model named, in order of appearance

    def merged(self, other: Extraction) -> Extraction:
        """This reading plus another's parameters (theirs win) and notes."""
        params = MappingProxyType({**self.params, **other.params})
        return replace(self, params=params, notes=self.notes + other.notes)


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


def _precisions(t: str, out: Found) -> None:
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


def _alias_spans(padded: str, aliases: tuple[tuple[Record, str], ...]) -> tuple[Record, str] | None:
    """Longest alias of any record found in `padded` (norm'ed tokens) → (record, alias)."""
    best: tuple[int, Record, str] | None = None
    for item, a in aliases:
        if f" {a} " in padded and (best is None or len(a) > best[0]):
            best = (len(a), item, a)
    return (best[1], best[2]) if best else None


def _named(padded: str, aliases: tuple[tuple[Record, str], ...]) -> tuple[str, ...]:
    """Ids of every record named in `padded`, in order; of overlapping names the longest wins."""
    spans: list[tuple[int, int, str]] = []
    for item, a in aliases:
        at = padded.find(f" {a} ")
        while at >= 0:
            spans.append((at + 1, at + 1 + len(a), item.id))
            at = padded.find(f" {a} ", at + 1)
    kept: list[tuple[int, int, str]] = []
    for start, end, rid in sorted(spans, key=lambda s: (s[0] - s[1], s[0])):
        if all(end <= s or start >= e for s, e, _ in kept):
            kept.append((start, end, rid))
    return tuple(dict.fromkeys(rid for _, _, rid in sorted(kept)))


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
            value = float(next(g for g in m.groups() if g))
            out.params["params_b"] = clean(value * scale)
            return t[: m.start()] + " " + t[m.end() :]
    return t


# ---------------------------------------------------------------- GPUs

_COUNT_WORDS = r"(?:карт\w*|gpu|гпу|джипию|видеокарт\w*|ускорител\w*|штук\w*|шт\.?|гпушк\w*)"


def _gpus(padded: str, t: str, out: Found, catalog: Catalog) -> str:
    hit = _alias_spans(padded, catalog.gpu_aliases)
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


# ---------------------------------------------------------------- method, sharding, flags


def _training(t: str, out: Found) -> None:
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


def extract_normalised(raw: str, catalog: Catalog) -> Extraction:
    """extract() of text already passed through numbers.normalise."""
    out = Found()
    padded = f" {norm(_families(raw))} "  # catalogue names are matched on this form
    t = money(raw, out)
    t = _gpus(padded, t, out, catalog)
    t = _model(padded, t, out, catalog)
    _precisions(t, out)
    context(t, out)
    batch(t, out)
    duration(t, out)
    _training(t, out)
    _flags(t, out)
    return Extraction(
        params=MappingProxyType(out.params),
        intents=frozenset(intent.intents(t) | ({"cost"} if out.params.get("egress") else set())),
        definitional=intent.definitional(t),
        price_words=intent.price_words(raw),
        request=intent.request(raw),
        notes=tuple(out.notes),
        gpus=_named(padded, catalog.gpu_aliases),
        models=_named(padded, catalog.model_aliases),
    )


def bare_context(normalised: str) -> Extraction | None:
    """«а для 32k?»: a bare «32k» read as a context length (solve.py decides when it applies)."""
    out = Found()
    _bare_context(normalised, out)
    if not out.params:
        return None
    return Extraction(params=MappingProxyType(out.params), notes=tuple(out.notes))
