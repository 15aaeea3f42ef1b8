"""Parsed message + the previous turn's params → Understanding: what the message asks, decided
once — the one place that knows a greeting from a calculation from a glossary question.

    u = decide(reader.read("сколько памяти нужно 70B в FP8"), Params(), catalog)
    u.kind        Kind.calculation      (injection, greeting, handoff, not_ours, question)
    u.plan        the calculation (understanding/calculation.py), for Kind.calculation
    u.handoff     the topics a person must handle, for Kind.handoff

The order is the product's: an injection is refused before anything else is read, small talk
is answered as such, refunds and outages go to people before any number in them is computed,
other vendors' business is not ours, and only then is the message a calculation or a question
for the glossary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from assistant.calculators.registry import ToolName
from assistant.corpus.catalog import Catalog
from assistant.understanding.asks import Ask, Reading, classify
from assistant.understanding.calculation import Filler, Plan, calculation
from assistant.understanding.diagnosis import diagnose, with_remedies
from assistant.understanding.params import Params
from assistant.understanding.reader import ParsedMessage
from assistant.understanding.triage import Handoff, triage


class Kind(StrEnum):
    injection = "injection"  # an attempt to override the instructions: refused
    greeting = "greeting"  # hello, thanks, what can you do
    handoff = "handoff"  # refunds, invoices, outages, accounts: people decide
    not_ours = "not_ours"  # other vendors' prices, stocks, creative writing
    calculation = "calculation"  # a calculator answers (or asks back for a parameter)
    question = "question"  # the glossary answers, if it covers it (a problem: with the figures)


@dataclass(frozen=True)
class Understanding:
    kind: Kind
    message: ParsedMessage
    carried: Params  # the previous answer's parameters
    plan: Plan | None = None
    handoff: Handoff | None = None
    # for a question: what kind of answer it wants
    reading: Reading = field(default_factory=lambda: Reading(Ask.other))


def decide(
    message: ParsedMessage, carried: Params, catalog: Catalog, fill: Filler | None = None
) -> Understanding:
    """`fill`: reads a missing calculator argument from the message (the LLM, when healthy)."""
    sig = message.signals
    if sig.injection:
        return Understanding(Kind.injection, message, carried)
    if sig.greeting:
        return Understanding(Kind.greeting, message, carried)
    handoff = triage(message.text)
    if handoff is not None:
        return Understanding(Kind.handoff, message, carried, handoff=handoff)
    if sig.not_ours:
        return Understanding(Kind.not_ours, message, carried)
    reading = classify(message)
    if reading.ask in (Ask.problem, Ask.error_log):  # the cause first; figures as its evidence
        failure = message.failure  # «loss scale at minimum» is no memory problem of the setup
        memory = reading.memory or bool(failure and failure.memory)
        # «генерит медленно на L40S»: slowness is no memory problem, whatever the setup needs
        slow = message.signals.speed and not memory
        diagnosis = (
            None
            if (failure and not failure.memory) or slow
            else diagnose(message, carried, catalog, memory=memory)
        )
        # «DDP на 4 картах, добавили ещё 4 — всё равно OOM»: the cause is how the work is
        # spread; with no card named only a training estimate (a copy on each) says so in figures
        if reading.cause is not None and not message.gpus and diagnosis is not None:
            diagnosis = diagnosis if diagnosis.tool == ToolName.vram_training else None
        if reading.cause is not None and not memory:  # «в int4 влезла, но ответы тупее»:
            diagnosis = None  # the cause is not memory, however the setup computes
        if message.signals.outside and not memory:  # «насколько падает перплексия при awq?»:
            diagnosis = None  # what no entry describes is not answered by a fit of the setup
        return Understanding(Kind.question, message, carried, plan=diagnosis, reading=reading)
    if message.quantities.architecture and not message.models:
        # «сколько слоёв у gemma 2 27b?»: no record of the model, so no shape to compute with
        return Understanding(Kind.question, message, carried, reading=reading)
    if message.signals.outside and not message.gpus:
        # «какие лимиты у colab pro+ на гпу, сколько часов в сутки дают»: their hours, not a
        # GPU-hour sum of ours; «хватит ли колаба, чтобы дотюнить мистраль 7б?»: their cards,
        # which no sheet of ours holds. The glossary search says it is not covered (scope.py)
        return Understanding(Kind.question, message, carried, reading=reading)
    plan = calculation(message, carried, catalog, fill)
    if plan is not None:  # «13B на одной RTX 4090 — реально?»: and if not, what would fit
        return Understanding(Kind.calculation, message, carried, plan=with_remedies(plan, catalog))
    return Understanding(Kind.question, message, carried, reading=reading)
