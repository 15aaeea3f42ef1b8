"""Sentence → claims: the numbers it states, each with its unit and the entities it is about.

A claim is one number with its unit (ГБ, ТБ/с, $ в месяц, GPU-часы …) and the GPU, model,
precision, architecture and glossary terms it is attached to: those named in its clause, else
in its sentence, and on the source side also the entry's own subject. Sources are split into
groups that state claims together — one glossary sentence, one tool result, the user's words.

    lexicon = Lexicon.build(glossary, catalog)   # entity names, once per engine
    quantities("У H200 141 ГБ HBM3e", lexicon)    # [Quantity(141, "GB", {gpu:h200, term:hbm3e})]

Units: assistant/answer/units.py; matching rules: assistant/answer/support.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from assistant.answer.units import CURRENCIES, UNKNOWN, key_unit, rate_before, unit_after

if TYPE_CHECKING:
    from assistant.corpus.catalog import Catalog
    from assistant.corpus.glossary import Glossary

KINDS = ("gpu", "model", "precision", "arch", "term")
# kinds a draft sentence carries from an earlier clause («У H100, по данным NVIDIA, 141 ГБ»):
# a GPU or model is what a sentence is about; «в FP16», a term, holds only in its own clause
_TOPICS = ("gpu", "model", "arch")
_PRECISIONS = "fp4 nvfp4 mxfp4 fp6 fp8 fp16 bf16 tf32 fp32 fp64 int4 int8".split()
_ARCHS = (
    *("Hopper", "Blackwell Ultra", "Blackwell", "Ada Lovelace", "Ampere"),
    *("Rubin", "CDNA 4", "CDNA 3", "Grace"),
)
MARKER = re.compile(r"\[(\d{1,2})\]")
# «по 48 ГБ, всего 96 ГБ»: several cards' memory together. A total backs only a number stated
# as a total — never one card's figure («у L40S 96 ГБ»); «всего 32 ГБ» (only) needs no total
TOTAL = "scope:total"
_TOTAL_BEFORE = re.compile(
    r"(?:всего|вместе|суммарн\w*|в сумме|in total)[\s\u00a0]+(?:около[\s\u00a0]+)?$", re.I
)
TOTAL_KEYS = frozenset({"total_memory_gb"})
# what a result's figure is about beyond its GPU and model: the context is the KV cache's
# («KV-кэш посчитан для 4 096 токенов»), as is its size
KEY_TERMS = {"context_tokens": "term:kv-cache", "kv_cache_gb": "term:kv-cache"}
_SPACE = "[ \u00a0\u202f]"
# a standalone number: «2 190», «3,00», «4.8» — not part of a word (FP8, ZeRO-3, x16)
_NUMBER = re.compile(
    rf"(?<![\w.,])(?<![^\W\d_]-)(\d{{1,3}}(?:{_SPACE}\d{{3}})+|\d+)(?:[.,](\d+))?(?![\w])"
)
# clause boundaries; «700 Вт для H100 и 575 Вт для RTX 5090»: «и» before a number starts one
_CLAUSE = re.compile(
    r";|:|\(|\)|,?\s(?:а|но|против|тогда как|в то время как)\s|,\s"
    r"|\sи\s(?=(?:(?:около|примерно|ещё|еще|до|почти|всего)\s+)?\d)"
)
_JOINER = re.compile(r"^\s*(?:[–—\-/…]|,|или|и|до|to|or)\s*$")  # «10–30 %», «2, 4 или 8 GPU»


@dataclass(frozen=True)
class Quantity:
    """One number of a text with its unit (None: none stated) and attached entities."""

    text: str
    value: float
    decimals: int
    unit: str | None
    entities: frozenset[str] = frozenset()  # "kind:id", e.g. "gpu:h200", "precision:fp8"

    def of(self, kind: str) -> frozenset[str]:
        return frozenset(e for e in self.entities if e.startswith(kind + ":"))


@dataclass(frozen=True)
class Group:
    """Claims stated together: numbers of one group may be combined in one draft claim."""

    label: str  # for logs: «[2] предложение 3», «калькулятор gpu_cost»
    quantities: tuple[Quantity, ...]
    wildcard_units: bool = False  # the user's words: a number they gave without a unit


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    entity: str  # "kind:id"


@dataclass
class Lexicon:
    """Names of GPUs, models, precisions, architectures and glossary terms → entity ids."""

    forms: dict[str, str] = field(default_factory=dict, repr=False)  # surface form → kind:id
    cache: dict[str, tuple[Group, ...]] = field(default_factory=dict, repr=False)  # slug → claims
    starts: dict[str, int] = field(default_factory=dict, repr=False)  # first word → most words
    # a name ending in a quantity («h100 94 гб», «a100 40 гб») → words of that quantity: the
    # name tells which card is meant, its number is still a claim to check («У H100 94 ГБ»)
    tails: dict[str, int] = field(default_factory=dict, repr=False)
    # draft segment → its quantities: an embedded answer is glossary sentences, the same few
    # hundred again and again (~0.6 ms per answer to re-read); bounded for LLM drafts
    drafts: dict[str, tuple[Quantity, ...]] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, glossary: Glossary | None = None, catalog: Catalog | None = None) -> Lexicon:
        lex = cls()
        for p in _PRECISIONS:
            lex.add(p, f"precision:{p}")
        for a in _ARCHS:
            lex.add(a, f"arch:{a.lower()}")
        if catalog is not None:
            lex._add_catalogue(catalog)
        if glossary is not None:
            for entry in glossary.entries:
                for name in entry.names:
                    lex.add(name, f"term:{entry.slug}", overwrite=False)
        return lex

    def _add_catalogue(self, catalog: Catalog) -> None:
        for g in catalog.gpus.values():
            short = re.sub(r"^(?:NVIDIA|AMD)\s+(?:GeForce\s+|Instinct\s+)?", "", g.name)
            for name in (g.id, g.name, short, *g.aliases):
                self.add(name, f"gpu:{g.id}")
        for m in catalog.models.values():
            for name in (m.id, m.name, *m.aliases):
                self.add(name, f"model:{m.id}")

    def add(self, form: str, entity: str, *, overwrite: bool = True) -> None:
        key = _key(form)
        if len(key) < 2 or (not overwrite and key in self.forms):
            return
        self.forms[key] = entity
        first, words = key.split(" ")[0], key.count(" ") + 1
        self.starts[first] = max(self.starts.get(first, 0), words)
        if _QUANTITY_TAIL.search(key):
            self.tails[key] = 2

    def mentions(self, text: str) -> list[Mention]:
        """Names in the text, longest first: a dictionary walk over word n-grams (a regex
        alternation of ~700 names cost ~0.2 ms per sentence)."""
        toks = _tokens(text)
        out, i = [], 0
        while i < len(toks):
            longest = self.starts.get(toks[i][2], 0)  # most words of a name starting here
            for n in range(min(longest, len(toks) - i), 0, -1):
                key = " ".join(t for _, _, t in toks[i : i + n])
                entity = self.forms.get(key)
                if entity:
                    n -= self.tails.get(key, 0)  # the quantity stays in the text
                    out.append(Mention(toks[i][0], toks[i + n - 1][1], entity))
                    i += n
                    break
            else:
                i += 1
        return out


_TOKEN = re.compile(r"\w+(?:[.,]\w+)*")
_QUANTITY_TAIL = re.compile(r"\s\d+(?:[.,]\d+)?\s(?:гб|gb|тб|tb)$")


def _tokens(text: str) -> list[tuple[int, int, str]]:
    return [
        (m.start(), m.end(), m.group(0).lower().replace("ё", "е")) for m in _TOKEN.finditer(text)
    ]


def _key(form: str) -> str:
    """«H100-SXM», «h100 sxm» → «h100 sxm»: one key per name whatever the separators."""
    return " ".join(t for _, _, t in _tokens(form))


# -- quantities ----------------------------------------------------------------------------------


def _clauses(text: str) -> list[tuple[int, int, str]]:
    """(start, end, the delimiter that opened it) of each clause."""
    bounds, start, opener = [], 0, ""
    for m in _CLAUSE.finditer(text):
        bounds.append((start, m.start(), opener))
        start, opener = m.end(), m.group(0)
    bounds.append((start, len(text), opener))
    return bounds


def _clause_index(clauses: list[tuple[int, int, str]], pos: int) -> int:
    return next((i for i, (a, b, _) in enumerate(clauses) if a <= pos < b), len(clauses) - 1)


def _earlier(
    clauses: list[tuple[int, int, str]], i: int, mentions: list[Mention], numbers: list[int]
) -> list[set[str]]:
    """Entities of the clauses a clause continues, nearest first: back over commas and
    brackets («У H100, по данным NVIDIA, 141 ГБ»), never over «;», «:», «а», «но», and not
    past a clause with a number of its own («KV-кэш в FP16, 1 запрос, запас 10–30 %»: the
    margin is not «in FP16»)."""
    out = []
    while i > 0 and (clauses[i][2] in (", ", "(") or clauses[i][2].strip() == "и"):
        i -= 1
        start, end, _ = clauses[i]
        out.append(_entities_in(mentions, start, end))
        if any(start <= n < end for n in numbers):
            break
    return out


def _entities_in(mentions: Iterable[Mention], start: int, end: int) -> set[str]:
    return {m.entity for m in mentions if m.start < end and m.end > start}


def quantities(
    text: str, lexicon: Lexicon, *, subject: Iterable[str] = (), draft: bool = False
) -> list[Quantity]:
    """Numbers of one sentence with units and entities (markers and entity names removed)."""
    text = MARKER.sub(" ", text)
    mentions = lexicon.mentions(text)
    masked = _mask(text, mentions)
    gpu_at = {m.start for m in mentions if m.entity.startswith("gpu:")}
    sentence = {m.entity for m in mentions}
    clauses = _clauses(masked)
    found = list(_NUMBER.finditer(masked))
    spans = [unit_after(text, m.end(), gpu_at) for m in found]  # names may be units
    units = [unit for unit, _ in spans]
    for i, m in enumerate(found):  # «цена за месяц составляет 3,00 $»: the period comes first
        if units[i] in CURRENCIES:
            since = max(clauses[_clause_index(clauses, m.start())][0], spans[i - 1][1] if i else 0)
            period = rate_before(text, since, m.start())
            units[i] = f"{units[i]} per {period}" if period else units[i]
    for i in range(len(found) - 2, -1, -1):  # «10–30 %»: the first number takes the unit
        gap = masked[found[i].end() : found[i + 1].start()]
        if units[i] is None and units[i + 1] is not None and _JOINER.match(gap):
            units[i] = units[i + 1]
    out = []
    for m, unit in zip(found, units, strict=True):
        i = _clause_index(clauses, m.start())
        earlier = _earlier(clauses, i, mentions, [f.start() for f in found])
        own = _entities_in(mentions, clauses[i][0], clauses[i][1])
        if not own and clauses[i][2] == "(" and earlier:  # «H200 (141 ГБ)»: about H200
            own = earlier[0]
        if draft:  # a draft's term is the one naming what the number is about: before it
            left = _entities_in(mentions, clauses[i][0], m.start())
            own = {e for e in own if not e.startswith("term:") or e in left}
        entities = _attach(own, earlier, sentence, set(subject), draft=draft)
        if _TOTAL_BEFORE.search(masked[max(0, m.start() - 24) : m.start()]):
            entities.add(TOTAL)
        whole = re.sub(_SPACE, "", m.group(1))
        frac = m.group(2) or ""
        value = float(f"{whole}.{frac}" if frac else whole)
        out.append(Quantity(m.group(0), value, len(frac), unit, frozenset(entities)))
    return out


def _mask(text: str, mentions: list[Mention]) -> str:
    """Entity names become letters of the same length: their digits are not quantities."""
    chars = list(text)
    for m in mentions:
        chars[m.start : m.end] = "N" * (m.end - m.start)
    return "".join(chars)


def _attach(
    own: set[str], earlier: list[set[str]], sentence: set[str], subject: set[str], *, draft: bool
) -> set[str]:
    """Entities a number is about, per kind. A draft: its clause's, else (GPU, model,
    architecture) the nearest earlier clause's («У H100, по данным NVIDIA, 141 ГБ»); precisions
    only in its own clause, terms only in its own clause before the
    number («PCIe … — 1,8 ТБ/с»; not «72 GPU … через NVSwitch»). A source: its
    clause's, else its sentence's — and always its entry (subject): «быстрее, чем PCIe: …
    NVLink в Blackwell — 1,8 ТБ/с» says 1,8 ТБ/с of NVLink, not of PCIe."""
    out: set[str] = set()
    for kind in KINDS:
        mine = _of(own, kind)
        if draft:
            if not mine and kind in _TOPICS:
                mine = next((_of(c, kind) for c in earlier if _of(c, kind)), set())
        else:
            mine = (mine or _of(sentence, kind)) | _of(subject, kind)
        out |= mine
    return out


def _of(entities: set[str], kind: str) -> set[str]:
    return {e for e in entities if e.startswith(kind + ":")}


def json_quantities(payload: Mapping[str, object], entities: frozenset[str]) -> list[Quantity]:
    """Numbers of a tool result's inputs/values: unit from the key, entities from the result;
    a list item naming its own GPU or model («options») is about that one."""
    out: list[Quantity] = []
    duration_unit = str(payload.get("duration_unit") or "")
    for key, value in payload.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, int | float):
            unit = key_unit(key, duration_unit) or UNKNOWN
            if key == "job_cost" and payload.get("duration") == 1 and duration_unit:
                unit = f"{unit} per {key_unit('duration', duration_unit)}"  # «4 032 $ за неделю»
            decimals = len(repr(float(value)).split(".")[1].rstrip("0"))
            own = entities | {TOTAL} if key in TOTAL_KEYS else entities
            if key in KEY_TERMS:
                own = own | {KEY_TERMS[key]}
            out.append(Quantity(str(value), float(value), decimals, unit, own))
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    out += json_quantities(item, _own_entities(item) or entities)
    return out


def _own_entities(item: Mapping[str, object]) -> frozenset[str]:
    found = {f"gpu:{item['gpu']}"} if isinstance(item.get("gpu"), str) else set()
    if isinstance(item.get("model"), str):
        found.add(f"model:{item['model']}")
    return frozenset(found)
