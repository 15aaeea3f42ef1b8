"""Declined and 👎 questions of a period → groups by meaning, ranked by how often they came.

    gaps = content_gaps(store, lens, period)        # list[Gap], most frequent first

1. The store's gap items (declined, not injections; or rated 👎) are merged by their folded
   text: the question the engine understood (a follow-up made self-contained), so «а в FP8?»
   counts as the whole question it was.
2. Each distinct text gets its embedding from the engine's model; vectors are cached in the
   database (`gap_vectors`, keyed by a digest of the text), so only new questions are embedded.
3. Leader clustering: the most frequent text not yet in a group opens one, and every other free
   text at least `SIMILAR` cosine-close to it joins. Deterministic, explainable («these are at
   least 0,88 alike»), O(n²) on at most `MAX_TEXTS` distinct texts.
4. Each group shows its wordings, the comments of 👎, the entries nearest to its centre with
   their cosine, the words none of the glossary contains, and what to do: add an entry when the
   engine declined them (or no entry is `COVERED`-close), rewrite the nearest one when it
   answered and got 👎.

The thresholds are calibrated for multilingual-e5-small on eval/ (docs/benchmarks.md, «Content
gaps»): different requests in the same form («чем X отличается от Y?») reach 0,86, paraphrases
sharing a word 0,88 and up; 90 % of the glossary's own questions have an entry at 0,89 or
closer, the median near-domain question it lacks only 0,87.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from pydantic import BaseModel

from assistant.console.lens import GlossaryLens
from assistant.console.period import Period
from assistant.storage.console import ConsoleStore
from assistant.storage.facts import fold, vector_key
from assistant.storage.rows import GapItem

SIMILAR = 0.85
SAME = 0.90
COVERED = 0.88
MAX_TEXTS = 1000
MAX_GROUPS = 30
EMBED_BATCH = 64


class NearestEntry(BaseModel):
    title: str
    url: str
    score: float


class Gap(BaseModel):
    question: str  # the most frequent wording
    count: int  # how many times any of its questions was declined or 👎
    declined: int
    disliked: int
    examples: list[str]  # other wordings, most frequent first
    comments: list[str]
    nearest: list[NearestEntry]
    missing_words: list[str]
    action: str  # what an editor should do, in Russian
    last_seen: float


@dataclass
class _Text:
    text: str
    count: int = 0
    declined: int = 0
    disliked: int = 0
    wordings: Counter[str] = field(default_factory=Counter)
    comments: list[str] = field(default_factory=list)
    last_seen: float = 0.0

    def add(self, item: GapItem) -> None:
        self.count += item.count
        self.declined += item.declined
        self.disliked += item.disliked
        self.wordings[item.question] += item.count
        if item.comment and item.comment not in self.comments:
            self.comments.append(item.comment)
        self.last_seen = max(self.last_seen, item.last_seen)


def merge_texts(items: Iterable[GapItem]) -> list[_Text]:
    """One entry per distinct understood question, most frequent (then most recent) first."""
    texts: dict[str, _Text] = {}
    for item in items:
        text = " ".join(item.question.split())
        if text:
            texts.setdefault(fold(text), _Text(text)).add(item)
    return sorted(texts.values(), key=lambda t: (-t.count, -t.last_seen))[:MAX_TEXTS]


def vectors_for(store: ConsoleStore, lens: GlossaryLens, texts: list[str]) -> np.ndarray:
    """Cached embeddings where the database has them; the rest embedded now and saved."""
    keys = [vector_key(t) for t in texts]
    model = lens.model_id
    cached = store.vectors(model, keys)
    missing = [i for i, k in enumerate(keys) if k not in cached]
    fresh: dict[str, bytes] = {}
    for start in range(0, len(missing), EMBED_BATCH):
        batch = missing[start : start + EMBED_BATCH]
        for i, vector in zip(batch, lens.embed([texts[i] for i in batch]), strict=True):
            fresh[keys[i]] = np.asarray(vector, dtype=np.float32).tobytes()
    if fresh:
        store.save_vectors(model, fresh, time.time())
    found = {**cached, **fresh}
    return np.stack([np.frombuffer(found[k], dtype=np.float32) for k in keys])


def leader_groups(
    vectors: np.ndarray, words: list[frozenset[str]], similar: float = SIMILAR, same: float = SAME
) -> list[list[int]]:
    """Rows in priority order → groups of row numbers; each group starts with its leader. A row
    joins a leader when it is `same`-close, or `similar`-close and shares a word with it:
    «чем HBM отличается от GDDR7?» and «чем Gaudi 3 лучше H100?» are alike in form only."""
    free = np.ones(len(vectors), dtype=bool)
    sims = vectors @ vectors.T
    groups = []
    for leader in range(len(vectors)):
        if not free[leader]:
            continue
        close = free & (sims[leader] >= similar)
        close[leader] = False
        members = [leader] + [
            int(j)
            for j in np.flatnonzero(close)
            if sims[leader, j] >= same or words[leader] & words[j]
        ]
        free[members] = False
        groups.append(members)
    return groups


def _missing_words(lens: GlossaryLens, members: list[_Text]) -> list[str]:
    counts: Counter[str] = Counter()
    for t in members:
        for word in lens.unknown_words(t.text):
            counts[word] += t.count
    return [w for w, _ in counts.most_common(6)]


def _action(nearest: list[NearestEntry], declined: int, disliked: int, missing: list[str]) -> str:
    """Declined questions were outside the glossary by the engine's own judgement: write an
    entry. Answered ones rated 👎 had an entry that did not satisfy: rewrite the nearest."""
    if declined >= disliked or not nearest or nearest[0].score < COVERED:
        words = ", ".join(f"«{w}»" for w in missing[:3])
        return "Добавить статью" + (f": в глоссарии нет слов {words}." if words else ".")
    return f"Дополнить статью «{nearest[0].title}»: её нашли, но ответ не помог."


def content_gaps(store: ConsoleStore, lens: GlossaryLens, period: Period) -> list[Gap]:
    texts = merge_texts(store.gap_items(period.span))
    if not texts:
        return []
    vectors = vectors_for(store, lens, [t.text for t in texts])
    groups = leader_groups(vectors, [lens.content_words(t.text) for t in texts])
    weight = [sum(texts[i].count for i in g) for g in groups]
    ranked = sorted(range(len(groups)), key=lambda n: (-weight[n], n))[:MAX_GROUPS]
    centres = []
    for n in ranked:
        centre = vectors[groups[n]].mean(axis=0)
        centres.append(centre / max(float(np.linalg.norm(centre)), 1e-9))
    nearest = lens.nearest(np.stack(centres), k=3)
    out = []
    for n, near in zip(ranked, nearest, strict=True):
        members = [texts[i] for i in groups[n]]
        wordings: Counter[str] = Counter()
        for t in members:
            wordings.update(t.wordings)
        entries = [NearestEntry(title=e.title, url=e.url, score=e.score) for e in near]
        top = wordings.most_common(1)[0][0]
        declined = sum(t.declined for t in members)
        disliked = sum(t.disliked for t in members)
        missing = _missing_words(lens, members)
        out.append(
            Gap(
                question=top,
                count=weight[n],
                declined=declined,
                disliked=disliked,
                examples=[w for w, _ in wordings.most_common(6) if w != top][:5],
                comments=[c for t in members for c in t.comments][:5],
                nearest=entries,
                missing_words=missing,
                action=_action(entries, declined, disliked, missing),
                last_seen=max(t.last_seen for t in members),
            )
        )
    return out
