"""Glossary + catalogue → the words the assistant knows; a question's words it does not know.

Built once per engine (the composition root's glossary and catalogue), never cached per module.
"""

from __future__ import annotations

import re
from functools import cached_property

from assistant.corpus.catalog import Catalog
from assistant.corpus.glossary import Glossary, normalize_name
from assistant.text.tokens import STOPWORDS, Tokens, deletes, lemmas, words
from assistant.understanding.lexicon import FIGURES

# Everyday words of the trade that carry no topic of their own: they must not make a question
# look like it is about an unknown technology.
_COMMON_TECH = frozenset(
    """
    root api apis open source opensource fine tune tuning finetune finetuning torch pytorch
    linux os cpu gpu gpus server servers cloud docker kubernetes model models llm llms int4 int8
    fp16 fp32 bit bits gb tb gib mb batch batching token tokens context prompt prompts
    inference training train deploy deployment sdk openai python benchmark spec specs vm vms
    cluster node nodes rack chat bot ai ml
    """.split()
)


# «DoRA», «GaLore»: capitals inside a Latin word mean it was spelled as a name on purpose, so a
# one-letter distance to a known name («lora») is another technology, not a typo.
_MIXED_CASE = re.compile(r"\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b|\b[A-Z]{2,}[a-z]+[A-Za-z]*\b")


def _spelled_as_names(text: str) -> frozenset[str]:
    return frozenset(m.group(0).lower() for m in _MIXED_CASE.finditer(text))


_LATIN = re.compile(r"[a-z]")


def is_latin(word: str) -> bool:
    """A folded word with a Latin letter («tpu», «h100»): a name rather than a Russian word."""
    return _LATIN.search(word) is not None


_CARD_NUMBER = re.compile(r"\b(?:rtx|gtx|rx|ртх)\s?([1-9]\d[3-9]0)\b")  # 4080, 7900; not 2025
# an accelerator's model number: a series letter and its figures (v100, a6000, mi250x, h20);
# one letter off a listed one is another card, not a typo («v100» is not «a100»). Not p: p95
_MODEL_NUMBER = re.compile(r"(?:mi|rx|gb|gh|[abhlvkt])\d{2,4}[a-z]?")

# accelerators of makers FullGPU does not rent, by their names (no number to read)
_OTHER_MAKERS = re.compile(
    r"(?<![\w])(?:gaudi\w*|гауди|habana|хабан\w*|tpu\w*|тпу|trainium|inferentia|cerebras|"
    r"церебрас\w*|groq|ascend|ponte vecchio|gpu max)(?![\w])"
)

# an open model's family: the catalogue's (Llama, Qwen, Mistral, Mixtral, DeepSeek) and others
# customers name (Gemma, Phi, Kimi…); named with no catalogue model, it is one we have no record of
_MODEL_FAMILY = re.compile(
    r"(?<![\w.])(?:llama|лама|ллама|qwen\w*|квен\w*|mistral|мистрал\w*|mixtral|микстрал\w*|"
    r"deepseek|дипсик\w*|gemma|гемм\w*|phi|falcon|grok|olmo|gpt-oss|nemotron|command[- ]?r|"
    r"starcoder|glm|kimi)(?![\w.])"
)
# a size the calculators can work from without a record («gemma 2 27b»)
_SIZE = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?(?:b|млрд|миллиард\w*)(?![\w])")


class Vocabulary:
    """Every word of every entry, the catalogues' model and GPU names and common tech words."""

    def __init__(self, glossary: Glossary, catalog: Catalog) -> None:
        self.glossary = glossary
        known: set[str] = set(_COMMON_TECH)
        known |= {w for name in catalog.all_names() for w in words(name)}  # DeepSeek, L40S…
        for entry in glossary.entries:
            for chunk in (entry.text, *entry.names):
                known.update(words(chunk))
        self.words = frozenset(known)
        # the words of the cards that have a sheet: «GB200» is in the NVL72 entry, not a sheet
        self.sheet_words = frozenset(
            w for g in catalog.gpus.values() for n in (g.name, *g.aliases) for w in words(n)
        )
        self.lemmas = glossary.lemmas
        self.names = frozenset(normalize_name(n) for e in glossary.entries for n in e.names)
        # every known word and its one-letter deletions: «infinty», «rdam», «smx» are typos
        keys: set[str] = set()
        for w in self.words:
            if len(w) >= 3:
                keys.add(w)
                keys.update(deletes(w))
        self.typo_keys = frozenset(keys)
        # long Cyrillic spellings of names («инфинибэнд»): «инфинбэнд» is that name, one letter
        # short; a short Russian word is not guessed («борщ» is one letter from «борт»)
        spelt = {w for e in glossary.entries for n in e.names for w in words(n) if len(w) >= 7}
        self.name_keys = frozenset(k for w in spelt if not is_latin(w) for k in (w, *deletes(w)))

    @cached_property
    def entry_text(self) -> dict[str, frozenset[str]]:
        """Slug → the content lemmas of the entry's text and names (read on first use: only the
        learned scope decision asks, search/coverage.py)."""
        return {
            e.slug: frozenset(m for chunk in (e.text, *e.names) for m in lemmas(chunk))
            for e in self.glossary.entries
        }

    @cached_property
    def entry_asked(self) -> dict[str, frozenset[str]]:
        """Slug → the entry's text lemmas and those of the customer questions it answers."""
        asked = {
            e.slug: frozenset(m for q in e.questions for m in lemmas(q))
            for e in self.glossary.entries
        }
        return {slug: text | asked[slug] for slug, text in self.entry_text.items()}

    @cached_property
    def entry_figures(self) -> dict[str, frozenset[str]]:
        """Slug → the kinds of figure the entry's text states (lexicon.FIGURES)."""
        stated = [(kind, re.compile(pattern)) for kind, (_, pattern) in FIGURES.items()]
        return {
            e.slug: frozenset(kind for kind, p in stated if p.search(e.text.lower()))
            for e in self.glossary.entries
        }

    def is_typo_of_known(self, word: str) -> bool:
        """Three-letter acronyms are too close to each other («tpu» vs «tdp») to guess typos."""
        if len(word) < 4:
            return False
        return word in self.typo_keys or any(d in self.typo_keys for d in deletes(word))

    def unknown_card(self, text: Tokens) -> bool:
        """«RTX 4080 Super», «V100 32GB»: a card the catalogue has no sheet for (its number is
        in no catalogue name), so no figure about it is ours to give."""
        if any(m.group(1) not in self.words for m in _CARD_NUMBER.finditer(text.folded)):
            return True
        if _OTHER_MAKERS.search(text.folded):  # «а что по Intel Gaudi 3 против H100?»
            return True
        return any(_MODEL_NUMBER.fullmatch(w) and w not in self.words for w in text.words)

    def card_without_sheet(self, text: Tokens) -> bool:
        """«GB200 NVL72 — сколько HBM на GPU?»: a card's model number no catalogue sheet has,
        though the glossary may name it (an entry's alias) — no figure of it is ours."""
        return any(_MODEL_NUMBER.fullmatch(w) and w not in self.sheet_words for w in text.words)

    def unknown_model(self, text: Tokens) -> bool:
        """«Llama 4 Maverick», «Kimi K2»: an open model the catalogue has no record of and no
        size given — its layers, experts and context are not ours to give. The caller checks
        that no catalogue model was recognised."""
        return bool(_MODEL_FAMILY.search(text.folded)) and not _SIZE.search(text.folded)

    def names_model(self, text: Tokens) -> bool:
        """A model written out, by its family or its size («gemma 2 27b», «моя 13b»)."""
        return bool(_MODEL_FAMILY.search(text.folded) or _SIZE.search(text.folded))

    def _misspelt_name(self, word: str) -> bool:
        if len(word) < 7:
            return False
        return word in self.name_keys or any(d in self.name_keys for d in deletes(word))

    def unknown_words(self, text: Tokens, *, english_guard: bool = True) -> list[str]:
        """Latin terms (TPU, SLURM) and Russian content words the glossary never uses.

        Latin words within one typo of a glossary word are not unknown; an English sentence
        (mostly Latin words) is judged by retrieval alone.
        """
        tokens = [
            (w, lem)
            for w, lem in zip(text.words, text.word_lemmas, strict=True)
            if len(w) >= 3 and not w.isdigit() and w not in STOPWORDS
        ]
        latin = [w for w, _ in tokens if is_latin(w)]
        if english_guard and len(latin) > max(2, len(tokens) // 2):
            return []
        spelled = _spelled_as_names(text.text)
        out = []
        for w, lem in tokens:
            if w in latin:
                if w not in self.words and (
                    w in spelled or _MODEL_NUMBER.fullmatch(w) or not self.is_typo_of_known(w)
                ):
                    out.append(w)
            elif lem not in self.lemmas and not self._misspelt_name(w):
                out.append(w)
        return out

    def unknown_term(self, term: Tokens | None) -> bool:
        """True when a «что такое X» term names nothing the glossary mentions (e.g. TPU)."""
        if term is None or not term.words or len(term.words) > 3:  # a long phrase is a question
            return False
        if normalize_name(term.text) in self.names:
            return False
        return bool(self.unknown_words(term, english_guard=False))
