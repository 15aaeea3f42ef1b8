"""A pipeline (anything with `answer` / `turns_for` / `ready`) → answers with failures caught,
latency per route, generators used, and an independent grounding audit of each answer.

An exception while answering never stops an evaluation: `attempt` returns a `Failure`, which
the section counts as a miss (and the robustness section as «not answered»). A failure that is
not an AssistantError is a crash — the kind of error a channel would turn into HTTP 500.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from pydantic import JsonValue

from assistant.answer import grounding
from assistant.errors import AssistantError, InputError
from assistant.pipeline import Pipeline
from assistant.schema import Answer, Turn


class Answering(Protocol):
    """What the evaluation needs from a pipeline (`assistant.pipeline.Pipeline` has it)."""

    def answer(self, message: str, history: Sequence[Turn] = ()) -> Answer: ...

    def turns_for(self, message: str, answer: Answer) -> tuple[Turn, Turn]: ...

    def ready(self) -> dict[str, JsonValue]: ...


@dataclass(frozen=True)
class Failure:
    """An exception instead of an answer."""

    kind: str
    message: str
    crash: bool  # not an AssistantError: nothing turned it into a friendly answer
    code: str = ""  # an InputError's code: `empty_message` is the validator's reply

    def __str__(self) -> str:
        return f"исключение {self.kind}: {self.message[:200]}"


class Recorder:
    """Collects every answer's latency per route and re-checks what left the engine."""

    def __init__(self, pipeline: Answering) -> None:
        self.pipeline = pipeline
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.caught = 0
        self.leaked: list[str] = []
        self.answers = 0
        self.generators: dict[str, int] = defaultdict(int)
        self.failures: dict[str, int] = defaultdict(int)

    def ask(self, question: str, history: list[Turn] | None = None) -> Answer:
        answer = self.pipeline.answer(question, history or [])
        self.answers += 1
        self.latency[answer.route].append(answer.meta.latency_ms)
        self.generators[answer.generator] += 1
        self.caught += answer.meta.grounding_violations
        self.leaked += [f"{question}: {p}" for p in self.audit(question, answer, history or [])]
        return answer

    def attempt(self, question: str, history: list[Turn] | None = None) -> Answer | Failure:
        """`ask`, with any exception caught and counted instead of raised."""
        try:
            return self.ask(question, history)
        except Exception as e:  # the point: a bug in one answer must not end the run
            code = e.code if isinstance(e, InputError) else ""
            failure = Failure(type(e).__name__, str(e), not isinstance(e, AssistantError), code)
            self.failures[failure.kind] += 1
            return failure

    def history(self, questions: list[str]) -> list[Turn]:
        """Turns of a conversation replayed from earlier questions (a failed one is skipped)."""
        turns: list[Turn] = []
        for q in questions:
            answer = self.attempt(q, turns)
            if isinstance(answer, Answer):
                turns.extend(self.pipeline.turns_for(q, answer))
        return turns

    def audit(self, question: str, answer: Answer, history: list[Turn]) -> list[str]:
        """Independent check: citations from the context, every number supported by the same
        claim of a cited sentence or tool result — re-derived from what left the engine."""
        if not isinstance(self.pipeline, Pipeline):
            return []  # a stand-in has no engine to check against
        entries = self.pipeline.engine.entries
        problems = [p.detail for p in self.pipeline.engine.guard.recheck(answer, history, question)]
        sources = grounding.Sources()
        sources.add(*(entries[c.slug].text for c in answer.citations if c.slug in entries))
        for call in answer.tool_calls:
            sources.add_json(call.result)
        problems += [f"ссылка {u}" for u in grounding.foreign_links(answer.answer, sources)]
        if answer.generator != "embedded" and grounding.degenerate(answer.answer):
            problems.append("повторы или список источников")
        return problems
