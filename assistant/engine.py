"""Message + history → verified Answer: read it, decide what it asks, then calculate or search
the glossary, and let the answer stage phrase and check the reply.

    engine = Engine(parts)       # build_pipeline(settings) builds the parts once
    engine.answer("а в FP8?", history) -> Answer

The engine holds no word list and reads no text: understanding/ decides (`decide` →
Understanding), numeric.py runs a calculation, search/ finds the evidence, answer/ writes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from assistant.answer.answerer import Answerer
from assistant.answer.edges import no_throughput_figure, safe_answer
from assistant.answer.generation import LLMGenerator
from assistant.answer.guard import Guard
from assistant.calculators.registry import get_tool
from assistant.corpus.glossary import Entry, Glossary
from assistant.errors import UNAVAILABLE
from assistant.numeric import Calculations
from assistant.schema import Answer, Route, Turn
from assistant.search.lookup import Lookup
from assistant.search.retrieval import Retriever
from assistant.understanding.asks import Ask
from assistant.understanding.calculation import Filler, Plan
from assistant.understanding.condense import Condenser
from assistant.understanding.decide import Kind, Understanding, decide
from assistant.understanding.params import Params
from assistant.understanding.reader import ParsedMessage, Reader
from assistant.understanding.thread import unthread
from assistant.understanding.vocabulary import Vocabulary

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Parts:
    """What the engine runs, built once by the composition root (pipeline.build_pipeline)."""

    glossary: Glossary
    reader: Reader
    calculations: Calculations
    condenser: Condenser
    retriever: Retriever
    vocabulary: Vocabulary
    lookup: Lookup
    answerer: Answerer
    guard: Guard
    llm: LLMGenerator | None = None


class Engine:
    def __init__(self, parts: Parts) -> None:
        self.parts = parts
        self.glossary = parts.glossary
        self.entries: dict[str, Entry] = parts.glossary.by_slug()
        self.reader = parts.reader
        self.retriever = parts.retriever
        self.vocabulary = parts.vocabulary
        self.guard = parts.guard
        self.llm = parts.llm

    def answer(self, message: str, history: list[Turn]) -> Answer:
        """Never raises on what a person wrote: a bug while understanding a message is logged
        and answered with a safe Russian request to rephrase. Only an unavailable index, model
        or LLM (the service's own state) propagates, for the channel to report."""
        try:
            return self._answer(message, history)
        except UNAVAILABLE:
            raise
        except Exception:
            log.exception("could not understand a message of %d characters", len(message))
            return safe_answer(message)

    def _answer(self, message: str, history: list[Turn]) -> Answer:
        p = self.parts
        message, history = unthread(message, history)
        parsed = p.reader.read(message)
        u = decide(parsed, self._carried(history), p.calculations.catalog, self._filler(history))
        if u.kind is Kind.calculation:
            assert u.plan is not None
            return p.answerer.numeric(u, p.calculations.compute(u.plan), history)
        if u.kind is Kind.question:
            return self._search(u, history)
        if u.kind is Kind.handoff:  # refunds, outages, accounts: people decide
            return p.answerer.handoff(u)
        if u.kind is Kind.greeting:
            return p.answerer.fixed("greeting", u)
        # an injection, or other vendors' prices, stocks, contracts: never calculate or guess
        route: Route = "injection" if u.kind is Kind.injection else "out_of_scope"
        return p.answerer.fixed(route, u, refused=True)

    def _search(self, u: Understanding, history: list[Turn]) -> Answer:
        p = self.parts
        text = p.condenser.condense(u.message, history)
        searched = p.lookup.find(u.message, text, history)
        if u.plan is not None:  # a problem with figures: the calculation is its cause
            return p.answerer.problem(u, p.calculations.compute(u.plan), searched, history)
        if searched.scope.unstated:  # «сколько CUDA-ядер у 5090?»: no sheet or entry says
            return p.answerer.outside(u, searched)
        if u.message.signals.outside and u.message.signals.how_to:
            # «как андервольтнуть 5090 и разогнать gddr7?»: a how-to no entry gives, whatever
            # card it names; the card's sheet does not answer it
            return p.answerer.outside(u, searched, near=True)
        cards = u.reading.ask in (Ask.gpu_fact, Ask.gpu_comparison)
        if cards and searched.scope.unlisted_card and "offered" not in u.reading.fields:
            # «H20 — сколько у неё памяти против H100?»: no sheet has the card asked about
            return p.answerer.outside(u, searched, near=True)
        if cards:  # the catalogue answers first
            return p.answerer.gpus(u, searched, history)
        if u.reading.ask is Ask.provider and not searched.scope.beyond:  # FullGPU's sentence
            answer = p.answerer.provider(u, searched, history)
            if answer is not None:
                return answer
        # a problem whose words name a cause the entries state is theirs, however it ranks
        if not searched.scope.in_scope and u.reading.cause is None:
            return p.answerer.outside(u, searched)
        problem = u.reading.ask in (Ask.problem, Ask.error_log)  # why, not a figure
        explained = p.answerer.explain(u, searched, history)
        return no_throughput_figure(explained, u.message, problem=problem)

    def _carried(self, history: list[Turn]) -> Params:
        """The previous answer's parameters; a history of text only (a pasted support thread,
        an OpenAI-style client) has none, so the customer's turns are read again in order."""
        if any(t.role == "assistant" and t.params for t in history):
            prev = next(t for t in reversed(history) if t.role == "assistant")
            return Params.of(prev.params)
        calc, state = self.parts.calculations, Params()
        for turn in history:
            if turn.role != "user":
                continue
            plan = calc.plan(self.reader.read(turn.content), state)
            outcome = None if plan is None else calc.compute(plan)
            if outcome is not None and not outcome.rejected:
                state = outcome.params
        return state

    def _filler(self, history: list[Turn]) -> Filler | None:
        """The LLM reads a calculator argument a plan misses (a forced tool call), when healthy;
        only what the user actually said is kept (llm/assist.py)."""
        llm = self.llm
        if llm is None or not llm.available:
            return None

        def fill(plan: Plan, message: ParsedMessage) -> Params | None:
            filled = llm.fill_arguments(get_tool(plan.tool).openai(), message, history)
            return Params.of(filled) if filled else None

        return fill

    def ready(self) -> dict[str, Any]:
        llm = "disabled" if self.llm is None else "ok" if self.llm.healthy() else "down"
        generator = "vllm" if llm == "ok" else "embedded"
        return {"index": self.retriever.ready(), "llm": llm, "generator": generator}
