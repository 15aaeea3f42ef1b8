"""Entries to answer from + the retrieval → the glossary sentences each one contributes.

    select(bank, entries, slugs, retrieval, question, comparison=False, seen=set())
        → (Picked(entry, 1, sentences), …)   numbered in citation order
    supporting(bank, entries, slugs, retrieval, question) → slugs + close runners-up

A term answer takes up to three sentences of its main entry (the definition first) and the
best sentence of each supporting entry (its definition only when that answers best); a
comparison takes three of each; an entry the previous answer explained skips its definition (a
follow-up). Sentences are ranked against the question (search/… vectors of the index, plus
lemma overlap: compose.SentenceBank).
"""

from __future__ import annotations

from collections.abc import Sequence

from assistant.answer.compose import Picked, SentenceBank, is_reference, pick, standalone
from assistant.corpus.glossary import Entry
from assistant.schema import Evidence
from assistant.search.retrieval import Retrieval

SUPPORT_DELTA = 0.03  # sentence-score gap under which another top-3 entry joins an answer


def best_sentence(bank: SentenceBank, entry: Entry, retrieval: Retrieval, question: str) -> float:
    scores = [sc for _, sc in bank.scores(entry, retrieval.vector, question)]
    return max(scores, default=0.0)


def supporting(
    bank: SentenceBank,
    entries: dict[str, Entry],
    slugs: Sequence[str],
    retrieval: Retrieval,
    question: str,
) -> list[str]:
    """Add a top-3 entry whose best sentence answers the question nearly as well as the
    main entry's best sentence: it earns one sentence and a citation."""
    best = best_sentence(bank, entries[slugs[0]], retrieval, question)
    out = list(slugs)
    for hit in retrieval.hits[1:3]:
        if len(out) >= 3:
            break
        score = best_sentence(bank, entries[hit.slug], retrieval, question)
        if hit.slug not in out and score >= best - SUPPORT_DELTA:
            out.append(hit.slug)
    return out


def select(
    bank: SentenceBank,
    entries: dict[str, Entry],
    slugs: Sequence[str],
    retrieval: Retrieval,
    question: str,
    *,
    comparison: bool,
    seen: set[str],
    first: int = 1,
    limit: int | None = None,
) -> tuple[Picked, ...]:
    """Sentences per entry, numbered from `first`; an entry just explained skips its definition
    (follow-ups); `limit`: sentences per entry when the answer leads with something else."""
    out = []
    for n, slug in enumerate(slugs, first):
        entry = entries[slug]
        others = [name for s in slugs if s != slug for name in entries[s].names]
        fresh = slug not in seen
        definition: bool | None = fresh
        if limit is not None:
            definition, room = False, limit  # the lead answers: the best sentences
        elif comparison:
            room = 3
        elif not fresh:
            room = 2
        elif n == first:
            room = 3
        else:  # a supporting entry: the sentence that answers best, its definition only if
            definition, room = None, 1  # that is it («BF16 сохраняет диапазон FP32…»)
        sents = pick(
            bank,
            entry,
            retrieval.vector,
            question,
            limit=room,
            prefer=others,
            definition=definition,
        )
        alone = limit is not None or definition is None  # read without its entry's start
        if alone and sents and sents[0] != bank.sentences[slug][0]:
            # no definition before it: «Его используют…» needs the entry named («OAM: его…»)
            sents = [standalone(entry, sents[0]), *sents[1:]]
        out.append(Picked(entry, n, tuple(sents)))
    return tuple(p for p in out if p.sentences)


def answering_each(
    bank: SentenceBank,
    entries: dict[str, Entry],
    slugs: Sequence[str],
    retrieval: Retrieval,
    question: str,
    *,
    mentioning_other: bool = False,
    switch: float = 0.0,
    past_definition: bool = False,
) -> dict[str, tuple[float, str]]:
    """slug → (score, sentence): each entry's sentence that answers the question best — the
    fact a fact question asks, not an entry's first line; for a comparison, one that names the
    other entry (the main difference); `past_definition`: not an entry's first sentence (a
    problem's cause is what the entry goes on to say). A later entry's scores are lowered by
    `switch` per rank, so it leads only when clearly better. Entries with no such sentence
    are left out."""
    best: dict[str, tuple[float, str]] = {}
    for rank, slug in enumerate(slugs):
        entry = entries[slug]
        others = [n.lower() for s in slugs if s != slug for n in entries[s].names if len(n) >= 3]
        for i, (sentence, score) in enumerate(bank.scores(entry, retrieval.vector, question)):
            if is_reference(sentence, entry) or (past_definition and i == 0):
                continue
            if mentioning_other and not any(_names(sentence.lower(), n) for n in others):
                continue
            score -= switch * rank
            if slug not in best or score > best[slug][0]:
                best[slug] = (score, sentence)
    return best


def best_of(each: dict[str, tuple[float, str]]) -> tuple[str, str] | None:
    """(slug, sentence) with the highest score; the earlier entry on a tie."""
    if not each:
        return None
    slug = max(each, key=lambda s: each[s][0])
    return slug, each[slug][1]


def answering(
    bank: SentenceBank,
    entries: dict[str, Entry],
    slugs: Sequence[str],
    retrieval: Retrieval,
    question: str,
    *,
    mentioning_other: bool = False,
    switch: float = 0.0,
    past_definition: bool = False,
) -> tuple[str, str] | None:
    """(slug, sentence): the sentence of these entries that answers the question best (see
    `answering_each`). None when no sentence qualifies."""
    each = answering_each(
        bank,
        entries,
        slugs,
        retrieval,
        question,
        mentioning_other=mentioning_other,
        switch=switch,
        past_definition=past_definition,
    )
    return best_of(each)


def mentioning(
    bank: SentenceBank,
    entry: Entry,
    retrieval: Retrieval,
    question: str,
    names: Sequence[str],
) -> list[str]:
    """The entry's sentences that name one of `names` (a card's aliases), best first."""
    wanted = [n.lower() for n in names if len(n) >= 2]
    scored = bank.scores(entry, retrieval.vector, question)
    found = [
        (s, sc)
        for s, sc in scored
        if any(_names(s.lower(), n) for n in wanted) and not is_reference(s, entry)
    ]
    return [s for s, _ in sorted(found, key=lambda x: -x[1])]


def _names(sentence: str, name: str) -> bool:
    at = sentence.find(name)
    while at >= 0:
        before = sentence[at - 1] if at else " "
        end = at + len(name)
        after = sentence[end] if end < len(sentence) else " "
        if not before.isalnum() and not after.isalnum():
            return True
        at = sentence.find(name, at + 1)
    return False


def evidence(p: Picked) -> Evidence:
    return Evidence(
        slug=p.entry.slug, title=p.entry.title, url=p.entry.url, sentences=list(p.sentences)
    )
