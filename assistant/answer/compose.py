"""Retrieved entries + query vector → the glossary sentences an answer should use, in order.

Also the two touches that make extracted sentences read well on their own: a sentence-initial
«Он/Она/Оно» that continues the entry's definition names the term instead, and for a family
name («HBM») the entry that explains the bare name leads over a newer generation («HBM4»).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from assistant.corpus.glossary import Entry, normalize_name
from assistant.search.indexing import SearchIndex
from assistant.text.sentences import split_sentences
from assistant.text.tokens import lemmas

_REFERENCE = re.compile(r"^(?:См\.|Читайте|Попробуйте|Сравнить .* можно)")
_LEAD_WORD = re.compile(r"^([А-ЯЁ][а-яё]*)\b")  # «Движки…», and «У карт…», «В HBM…»
# a nominative personal pronoun opening a sentence, followed by a lower-case word (the verb)
_PRONOUN = re.compile(r"^(?:Он|Она|Оно)\s+(?=[а-яё])")
# a sentence whose first words point back at what came before it («Платой за это…», «При этом…»)
# an object pronoun among the first words, before a verb («Обычно его измеряют…»): a Latin
# name takes its place unchanged («Обычно AI TOPS измеряют…»); a Russian one would need declining
_OBJECT = re.compile(
    r"^((?:[А-ЯЁа-яё]+\s+){0,2}?)(?:[Ее]го|[Ее]ё|[Ее]е|[Ии]х)\s+"
    r"(?=[а-яё]+(?:ют|ят|ут|ет|ит|ются|ятся|ется|ится|ли|ла|ло)\b)"
)
_BACK = re.compile(r"^(?:\w+\s+){0,2}?(?:за это|при этом|из-за этого|поэтому|это|этим)\b", re.I)


@dataclass(frozen=True)
class Picked:
    """Sentences chosen from one entry, in the entry's own order, with their citation number."""

    entry: Entry
    number: int
    sentences: tuple[str, ...]


class SentenceBank:
    """Each entry's sentences with their vectors (taken from the index, never re-embedded)."""

    def __init__(self, entries: Sequence[Entry], index: SearchIndex) -> None:
        positions: dict[str, list[int]] = {}
        for i, chunk in enumerate(index.chunks):
            if chunk.kind == "sentence":
                positions.setdefault(chunk.slug, []).append(i)
        self.sentences: dict[str, list[str]] = {}
        # lemmatised once here, not for every answer that scores them (~1.5 ms per answer)
        self.lemma_sets: dict[str, list[frozenset[str]]] = {}
        self.vectors: dict[str, np.ndarray] = {}
        for entry in entries:
            sents = self.sentences[entry.slug] = split_sentences(entry.text)
            self.lemma_sets[entry.slug] = [frozenset(lemmas(s)) for s in sents]
            ids = positions.get(entry.slug, [])
            if len(ids) == len(sents):  # else: index built with other chunking → lexical only
                self.vectors[entry.slug] = np.vstack([index.vectors.reconstruct(i) for i in ids])

    def has(self, entry: Entry) -> bool:
        return entry.slug in self.sentences

    def scores(self, entry: Entry, query_vec: np.ndarray, query: str) -> list[tuple[str, float]]:
        sents = self.sentences[entry.slug]
        dense = (
            self.vectors[entry.slug] @ query_vec
            if entry.slug in self.vectors
            else np.zeros(len(sents), dtype=np.float32)
        )
        q = set(lemmas(query))
        out = []
        for sentence, cos, lemma_set in zip(sents, dense, self.lemma_sets[entry.slug], strict=True):
            overlap = len(q & lemma_set) / (len(q) or 1)
            out.append((sentence, float(cos) + 0.05 * overlap))
        return out


def is_reference(sentence: str, entry: Entry) -> bool:
    """«См. наше сравнение …» sentences become links, not answer text."""
    return bool(_REFERENCE.match(sentence)) or any(s.sentence == sentence for s in entry.see_also)


def pick(
    bank: SentenceBank,
    entry: Entry,
    query_vec: np.ndarray,
    query: str,
    *,
    limit: int = 3,
    definition: bool | None = True,
    prefer: Sequence[str] = (),
) -> list[str]:
    """Choose up to `limit` sentences: the definition first (if asked), then the most relevant.

    definition: True = always include it, False = leave it out (a follow-up on the same
    entry), None = only if it is among the most relevant.

    `prefer`: names of another entry (comparisons) — sentences mentioning them rank first.
    """
    scored = [
        (s, sc) for s, sc in bank.scores(entry, query_vec, query) if not is_reference(s, entry)
    ]
    if not scored:
        return []
    order = {s: i for i, (s, _) in enumerate(scored)}
    wanted = {normalize_name(p) for p in prefer}
    chosen = [scored[0][0]] if definition else []
    if definition is False and len(scored) > 1:
        scored = scored[1:]  # a follow-up on a term just explained: skip its definition

    def rank(item: tuple[str, float]) -> float:
        mentions = any(w in normalize_name(item[0]) for w in wanted if len(w) >= 3)
        return item[1] + (1.0 if mentions else 0.0)

    for sentence, _ in sorted(scored, key=rank, reverse=True):
        if len(chosen) >= limit:
            break
        if sentence not in chosen:
            chosen.append(sentence)
    return sorted(chosen, key=order.__getitem__)


def lead(entry: Entry, sentence: str) -> str:
    """Make the entry's first sentence name its subject: «NVLink — высокоскоростной …»."""
    if sentence.startswith(entry.title) or sentence.startswith(entry.english):
        return sentence
    word = _LEAD_WORD.match(sentence)
    if word and not word.group(1).isupper():
        return f"{entry.title} — {sentence[0].lower()}{sentence[1:]}"
    return f"{entry.title}: {sentence}"


def with_marker(sentence: str, number: int) -> str:
    """Put a source marker before the final punctuation: «… и других [1].»"""
    body = sentence.rstrip()
    end = body[-1] if body and body[-1] in ".!?" else ""
    core = body[:-1] if end else body
    return f"{core} [{number}]{end or '.'}"


def paragraph(picked: Picked) -> str:
    own = split_sentences(picked.entry.text)
    sents = [resolve_pronoun(picked.entry, s, own) for s in picked.sentences]
    if sents and sents[0] == own[0]:
        sents[0] = lead(picked.entry, sents[0])
    return " ".join(with_marker(s, picked.number) for s in sents)


def standalone(entry: Entry, sentence: str) -> str:
    """A sentence taken out of its entry to open an answer: «Он передаёт…» names the term, and
    one that does not name it at all gets it in front («InfiniBand: современные поколения…»).
    An example said on its own is no longer one: «Например, для RTX 5090…» → «Для RTX 5090…»."""
    if sentence.startswith(_EXAMPLE):
        rest = sentence[len(_EXAMPLE) :]
        sentence = rest[:1].upper() + rest[1:]
    if _PRONOUN.match(sentence):
        return _PRONOUN.sub(short_name(entry) + " ", sentence, count=1)
    name = short_name(entry)
    if _OBJECT.match(sentence) and re.search(r"[A-Za-z]", name) and not re.search(r"[а-яё]", name):
        named = _OBJECT.sub(lambda m: f"{m.group(1)}{name} ", sentence, count=1)
        return named[0].upper() + named[1:]
    if _BACK.match(sentence):  # «Платой за это становится…»: «это» is the entry's subject
        return f"{short_name(entry)}: {sentence[0].lower()}{sentence[1:]}"
    if _opens_with_name(entry, sentence) or any(
        normalize_name(n) in normalize_name(sentence) for n in entry.names if len(n) >= 3
    ):
        return sentence
    word = _LEAD_WORD.match(sentence)
    if word and (len(word.group(1)) == 1 or not word.group(1).isupper()):
        return f"{short_name(entry)}: {sentence[0].lower()}{sentence[1:]}"
    return f"{short_name(entry)}: {sentence}"


_EXAMPLE = "Например, "


def short_name(entry: Entry) -> str:
    """«Видеопамять (VRAM)» → «Видеопамять»: the name as a sentence's subject."""
    return re.sub(r"\s*\(.*?\)\s*$", "", entry.title).strip() or entry.title


def resolve_pronoun(entry: Entry, sentence: str, own: Sequence[str]) -> str:
    """«Он передаёт данные…» → «NVLink передаёт данные…».

    Conservative: only Он/Она/Оно (the term is singular), only in the sentence right after the
    definition or after a sentence that itself opens with the term — there the pronoun refers
    to the entry's subject. Oblique forms («Её реализуют…») are left as written.
    """
    if not _PRONOUN.match(sentence) or sentence not in own:
        return sentence
    i = list(own).index(sentence)
    previous = own[i - 1] if i else ""
    if i == 0 or not (i == 1 or _opens_with_name(entry, previous)):
        return sentence
    return _PRONOUN.sub(short_name(entry) + " ", sentence, count=1)


def _opens_with_name(entry: Entry, sentence: str) -> bool:
    head = normalize_name(sentence[:80])
    return any(head.startswith(normalize_name(n)) for n in entry.names if n)


def general_first(
    slugs: Sequence[str],
    entries: dict[str, Entry],
    families: Sequence[str],
    nearby: Sequence[str] = (),
) -> list[str]:
    """«что такое HBM?»: HBM3e and HBM4 both extend the asked name with a generation number.
    The one whose text speaks of the bare name («В HBM кристаллы DRAM…») explains the general
    idea, so it leads; the newest generation is not the answer to a generic question.

    `nearby`: the other top hits, where that entry may be when only the newest generation made
    it into `slugs`; it then joins in front of it."""
    out = list(slugs)
    for name in families:
        pool = [s for s in dict.fromkeys([*out, *nearby]) if s in entries]
        family = [s for s in pool if _extends(entries[s], name)]
        present = [s for s in family if s in out]
        if len(family) < 2 or not present or any(_is_named(entries[s], name) for s in pool):
            continue
        best = max(family, key=lambda s: _bare_mentions(entries[s].text, name))
        first = present[0]
        if _bare_mentions(entries[best].text, name) > _bare_mentions(entries[first].text, name):
            if best in out:
                out.remove(best)
            out.insert(out.index(first), best)
    return out


def _extends(entry: Entry, name: str) -> bool:
    """The entry's title is `name` plus a generation: HBM → HBM3e, HBM4 (not «GPU-час»)."""
    title = entry.title.lower()
    return title.startswith(name.lower()) and title[len(name) : len(name) + 1].isdigit()


def _is_named(entry: Entry, name: str) -> bool:
    return any(normalize_name(n) == normalize_name(name) for n in entry.names if n)


def _bare_mentions(text: str, name: str) -> int:
    return len(re.findall(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, flags=re.IGNORECASE))
