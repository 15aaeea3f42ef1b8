"""Parsed message + its self-contained form + the conversation → Searched: the evidence the
glossary holds for it (fused hits, per-leg scores) and whether it covers the question.

    searched = lookup.find(parsed, condensed_text, history)
    searched.question    the tokens of the question searched (the condensed one for a follow-up)
    searched.retrieval   hits and per-leg evidence (search/retrieval.py)
    searched.scope       in the glossary or not, the entries to answer from (search/scope.py)

A «what is the counterpart of X» question («аналог NVLink у AMD») is re-ranked here: the
counterpart leads and X stays as support, its text often naming the counterpart.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from assistant.schema import Turn
from assistant.search.coverage import Coverage
from assistant.search.retrieval import Retrieval, Retriever
from assistant.search.scope import RULES, Scope, decide_scope
from assistant.text.tokens import Tokens, tokenize
from assistant.understanding.condense import previous_topic
from assistant.understanding.reader import ParsedMessage
from assistant.understanding.vocabulary import Vocabulary

HITS = 6


@dataclass(frozen=True)
class Searched:
    """What the glossary search found for one question."""

    question: Tokens  # self-contained (a follow-up is condensed), read
    retrieval: Retrieval
    scope: Scope


class Lookup:
    def __init__(
        self, retriever: Retriever, vocabulary: Vocabulary, coverage: Coverage = RULES
    ) -> None:
        self.retriever = retriever
        self.vocabulary = vocabulary
        self.coverage = coverage  # in or out of scope: the rules, or the learned decision

    def find(self, message: ParsedMessage, text: str, history: list[Turn]) -> Searched:
        """`text`: the message itself, or its condensed form (understanding/condense.py)."""
        own = text == message.text
        question = message.tokens if own else tokenize(text)
        retrieval = self.retriever.retrieve(
            text,
            k=HITS,
            named=message.terms if own else None,
            defined=message.defined if own else None,
        )
        if message.signals.counterpart:
            retrieval = without_subject(retrieval, message, history)
        scope = decide_scope(message, question, retrieval, self.vocabulary, self.coverage)
        return Searched(question, retrieval, scope)


def without_subject(retrieval: Retrieval, message: ParsedMessage, history: list[Turn]) -> Retrieval:
    """«Аналог NVLink у AMD»: lead with the counterpart, keep the subject as support.

    The subject stays cited because its own text often names the counterpart
    («аналог у AMD — RCCL») even when the counterpart has no entry of its own.
    """
    subject = set(message.terms)
    prev = previous_topic(history)
    if prev is not None and not subject:
        subject = set(prev.slugs[:1])
    others = [h for h in retrieval.hits if h.slug not in subject]
    mine = [h for h in retrieval.hits if h.slug in subject]
    if not others or not mine or len(subject) > 1:
        return retrieval
    lead = others[0]
    support = replace(mine[0], score=lead.score - 0.01)
    return replace(retrieval, hits=[lead, support, *others[1:]])
