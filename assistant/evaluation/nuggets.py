"""eval/nuggets.jsonl + answers → what the answers say: complete answers, nugget recall and the
lead rate per kind of question, dev and test side by side.

Each row lists the facts («nuggets») a correct answer must state, as regular expressions with
alternatives (`any`), written blind from the entry texts and the catalogue; `lead` nuggets must
be in the first sentence, `forbid` patterns must not appear at all. They are matched against
the answer text (what a person, a screen reader, a Telegram preview and an agent's copy-paste
all read; the display tables are not counted) after `normalised`:

    lower case, ё → е, any whitespace → one space, «3,35» → «3.35», «32 768» → «32768», no **

A row is complete when every nugget is stated and nothing forbidden is; an out-of-scope row
(`expect: decline`) when the answer declines. Nugget recall pools every nugget of the in-scope
rows; the lead rate counts the rows with a lead nugget whose first sentence states one.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from assistant.evaluation.rows import NuggetRow
from assistant.schema import Answer
from assistant.text.sentences import split_sentences

_SPACE = re.compile(r"\s+")
_DECIMAL = re.compile(r"(?<=\d),(?=\d)")
# digit groups of a number written with thousands separators: «32 768», «1 120», not «h200 141»
_GROUPED = re.compile(r"(?<![\w.,])\d{1,3}(?: \d{3})+(?![\d])")
_MARKER = re.compile(r"\s*\[\d{1,2}\]")


def normalised(text: str) -> str:
    t = _SPACE.sub(" ", text.replace("**", "").lower().replace("ё", "е"))
    t = _DECIMAL.sub(".", t)
    return _GROUPED.sub(lambda m: m.group(0).replace(" ", ""), t).strip()


@lru_cache(maxsize=4096)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _matches(patterns: Iterable[str], text: str) -> bool:
    return any(_compiled(p).search(text) for p in patterns)


@dataclass(frozen=True)
class Scored:
    row: NuggetRow
    stated: tuple[str, ...]  # ids of the nuggets the answer states
    lead: bool | None  # the first sentence states a lead nugget (None: the row has none)
    forbidden: tuple[str, ...]
    declined: bool

    @property
    def complete(self) -> bool:
        if self.row.expect == "decline":
            return self.declined
        return (
            not self.declined and len(self.stated) == len(self.row.nuggets) and not self.forbidden
        )

    @property
    def missed(self) -> tuple[str, ...]:
        return tuple(n.id for n in self.row.nuggets if n.id not in self.stated)

    @property
    def recall(self) -> float | None:
        """The share of the row's facts the answer states (None for a decline row)."""
        if self.row.expect == "decline" or not self.row.nuggets:
            return None
        return len(self.stated) / len(self.row.nuggets)


def score(row: NuggetRow, answer: Answer) -> Scored:
    text = normalised(_MARKER.sub("", answer.answer))
    sentences = split_sentences(_MARKER.sub("", answer.answer))
    first = normalised(sentences[0]) if sentences else ""
    stated = tuple(n.id for n in row.nuggets if _matches(n.any, text))
    leads = [n for n in row.nuggets if n.lead]
    lead = any(_matches(n.any, first) for n in leads) if leads else None
    forbidden = tuple(p for p in row.forbid if _compiled(p).search(text))
    return Scored(row, stated, lead, forbidden, declined=answer.refused)


@dataclass
class KindFigures:
    rows: int = 0
    complete: int = 0
    nuggets: int = 0
    stated: int = 0
    leads: int = 0
    led: int = 0
    false_refusals: int = 0

    def add(self, s: Scored) -> None:
        self.rows += 1
        self.complete += s.complete
        if s.row.expect != "decline":
            self.nuggets += len(s.row.nuggets)
            self.stated += len(s.stated)
            self.false_refusals += s.declined
        if s.lead is not None:
            self.leads += 1
            self.led += s.lead

    def rate(self, part: int, whole: int) -> float | None:
        return round(part / whole, 3) if whole else None

    def as_dict(self) -> dict[str, float | int | None]:
        return {
            "rows": self.rows,
            "complete": self.rate(self.complete, self.rows),
            "nugget_recall": self.rate(self.stated, self.nuggets),
            "lead": self.rate(self.led, self.leads),
            "false_refusal": self.rate(self.false_refusals, self.rows),
        }


@dataclass
class NuggetReport:
    """Figures per column (dev, test) and per kind; «all» pools the in-scope kinds."""

    figures: dict[str, dict[str, KindFigures]] = field(default_factory=dict)
    misses: list[Scored] = field(default_factory=list)  # dev rows only

    def add(self, column: str, s: Scored) -> None:
        kinds = self.figures.setdefault(column, defaultdict(KindFigures))
        kinds[s.row.kind].add(s)
        if s.row.expect != "decline":
            kinds["all"].add(s)
        if column == "dev" and not s.complete:
            self.misses.append(s)


def evaluate(rows: Sequence[NuggetRow], answers: Sequence[Answer]) -> NuggetReport:
    report = NuggetReport()
    for row, answer in zip(rows, answers, strict=True):
        report.add(row.split, score(row, answer))
    return report
