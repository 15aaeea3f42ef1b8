"""Understanding + the glossary evidence → what an answer plan says first, per kind of question.

    provider_lead(provider_statements(bank, entries, retrieval, question), question, reading)
        → «Нет: FullGPU не делит GPU на разделы: …» (the provider's own sentence, yes or no first)
    offered_lead(gpu, catalog) → «Нет: FullGPU не предлагает NVIDIA H100 PCIe в аренду. Из этой
                                  семьи есть NVIDIA H100 SXM.»
    lacking_lead(gpu, wanted, catalog) → «Нет: у RTX PRO 6000 нет NVLink — GPU связаны через
                                  PCIe Gen5 x16.» and the offered cards that have it

What each kind's first sentence must state: a fact — the fact; a card's spec — the figure
(specs.py); cards compared — the main difference; a question about the provider — yes or no from
FullGPU's own sentences; a problem — the likely cause, then what helps; small talk — a short
reply.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from assistant.answer.compose import SentenceBank, standalone
from assistant.answer.specs import FP4_HELD, no_fp8, short_name
from assistant.calculators.units import PRECISION_LABEL
from assistant.corpus.catalog import Catalog, Gpu
from assistant.corpus.glossary import Entry
from assistant.search.retrieval import Retrieval
from assistant.text.tokens import lemmas
from assistant.understanding.asks import Reading

# a sentence that says what the provider does, includes or does not
_PROVIDER = re.compile(r"FullGPU")
# it says «no»: «не делит», «не использует», «без платы»
_NEGATIVE = re.compile(r"(?<![\w])(?:не|нет|без)(?![\w])", re.IGNORECASE)
PROVIDER_HITS = 5  # the provider's sentence must come from one of the best entries
RANK_PENALTY = 0.02  # per place below the top hit (dev: a sentence of the 3rd entry beat the 1st)
# a related entry's statement this close to the best one answers the same question (dev: the
# pairs MIG / time-slicing and vGPU / passthrough scored within 0.04, unrelated ones 0.04–0.15)
ALSO_MARGIN = 0.05
# «В FullGPU серверы с одним GPU работают именно так»: the sentence before says how
_POINTS_BACK = re.compile(r"\bименно так\b|^(?:Так|Поэтому|Это)\b")


# a FullGPU statement with its score against the question and the entry it comes from
Statement = tuple[float, Entry, str]


@dataclass(frozen=True)
class Lead:
    """A sentence an answer opens with, from one entry."""

    entry: Entry
    sentence: str  # as the entry writes it
    text: str  # as the answer says it («Нет: …»)


def provider_lead(scored: Sequence[Statement], question: str, reading: Reading) -> Lead | None:
    """The provider's own sentence that best answers the question (`scored`:
    provider_statements), from one of the best entries; «Да: » or «Нет: » before it when the
    question is a plain yes/no one."""
    best = max(scored, key=_score, default=None)
    if best is None:
        return None
    _, entry, sentence = best
    prefix = yes_or_no(sentence, question, reading)
    if prefix:
        return Lead(entry, sentence, prefix + _after_colon(sentence))
    # «В FullGPU серверы с одним GPU работают именно так: …» opens as «Проброс GPU: в FullGPU …»
    return Lead(
        entry, sentence, standalone(entry, sentence) if _POINTS_BACK.search(sentence) else sentence
    )


def provider_also(
    bank: SentenceBank, entries: Mapping[str, Entry], scored: Sequence[Statement], lead: Lead
) -> Lead | None:
    """FullGPU's sentence in an entry related to the lead's that answers the question about as
    well: «вы делите карты через MIG или time-slicing?» — MIG's «не делит GPU на разделы» and
    time-slicing's «только ваши задачи». A sentence that points back («работают именно так»)
    comes with the one before it."""
    near = {*lead.entry.related, *(s for s, e in entries.items() if lead.entry.slug in e.related)}
    top = max(scored, key=_score, default=None)
    if top is None:
        return None
    also = [x for x in scored if x[1].slug in near and x[0] >= top[0] - ALSO_MARGIN]
    if not also:
        return None
    _, entry, sentence = max(also, key=_score)
    said = bank.sentences[entry.slug]
    i = said.index(sentence)
    text = f"{said[i - 1]} {sentence}" if i and _POINTS_BACK.search(sentence) else sentence
    return Lead(entry, sentence, text)


def _score(found: Statement) -> float:
    return found[0]


def provider_statements(
    bank: SentenceBank, entries: Mapping[str, Entry], retrieval: Retrieval, question: str
) -> list[Statement]:
    """(score, entry, sentence) of every FullGPU statement, the best entries ranked first:
    scored once, for the lead and for what a related entry adds to it."""
    return list(_statements_of(bank, entries, retrieval, question))


def _statements_of(
    bank: SentenceBank, entries: Mapping[str, Entry], retrieval: Retrieval, question: str
) -> Iterable[Statement]:
    ranked = [h.slug for h in retrieval.hits[:PROVIDER_HITS]]
    # every entry may speak for the provider («а можно пол-карты подешевле?» finds GDDR7 and
    # VRAM, FullGPU's «не делит GPU» is in vGPU's); one the search did not rank comes last
    order = [*ranked, *(slug for slug in entries if slug not in ranked)]
    for rank, slug in enumerate(order):
        entry = entries.get(slug)
        if entry is None or not bank.has(entry):  # a GPU's sheet has no sentences to rank
            continue
        for sentence, score in _statements(bank.scores(entry, retrieval.vector, question)):
            yield score - RANK_PENALTY * min(rank, PROVIDER_HITS), entry, sentence  # best first


def speaks_for_provider(sentence: str) -> bool:
    """«FullGPU применяет защиту от DDoS ко всем публичным IP-адресам»: what FullGPU does."""
    return bool(_PROVIDER.search(sentence))


def _statements(scored: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """The provider's sentences of an entry, and the one right after each that goes on about
    it («FullGPU применяет защиту от DDoS … Такая защита дополняет файрвол …»)."""
    out = []
    for i, (sentence, score) in enumerate(scored):
        after = i > 0 and bool(_PROVIDER.search(scored[i - 1][0])) and _GOES_ON.match(sentence)
        if _PROVIDER.search(sentence) or after:
            out.append((sentence, score))
    return out


_GOES_ON = re.compile(r"(?:Такая|Такой|Такое|Такие|Эта|Этот|Это|Эти|Она|Он|Оно|Они)\s")


def yes_or_no(sentence: str, question: str, reading: Reading) -> str:
    """«Да: » or «Нет: » for a plain yes/no question, when the sentence speaks of what was
    asked (a content word in common): «делите ли карту» — «FullGPU не делит GPU» is «Нет»;
    «есть виртуализация?» — «серверы — это bare metal» says no word of it, so no verdict."""
    if not reading.yes_no:
        return ""
    asked = set(lemmas(question)) - _GENERIC
    if not asked & set(lemmas(sentence)):
        return ""
    return "Нет: " if _NEGATIVE.search(sentence) else "Да: "


# words every provider question and sentence share: no evidence of what is asked
_GENERIC = frozenset(
    "fullgpu gpu гпу у вы ваш свой наш есть можно мочь быть весь сервер карта карточный "
    "видеокарта тариф аренда арендовать взять 8 8-gpu".split()
)


def _after_colon(sentence: str) -> str:
    """«В FullGPU …» → «в FullGPU …»; a name («FullGPU не делит…») keeps its capital."""
    first = sentence.split(" ", 1)[0]
    if re.match("[А-ЯЁ]", first) and (len(first) == 1 or first[1:].islower()):
        return sentence[0].lower() + sentence[1:]
    return sentence


def alternatives(gpu: Gpu, catalog: Catalog) -> tuple[list[Gpu], bool]:
    """What FullGPU rents out instead of a card it does not: the versions of its family, else
    the offered card of the same vendor and form factor closest in memory (True: family)."""
    family = [g for g in catalog.versions(gpu) if g.offered]
    if family:
        return family, True
    offered = [g for g in catalog.gpus.values() if g.offered]
    like = [g for g in offered if g.vendor == gpu.vendor and g.form_factor == gpu.form_factor]
    like.sort(key=lambda g: abs(g.memory_gb - gpu.memory_gb))
    return like[:1], False


def offered_lead(gpu: Gpu, others: list[Gpu], family: bool) -> list[str]:
    """Whether FullGPU rents the card out (its sheet) and, if not, what it does rent (theirs)."""
    name = short_name(gpu)
    if gpu.offered:
        return [f"Да: {name} есть в аренде у FullGPU."]
    out = [f"Нет: FullGPU не предлагает {name} в аренду."]
    names = ", ".join(short_name(g) for g in others)
    if others:
        out.append(f"{'Из этой семьи есть' if family else 'Вместо неё есть'} {names}.")
    return out


# a feature a customer may want of a card (the glossary entry that names it) → its sheet's field
FEATURES: dict[str, Callable[[Gpu], bool]] = {
    "nvlink": lambda g: g.nvlink,
    "fp4": lambda g: g.fp4_support,
    "fp8": lambda g: not no_fp8(g),
}
_FEATURE_LABEL = {"nvlink": "NVLink", "fp4": "FP4 аппаратно", "fp8": "FP8"}


def lacking_feature(gpu: Gpu, wanted: Iterable[str]) -> str | None:
    """The first feature of `wanted` (entry slugs) the card's sheet denies, in FEATURES order."""
    asked = set(wanted)
    return next((f for f in FEATURES if f in asked and not FEATURES[f](gpu)), None)


def lacking_lead(gpu: Gpu, wanted: Iterable[str], catalog: Catalog) -> tuple[list[str], list[Gpu]]:
    """«4 RTX PRO 6000 с NVLink-мостами можно?», «H100 под FP4?»: a feature asked for that the
    card's sheet denies — «Нет» with what the sheet has, then the offered cards of its vendor
    that have it (closest in memory first), whose sheets back that line. ([], []): nothing
    asked is lacking."""
    feature = lacking_feature(gpu, wanted)
    if feature is None:
        return [], []
    name = short_name(gpu)
    label = _FEATURE_LABEL[feature]
    if feature == "nvlink":
        said = f"Нет: у {name} нет NVLink — GPU связаны через {gpu.interconnect}."
    else:
        said = f"Нет: {name} не поддерживает {label} ({gpu.architecture})."
    having = [
        g
        for g in catalog.gpus.values()
        if g.offered and g.vendor == gpu.vendor and FEATURES[feature](g)
    ]
    # the same form factor first (an SXM card for an SXM one), then the closest memory
    having.sort(key=lambda g: (g.form_factor != gpu.form_factor, abs(g.memory_gb - gpu.memory_gb)))
    having = having[:2]
    if not having:
        return [said], []
    names = " и ".join(short_name(g) for g in having)
    has = f"{label} есть у {names}" if feature == "nvlink" else f"{label} поддерживают {names}"
    return [said, f"{has} — они есть в аренде у FullGPU."], having


# the entries of work that moves data between the cards on every step or layer: without
# NVLink, the PCIe path is the likely cause when it scales badly
BETWEEN_CARDS = frozenset({"tensor-parallelism", "expert-parallelism", "all-reduce", "nccl"})


def lacks_link(gpu: Gpu, terms: Iterable[str], several: bool) -> bool:
    """The problem's cause is that the cards talk over PCIe (lacking_cause says «нет NVLink»)."""
    named = set(terms)
    wanted = named | ({"nvlink"} if several and named & BETWEEN_CARDS else set())
    return lacking_feature(gpu, wanted) == "nvlink"


# precisions from the fewest bits up: a pick among them takes the fewest the card computes in
_BITS = ("fp4", "fp8", "bf16")


def supported_pick(gpu: Gpu, terms: Iterable[str]) -> str:
    """«на H200 в fp4 квантовать или fp8?»: of the precisions weighed, one the card's sheet
    says it does not compute in; the fewest bits it does compute in is the pick — «Для NVIDIA
    H200 разумнее FP8: аппаратной поддержки FP4 у неё нет (Hopper) — …». "" otherwise."""
    weighed = [p for p in _BITS if p in set(terms)]
    computes = {p: FEATURES[p](gpu) if p in FEATURES else True for p in weighed}
    lacking = [p for p in weighed if not computes[p]] if len(weighed) > 1 else []
    able = [p for p in weighed if p not in lacking]
    if not lacking or not able:
        return ""
    name, arch = short_name(gpu), gpu.architecture
    why = (
        f"аппаратной поддержки FP4 у неё нет ({arch}) — {FP4_HELD}"
        if "fp4" in lacking
        else f"FP8 она не поддерживает ({arch})"
    )
    return f"Для {name} разумнее {PRECISION_LABEL[able[0]]}: {why}."


def lacking_cause(gpu: Gpu, terms: Iterable[str], several: bool) -> str:
    """A problem on a card whose sheet lacks what the work needs: «у RTX PRO 6000 нет NVLink»
    when its cards talk on every layer (tensor parallelism over several of them), or the
    feature the customer names (FP4 on a Hopper card). "" when nothing is lacking."""
    named = set(terms)
    wanted = named | ({"nvlink"} if several and named & BETWEEN_CARDS else set())
    feature = lacking_feature(gpu, wanted)
    name = short_name(gpu)
    if feature == "nvlink":
        return f"У {name} нет NVLink, поэтому обмен данными между картами идёт медленнее."
    if feature == "fp4":
        return f"У {name} нет аппаратной поддержки FP4 ({gpu.architecture}): {FP4_HELD}."
    if feature == "fp8":
        return f"{name} не поддерживает FP8 ({gpu.architecture})."
    return ""


def vendor_lead(gpus: list[Gpu]) -> str:
    """«у вас амд тоже есть?» → the vendor's cards FullGPU rents out, from their sheets."""
    return "Да: у FullGPU есть " + ", ".join(short_name(g) for g in gpus) + "."


def listing_lead(gpus: list[Gpu]) -> str:
    """«какие карты у вас можно взять?» → every card FullGPU rents out, servers' modules first,
    then the PCIe cards, from their sheets."""
    pcie = [short_name(g) for g in gpus if g.form_factor == "PCIe"]
    modules = [short_name(g) for g in gpus if g.form_factor != "PCIe"]
    parts = []
    if modules:
        parts.append("в серверах с SXM, OAM и NVL72 — " + ", ".join(modules))
    if pcie:
        parts.append("карты PCIe — " + ", ".join(pcie))
    return "В аренде у FullGPU: " + "; ".join(parts) + "."
