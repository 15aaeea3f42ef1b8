"""Answer text + citations + sources → violations: phantom citations, ungrounded numbers.

With claim sources (`Sources.claims`, built by the answer guard) every number must be supported
by the same claim of a specific cited sentence or tool result (assistant/answer/support.py);
without them — an answer re-checked from its public fields alone — a number must appear in one
of the sources. Each violation is a Problem: a code from the fixed set (schema.FallbackReason,
the metric label) and a Russian detail for logs.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from assistant.answer import support
from assistant.answer.spelled import digits
from assistant.answer.support import ClaimSources
from assistant.schema import Citation, FallbackReason
from assistant.text.sentences import split_sentences
from assistant.text.tokens import delatinize, lemmas, words

MARKER = re.compile(r"\[(\d{1,2})\]")  # a citation marker: [1]
# A standalone number: «2 190», «2190», «3,00», «4.8», «1 344,5» — not part of a word like FP8.
_SPACE = "[ \u00a0\u202f]"
_NUMBER = re.compile(rf"(?<![\w.,])(\d{{1,3}}(?:{_SPACE}\d{{3}})+|\d+)(?:[.,](\d+))?(?![\w])")
# A token mixing letters and digits: model and product names (FP8, H100, 70B, Gen5, HBM3e).
_ALNUM = re.compile(r"(?<![\w])(?=[\w-]*\d)(?=[\w-]*[^\W\d_])[\w-]+")


@dataclass(frozen=True)
class Number:
    text: str
    value: float
    decimals: int


def numbers(text: str) -> list[Number]:
    """Standalone numbers in text, citation markers excluded."""
    text = MARKER.sub(" ", text)
    out = []
    for m in _NUMBER.finditer(text):
        whole = re.sub(_SPACE, "", m.group(1))
        frac = m.group(2) or ""
        out.append(Number(m.group(0), float(f"{whole}.{frac}" if frac else whole), len(frac)))
    return out


def name_tokens(text: str) -> set[str]:
    """Letter-and-digit tokens, lower-case, Cyrillic look-alikes as Latin: the user's «8к» and
    «Н100» are the answer's «8k» and «H100»."""
    return {delatinize(t.lower().strip("-")) for t in _ALNUM.findall(MARKER.sub(" ", text))}


def _matches(n: Number, allowed: float) -> bool:
    if round(allowed, n.decimals) == n.value:
        return True
    tolerance = max(0.005 * abs(allowed), 0.5 * 10**-n.decimals)
    # a tool may give 10.737 where the text says «10,7» or «около 11»
    return bool(abs(allowed - n.value) <= tolerance)


@dataclass(frozen=True)
class Problem:
    """One violation: `code` for metrics and fallback accounting, `detail` for logs."""

    code: FallbackReason
    detail: str


@dataclass
class Sources:
    """What an answer may rely on: tool results, cited entries, the user's own words."""

    texts: list[str] = field(default_factory=list)
    names: set[str] = field(default_factory=set)  # product names known anywhere in the glossary
    # multi-word names whose digits are not quantities: «Llama 3 70B», «RTX 5090», «Qwen 2.5 7B»
    phrases: tuple[str, ...] = ()
    claims: ClaimSources | None = None  # claim-level number grounding when present

    def add(self, *texts: str) -> None:
        self.texts.extend(t for t in texts if t)

    def add_json(self, payload: object) -> None:
        self.texts.append(json.dumps(payload, ensure_ascii=False))

    def allowed_values(self) -> list[float]:
        values = [n.value for t in self.texts for n in numbers(t)]
        values += [float(v) for t in self.texts for v in re.findall(r"-?\d+\.\d+|-?\d+", t)]
        return values

    def allowed_names(self) -> set[str]:
        found = set(self.names)
        for t in self.texts:
            found |= name_tokens(t)
        return found


@lru_cache(maxsize=8)
def _phrase_pattern(phrases: tuple[str, ...]) -> re.Pattern[str] | None:
    if not phrases:
        return None
    alternation = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
    return re.compile(rf"(?<![\w.])(?:{alternation})(?![\w])", re.IGNORECASE)


@lru_cache(maxsize=8)
def _phrase_look(phrases: tuple[str, ...]) -> tuple[tuple[str, ...], re.Pattern[str]] | None:
    """The phrases lower-cased and a class of their letters, for a look before the regex; None
    when a phrase has a letter outside Latin and Cyrillic (IGNORECASE pairs more than lower())."""
    letters = set("".join(phrases))
    if not phrases or any(_OTHER_SCRIPT.match(c) for c in letters):
        return None
    chars = "".join(re.escape(c) for c in sorted(letters))
    return tuple(p.lower() for p in phrases), re.compile(f"[{chars}]", re.IGNORECASE)


# outside ASCII and basic Cyrillic, whose letters IGNORECASE pairs exactly as lower() does
_OTHER_SCRIPT = re.compile(r"[^\x00-\x7f\u0400-\u04ff]")


def _names_none(text: str, forms: tuple[str, ...], letters: re.Pattern[str]) -> bool:
    """True when no phrase can occur in the text, whatever the case (a phrase's match is its
    lower-cased form in the lower-cased text); False also when a letter of another script
    (Kelvin sign, «ı», «ſ») could stand for a phrase's letter."""
    if any(letters.match(c) for c in set(_OTHER_SCRIPT.findall(text))):
        return False
    lowered = text.lower()
    return not any(f in lowered for f in forms)


def strip_phrases(text: str, phrases: Sequence[str]) -> str:
    """Remove known product names (longest first) so their digits are not read as numbers."""
    key = tuple(phrases)
    pattern, look = _phrase_pattern(key), _phrase_look(key)
    if look is not None and _names_none(text, *look):  # most answers: the ~180-name
        return text  # alternation tried at every position cost ~0.1 ms
    return pattern.sub(" NAME ", text) if pattern else text


def ungrounded_numbers(text: str, sources: Sources) -> list[str]:
    text = strip_phrases(text, sources.phrases)
    allowed = sources.allowed_values()
    bad = [n.text for n in numbers(text) if not any(_matches(n, a) for a in allowed)]
    names = sources.allowed_names()
    bad += [t for t in name_tokens(text) if t not in names]
    return bad


def citation_problems(
    text: str, citations: Sequence[Citation], context: Iterable[str]
) -> list[str]:
    """Markers must point at a citation; every citation must come from the retrieved context."""
    known = set(context)
    problems = [f"цитата {c.slug} не из контекста" for c in citations if c.slug not in known]
    for m in MARKER.finditer(text):
        n = int(m.group(1))
        if not 1 <= n <= len(citations):
            problems.append(f"маркер [{n}] без источника")
    return problems


_GLOSSARY_PATH = re.compile(r"/glossary/([a-z0-9-]+)")


def outside_paths(text: str, context: Iterable[str]) -> list[str]:
    """Glossary pages a draft names that are not in its context (a citation from elsewhere)."""
    known = set(context)
    return [m.group(0) for m in _GLOSSARY_PATH.finditer(text) if m.group(1) not in known]


def verify(
    text: str,
    citations: Sequence[Citation],
    context: Sequence[str],
    sources: Sources,
    *,
    cited: Sequence[int] | None = None,
    headline: bool = False,
    spelled: bool = False,
) -> list[Problem]:
    """All violations of an answer; empty means it may leave the engine.

    cited[k - 1]: the context index of the entry marker [k] points to (default: citations in
    context order); headline: the answer must state the calculator's result; spelled: numbers
    written in words are checked like digits (LLM drafts)."""
    found = [Problem("grounding_citations", p) for p in citation_problems(text, citations, context)]
    found += [
        Problem("grounding_citations", f"статья вне контекста: {p}")
        for p in outside_paths(text, context)
    ]
    claims = sources.claims
    if claims is None:
        bad = [f"число «{x}» не из источников" for x in ungrounded_numbers(text, sources)]
    else:
        order = list(cited) if cited is not None else _context_order(citations, context)
        bad = support.unsupported(text, order, claims, spelled=spelled)
        bad += [f"название «{x}» не из источников" for x in unknown_names(text, sources)]
    found += [Problem("grounding_numbers", p) for p in bad]
    if headline and claims is not None:
        found += [
            Problem("grounding_tool_result", p) for p in support.missing_headline(text, claims)
        ]
    return found


def _context_order(citations: Sequence[Citation], context: Sequence[str]) -> list[int]:
    index = {slug: i for i, slug in enumerate(context)}
    return [index.get(c.slug, -1) for c in citations]


def unknown_names(text: str, sources: Sources) -> list[str]:
    """Tokens mixing letters and digits (H300, FP7) that no source or catalogue knows."""
    tokens = [
        t for t in name_tokens(strip_phrases(text, sources.phrases)) if t not in sources.names
    ]
    if not tokens:  # every one a known product name: the sources' own tokens are not needed
        return []
    names = sources.allowed_names()
    return [t for t in tokens if t not in names]


def check(
    text: str, citations: Sequence[Citation], context: Iterable[str], sources: Sources
) -> list[str]:
    """All violations of an answer as Russian details; empty means it may leave the engine."""
    return [p.detail for p in verify(text, citations, list(context), sources)]


def support_ratio(text: str, sources: Sources) -> float:
    """Share of the answer's content words that occur in its sources (garbage scores low);
    numbers written in words count as the figures they are («девятьсот гигабайт в секунду»)."""
    words = [w for w in lemmas(digits(MARKER.sub(" ", text))) if len(w) >= 4 and not w.isdigit()]
    if not words:
        return 0.0
    known: set[str] = set()
    for t in sources.texts:
        known.update(lemmas(t))
    return sum(w in known for w in words) / len(words)


def shingles(text: str, size: int = 4) -> set[tuple[str, ...]]:
    """Word n-grams; a fragment shorter than `size` (a header such as «Статьи глоссария:»)
    counts as one n-gram of its own length, if it has at least two words."""
    tokens = words(text)
    if 2 <= len(tokens) < size:
        return {tuple(tokens)}
    return {tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1)}


def echoes(text: str, instructions: set[tuple[str, ...]]) -> bool:
    """True when a draft repeats the prompt's own wording (a base model echoing its input)."""
    tokens = words(text)
    grams = {tuple(tokens[i : i + n]) for n in (2, 3, 4) for i in range(len(tokens) - n + 1)}
    return bool(grams & instructions)


_URL = re.compile(r"(?:https?://|www\.)[^\s)\]]+", re.IGNORECASE)
_SOURCE_LINE = re.compile(r"^\s*\[\d{1,2}\]", re.MULTILINE)
# a list item or Markdown instead of prose: «- Для RTX 5090: …», «1. …», «## …», «**…**»
_LAYOUT = re.compile(r"^\s*(?:[-*•]\s|\d{1,2}[.)]\s|#{1,6}\s)|\*\*", re.MULTILINE)


def foreign_links(text: str, sources: Sources) -> list[str]:
    """Links in a draft that no source contains (a model must never invent a URL)."""
    known = {u for t in sources.texts for u in _URL.findall(t)}
    return [u for u in _URL.findall(text) if u not in known]


def degenerate(text: str) -> bool:
    """Repetition loops («— — — —»), a fake source list, or list/Markdown layout instead of the
    prose answers are written in: typical of a confused model."""
    tokens = text.split()
    run = longest = 1
    for a, b in itertools.pairwise(tokens):
        run = run + 1 if a == b else 1
        longest = max(longest, run)
    diverse = len(set(tokens)) >= 0.4 * len(tokens) if len(tokens) >= 20 else True
    layout = bool(_SOURCE_LINE.search(text) or _LAYOUT.search(text))
    return longest >= 4 or not diverse or layout or _repeats_a_sentence(text)


def _repeats_a_sentence(text: str) -> bool:
    """The same sentence (five words or more) twice: a model going round in circles."""
    seen: set[str] = set()
    for sentence in split_sentences(MARKER.sub(" ", text)):
        key = " ".join(sentence.lower().split())
        if len(key.split()) >= 5 and key in seen:
            return True
        seen.add(key)
    return False


_ENDING = re.compile(r"[.!?…»)\]]\s*$")


def cut_off(text: str) -> bool:
    """A draft that stops mid-sentence (the token limit hit): not an answer to deliver."""
    return not _ENDING.search(text)


def glossary_paths(text: str) -> list[str]:
    """Glossary page paths written into a draft: sources are shown under the answer, a draft
    must not carry them («Видеопамять (VRAM) (/glossary/vram) говорит…»)."""
    return [m.group(0) for m in _GLOSSARY_PATH.finditer(text)]
