"""Scripted stand-ins for the evaluation runner: the same `answer` / `turns_for` / `ready`
interface as `assistant.pipeline.Pipeline`, and `search` as a retriever, answering from a script;
`solve` as the calculators, raising where the script says a bug is.

They let the runner's own logic (splits, checks, caught exceptions, targets) be tested in
milliseconds; the real pipeline is what `assistant eval …` runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from assistant.numeric import NumericOutcome
from assistant.schema import Answer, AnswerMeta, Citation, SearchHit, ToolCall, Turn
from tests.helpers import TOOLBOX

Reply = Answer | Exception | Callable[[Sequence[Turn]], Answer]


def reply(
    route: str = "term",
    slugs: Sequence[str] = (),
    *,
    tool: str | None = None,
    values: dict[str, Any] | None = None,
    arguments: dict[str, Any] | None = None,
    refused: bool = False,
    text: str = "ответ",
    params: dict[str, Any] | None = None,
) -> Answer:
    """An Answer as the engine would shape it (citations, first tool call, carried params)."""
    calls = []
    if tool is not None:
        result = {"tool": tool, "values": values or {}}
        calls.append(ToolCall(name=tool, arguments=arguments or {}, result=result))
    return Answer(
        answer=text,
        citations=[Citation(slug=s, title=s, url=f"/glossary/{s}") for s in slugs],
        tool_calls=calls,
        refused=refused,
        route=route,  # type: ignore[arg-type]
        generator="scripted",
        meta=AnswerMeta(params=params or {}, latency_ms=1.0),
    )


@dataclass
class ScriptedPipeline:
    """Answers each message from `script`; an Exception in the script is raised, a callable
    gets the history (to answer follow-ups only when the context arrived)."""

    script: dict[str, Reply]
    seen: list[tuple[str, list[Turn]]] = field(default_factory=list)

    def answer(self, message: str, history: Sequence[Turn] = ()) -> Answer:
        self.seen.append((message, list(history)))
        scripted = self.script.get(message, reply("out_of_scope", refused=True))
        if isinstance(scripted, Exception):
            raise scripted
        if callable(scripted):
            return scripted(history)
        return scripted

    def turns_for(self, message: str, answer: Answer) -> tuple[Turn, Turn]:
        user = Turn(role="user", content=message)
        slugs = [c.slug for c in answer.citations]
        bot = Turn(role="assistant", content=answer.answer, params=answer.meta.params, slugs=slugs)
        return user, bot

    def ready(self) -> dict[str, Any]:
        return {"index": True, "llm": "disabled", "generator": "scripted"}


@dataclass
class ScriptedRetriever:
    """Returns the scripted ranking for a question in every mode (hybrid may differ)."""

    ranking: dict[str, list[str]]
    hybrid: dict[str, list[str]] = field(default_factory=dict)

    def search(self, query: str, k: int = 5, mode: str = "hybrid") -> list[SearchHit]:
        slugs = self.hybrid.get(query) if mode == "hybrid" else None
        slugs = slugs or self.ranking.get(query, [])
        return [SearchHit(slug=s, title=s, score=1.0 / (i + 1)) for i, s in enumerate(slugs[:k])]


@dataclass
class BrokenToolbox:
    """The real calculators, except that one question raises, as a bug in a reader would."""

    broken: str

    def solve(self, message: str, carried: Mapping[str, object] | None = None) -> NumericOutcome:
        if message == self.broken:
            raise OverflowError("int too large to convert to float")
        return TOOLBOX.solve(message, carried)
