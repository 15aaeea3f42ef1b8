"""Raw message → ParsedMessage: the first stage, which reads a message once for every later one.

    reader = Reader(catalog, terms=retriever.aliases)   # once, in the engine
    parsed = reader.read("сколько памяти нужно Llama 3 70B в FP8 с контекстом 32k?")
    parsed.tokens        folded text, words, lemmas (parsing/text.py)
    parsed.quantities    calculator parameters with units, intents (quantities.py), read from
                         the person's own lines, not from a log they pasted (pasted.py)
    parsed.dates         years and calendar dates (dates.py)
    parsed.gpus / .models / .terms   catalogue GPUs and models, glossary entries named
    parsed.signals       the router's lexical signals (signals.py)

Routing, the calculators, scope and condensation read these fields instead of the raw string.
To teach the assistant to read something new, add a field here and fill it in `Reader.read`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Protocol

from assistant.corpus.catalog import Catalog
from assistant.text.numbers import normalise
from assistant.text.tokens import Tokens, tokenize, words
from assistant.understanding.commands import setup_words, without_code
from assistant.understanding.dates import DateMention, dates
from assistant.understanding.failures import Failure, failure
from assistant.understanding.pairs import named_apart
from assistant.understanding.pasted import pasted
from assistant.understanding.quantities import Extraction, bare_context, extract_normalised
from assistant.understanding.signals import DEFINED_MAX_WORDS, Signals, signals

_DIGITS = re.compile(r"\d+(?:[.,]\d+)?")
# a bare Latin name («HBM», not «HBM4» or «hbm3e»): a family of entries, the general one leads
_FAMILY = re.compile(r"(?<![\w-])[A-Za-z]{2,}(?![\w-])")


def numbers(text: str) -> tuple[float, ...]:
    """Every number written in digits, in order («7,5» → 7.5)."""
    return tuple(float(x.replace(",", ".")) for x in _DIGITS.findall(text))


class TermMatcher(Protocol):
    """Glossary names in a text → slug → match strength (search/retrieval.py's AliasMatcher)."""

    def match(self, query: str, everyday: float = 0.5) -> dict[str, float]: ...


def names_defined(terms: TermMatcher, term: str) -> dict[str, float]:
    """The entries «что такое X» names, for X to lead the answer: only the head of X («что за
    роутер в моэ моделях и куда он токены шлёт» defines a router; «куда» further on is not
    CUDA), and an everyday word («что такое куда») as a full name."""
    head = " ".join(words(term)[:DEFINED_MAX_WORDS])
    return terms.match(head, everyday=1.0) if head else {}


@dataclass(frozen=True)
class ParsedMessage:
    """Everything later stages need to know about one message, read once; immutable."""

    text: str  # as the user wrote it (trimmed)
    tokens: Tokens
    normalised: str  # number words as digits, look-alike letters fixed (numbers.normalise)
    pieces: int  # whitespace-separated pieces: «а для 32k?» → 3
    numbers: tuple[float, ...]  # every number written in digits, in order («7,5» → 7.5)
    quantities: Extraction
    bare_context: Extraction | None  # «32k» without «контекст»: context only in a follow-up
    dates: tuple[DateMention, ...]
    terms: Mapping[str, float]  # glossary slugs named → strength (words in the longest name)
    signals: Signals
    term: Tokens | None  # the X of «что такое X», read in its own right
    # the entries the defined term names (names_defined): retrieval puts them first
    defined: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))
    families: tuple[str, ...] = ()  # bare Latin names as written («HBM», «NVLink»), once each
    # «NVLink или PCIe?»: a weak cue (или, чем, против) stands between two entries named; in
    # «это с разреженностью 2:4 или без?» it stands between something else
    paired: bool = False
    log: str = ""  # the lines of a pasted log or traceback (pasted.py); quantities skip them
    failure: Failure | None = None  # what the log says went wrong, when an entry explains it

    @property
    def words(self) -> tuple[str, ...]:
        return self.tokens.words

    @property
    def lemmas(self) -> tuple[str, ...]:
        return self.tokens.lemmas

    @property
    def asked_words(self) -> int:
        """Words of the first question, without the reasons after it: «а a100 у вас можно взять?
        нужна под старый пайплайн» asks in 6 words."""
        first, mark, _ = self.text.partition("?")
        return len(words(first)) if mark else len(self.tokens.words)

    @property
    def implied(self) -> frozenset[str]:
        """Entries no word names, only a card or a model does (H100 → Hopper)."""
        return frozenset(slug for slug, strength in self.terms.items() if strength <= IMPLIED)

    @property
    def years(self) -> tuple[int, ...]:
        return tuple(d.year for d in self.dates if d.year is not None)

    @property
    def gpus(self) -> tuple[str, ...]:
        return self.quantities.gpus

    @property
    def models(self) -> tuple[str, ...]:
        return self.quantities.models


IMPLIED = 0.75  # an entry implied by a card's architecture; a name written out counts 1 or more


class Reader:
    """Reads messages against one catalogue and (for the engine) the glossary's names."""

    def __init__(self, catalog: Catalog, terms: TermMatcher | None = None) -> None:
        self.catalog = catalog
        self.terms = terms

    @cached_property
    def architecture(self) -> dict[str, tuple[str, ...]]:
        """Card id → the entries its architecture names: «память у H100» is about Hopper
        (gpus.yaml). Built on first use, so a broken name index fails a message, not start-up."""
        return self._entries_named({g.id: g.architecture for g in self.catalog.gpus.values()})

    @cached_property
    def family(self) -> dict[str, tuple[str, ...]]:
        """Model id → the entries its catalogue name names: «Mixtral 8x7B (MoE)» is a MoE model,
        so «Mixtral не влезает» is about MoE though the customer never wrote the word."""
        return self._entries_named({m.id: m.name for m in self.catalog.models.values()})

    def _entries_named(self, texts: dict[str, str]) -> dict[str, tuple[str, ...]]:
        """Record id → glossary entries its text names outright (no typo, no implied entry)."""
        terms = self.terms
        if terms is None:
            return {}
        return {
            key: tuple(s for s, v in terms.match(text).items() if v >= 1.0)
            for key, text in texts.items()
        }

    def read(self, text: str) -> ParsedMessage:
        tokens = tokenize(text)
        normalised = normalise(text)
        found = dates(normalised)
        sig = signals(text, tokens)
        split = pasted(text)  # a traceback's «GiB» or «train.py» is not what is asked
        setup = setup_words(text) if split.log or "`" in text else ""
        if split.log or setup:  # the commands' setup in words, their code lines not read
            own = normalise(f"{without_code(split.prose)}\n{setup}".strip())
        else:
            own = normalised
        quantities = extract_normalised(own, self.catalog, found)
        defined = (
            names_defined(self.terms, sig.defined_term) if self.terms and sig.defined_term else {}
        )
        terms = self._terms(text, quantities.gpus, quantities.models, defined)
        return ParsedMessage(
            text=text,
            tokens=tokens,
            normalised=normalised,
            pieces=len(text.split()),
            numbers=numbers(text),
            families=tuple(dict.fromkeys(_FAMILY.findall(text))),
            quantities=quantities,
            bare_context=bare_context(own),
            dates=found,
            terms=MappingProxyType(terms),
            signals=sig,
            term=tokenize(sig.defined_term) if sig.defined_term else None,
            defined=MappingProxyType(defined),
            paired=sig.weak_comparison and len(terms) >= 2 and self._paired(text),
            log=split.log,
            failure=failure(split.log, text),
        )

    def _paired(self, text: str) -> bool:
        """Some «или» / «чем» / «против» has one named entry before it and another after it."""
        return self.terms is not None and named_apart(text, self.terms.match)

    def _terms(
        self,
        text: str,
        gpus: tuple[str, ...],
        models: tuple[str, ...] = (),
        defined: Mapping[str, float] | None = None,
    ) -> dict[str, float]:
        """Glossary entries named in the text, plus the architecture of every card and the family
        of every model named (weaker than a name: «на H100 быстрее, чем в BF16» compares
        formats, not Hopper with BF16)."""
        found = self.terms.match(text) if self.terms else {}
        for slug, strength in (defined or {}).items():  # «что такое куда»: a name after all
            found[slug] = max(found.get(slug, 0.0), strength)
        implied = [self.architecture.get(g, ()) for g in gpus]
        implied += [self.family.get(m, ()) for m in models]
        for slug in (s for slugs in implied for s in slugs):
            found.setdefault(slug, IMPLIED)
        return found
