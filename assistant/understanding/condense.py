"""A follow-up + the conversation → a self-contained question for the glossary search.

    condenser.condense(read("а от чего зависит его размер?"), history)
        → «а от чего зависит его размер? (KV-кэш)»   (the topic of the last answer named)

The LLM rewrites a follow-up when it is healthy (`Rewriter`, checked by llm/assist.py); without
it the topic of the previous answer is named after the message, and for a «what is the
counterpart» question («а в pytorch есть что-то похожее?») what the counterpart should resemble.
"""

from __future__ import annotations

import re
from typing import Protocol

from assistant.corpus.glossary import Entry
from assistant.schema import Turn
from assistant.text.sentences import split_sentences
from assistant.understanding.lexicon import PRONOUN
from assistant.understanding.reader import ParsedMessage

_PRONOUN = re.compile(PRONOUN)


class Rewriter(Protocol):
    """A language model that rewrites a follow-up into a self-contained question."""

    @property
    def available(self) -> bool: ...

    def condense(self, message: ParsedMessage, history: list[Turn]) -> str | None: ...


def previous_topic(history: list[Turn]) -> Turn | None:
    """The last answer that cited entries: what a follow-up refers back to."""
    return next((t for t in reversed(history) if t.role == "assistant" and t.slugs), None)


class Condenser:
    def __init__(self, entries: dict[str, Entry], rewriter: Rewriter | None = None) -> None:
        self.entries = entries
        self.rewriter = rewriter

    def condense(self, message: ParsedMessage, history: list[Turn]) -> str:
        """Make a follow-up self-contained: the LLM (JSON schema) if healthy, else the topic."""
        text, sig = message.text, message.signals
        prev = previous_topic(history)
        if prev is None or not sig.follow_up:
            return text
        if self.rewriter is not None and self.rewriter.available:
            rewritten = self.rewriter.condense(message, history)
            if rewritten:
                return rewritten
        pronoun = any(_PRONOUN.fullmatch(w) for w in message.words)
        if message.terms and not (pronoun or sig.comparison_cue):
            return text
        topic = [self.entries[s] for s in prev.slugs[:1] if s in self.entries]
        if not topic:
            return text
        if sig.counterpart:  # «а в pytorch есть что-то похожее?»: say what it should resemble
            return f"{text} ({topic[0].title}: {split_sentences(topic[0].text)[0]})"
        return f"{text} ({topic[0].title})"
