"""Report items (refused / low-confidence / thumbs-down answers) → groups an editor can act on."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from assistant.storage import ReportItem

_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)


def normalize_question(text: str) -> str:
    """Case, «ё», punctuation and spacing do not make two questions different."""
    return _NON_WORD.sub(" ", text.lower().replace("ё", "е")).strip()


@dataclass
class ReportGroup:
    """One distinct question: how often it went wrong, how, and what users said."""

    question: str  # the most recent wording
    count: int = 0
    refused: int = 0
    low_confidence: int = 0
    handoff: int = 0
    thumbs_up: int = 0
    thumbs_down: int = 0
    routes: dict[str, int] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    wordings: list[str] = field(default_factory=list)
    nearest_slugs: list[str] = field(default_factory=list)
    last_seen: float = 0.0

    def add(self, item: ReportItem) -> None:
        self.count += 1
        self.refused += item.refused
        self.low_confidence += item.confidence == "low"
        self.handoff += item.handoff
        self.thumbs_up += item.feedback == 1
        self.thumbs_down += item.feedback == -1
        self.routes[item.route] = self.routes.get(item.route, 0) + 1
        if item.comment and item.comment not in self.comments:
            self.comments.append(item.comment)
        if item.question and item.question not in self.wordings:
            self.wordings.append(item.question)
        for slug in item.slugs:
            if slug not in self.nearest_slugs:
                self.nearest_slugs.append(slug)
        if item.created_at >= self.last_seen:
            self.last_seen = item.created_at
            self.question = item.condensed or item.question


def group_report(items: Iterable[ReportItem]) -> list[ReportGroup]:
    """Group by normalized question; most frequent first, then most disliked, then most recent."""
    groups: dict[str, ReportGroup] = {}
    for item in items:
        key = normalize_question(item.condensed or item.question)
        groups.setdefault(key, ReportGroup(question=item.condensed or item.question)).add(item)
    return sorted(groups.values(), key=lambda g: (-g.count, -g.thumbs_down, -g.last_seen))
