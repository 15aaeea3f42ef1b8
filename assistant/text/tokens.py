"""Raw Russian/English text → normalised tokens and lemmas for BM25 and alias matching."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# Cyrillic letters that look like Latin ones: «hbm3е» typed with a Cyrillic «е» is still HBM3e.
_CONFUSABLES = str.maketrans("авекмнорстухіё", "abekmhopctyxie")
_WORD_RE = re.compile(r"[0-9a-zа-яё]+(?:[.,][0-9]+)?", re.IGNORECASE)
_LATIN_RE = re.compile(r"[a-z]")
_CYR_RE = re.compile(r"[а-яё]")

# Function words that carry no topic; a small list beats a stemmer's generic one here.
_STOPWORDS_TEXT = """
а без более бы был была были было быть в вам вас весь во вот все всё всего всех вы где да
даже для до его ее её если есть еще ещё же за здесь и из или им их к как какая какие каких
какой когда кто ли либо мне может можно мой мы на над надо наш не него нее неё нет ни них
но ну о об однако он она они оно от очень по под при про с со так также такой там те тем то
того тоже той только том ты у уже хотя чего чей чем что чтобы чье чья эта эти это этот я
себя свой который такое такая зачем почему сколько чём чем-то нибудь ли ль бы же the a an
of to in on for and or is are be what how why which with does do vs
"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())


@lru_cache(maxsize=1)
def _morph() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


def fold(text: str) -> str:
    """Lower-case and replace ё with е: the one spelling variation every query has."""
    return text.lower().replace("ё", "е")


def words(text: str) -> list[str]:
    """Folded word tokens; a token mixing Latin and look-alike Cyrillic becomes Latin."""
    return [delatinize(raw) for raw in _WORD_RE.findall(fold(text))]


@lru_cache(maxsize=65_536)  # tokens repeat across requests; this runs for every word
def delatinize(token: str) -> str:
    """«hbm3е» (Cyrillic е) → hbm3e; «Н100» (Cyrillic Н) → h100; Russian words untouched."""
    if not _CYR_RE.search(token):
        return token
    swapped = token.translate(_CONFUSABLES)
    mixed = _LATIN_RE.search(token) is not None
    model_like = any(c.isdigit() for c in token) and not _CYR_RE.search(swapped)
    return swapped if mixed or model_like else token


@lru_cache(maxsize=65_536)
def lemma(word: str) -> str:
    """Russian words → dictionary form (pymorphy3); Latin acronyms and numbers stay intact."""
    if not _CYR_RE.search(word):
        return word
    return str(_morph().parse(word)[0].normal_form).replace("ё", "е")


def lemmas(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Text → lemmas for BM25, without stop words unless asked."""
    out = []
    for w in words(text):
        lem = lemma(w)
        if keep_stopwords or (lem not in STOPWORDS and w not in STOPWORDS):
            out.append(lem)
    return out


@dataclass(frozen=True)
class Tokens:
    """One text read once: its folded form, word tokens, each word's lemma, content lemmas."""

    text: str
    folded: str  # lower-case, ё → е, single spaces, no punctuation at either end
    words: tuple[str, ...]  # words(text)
    word_lemmas: tuple[str, ...]  # lemma of each word, aligned with `words`
    lemmas: tuple[str, ...]  # lemmas(text): stop words dropped (what BM25 sees)


def tokenize(text: str) -> Tokens:
    ws = tuple(words(text))
    lems = tuple(lemma(w) for w in ws)
    content = tuple(
        m for w, m in zip(ws, lems, strict=True) if m not in STOPWORDS and w not in STOPWORDS
    )
    folded = re.sub(r"\s+", " ", fold(text)).strip(" ?!.,;:")
    return Tokens(text, folded, ws, lems, content)


def normalize_phrase(text: str) -> str:
    """Phrase → space-joined lemmas (stop words kept) for whole-phrase alias matching."""
    return " ".join(lemmas(text, keep_stopwords=True))


def deletes(word: str) -> set[str]:
    """The word with one letter removed, every way: look-up keys for one-typo matching."""
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


# Russian letters → Latin by sound, for names typed in Cyrillic: «хбм3е» → hbm3e, «рдма» → rdma.
_SOUNDS = dict(
    zip(
        "абвгдежзийклмнопрстуфхцчшщъыьэюя",
        "a b v g d e zh z i y k l m n o p r s t u f h c ch sh sch - y - e yu ya".split(),
        strict=True,
    )
)


@lru_cache(maxsize=65_536)
def transliterate(word: str) -> str:
    """A Cyrillic-only token → its Latin spelling by sound; anything else → ""."""
    if not _CYR_RE.search(word) or _LATIN_RE.search(word):
        return ""
    return "".join(_SOUNDS.get(c, c) for c in word).replace("-", "")
