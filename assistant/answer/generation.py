"""AnswerContext → answer text: the embedded extractive composer and the vLLM generator.

`LLMGenerator` is the seam the engine and the guard use; `VLLMGenerator` implements it over an
OpenAI-compatible server and tests/fakes.py's `ScriptedLLM` in-process.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from assistant.answer.claims import Lexicon
from assistant.answer.compose import Picked, paragraph
from assistant.answer.grounding import MARKER, shingles
from assistant.answer.support import headline_sentence
from assistant.corpus.glossary import Entry
from assistant.llm import assist
from assistant.llm.client import ChatClient
from assistant.llm.wire import ChatMessage, FunctionTool, JsonObject
from assistant.schema import Route, Turn
from assistant.text.templates import render
from assistant.understanding.calculation import Outcome
from assistant.understanding.reader import ParsedMessage

EXAMPLES = (
    "что такое NVLink?",
    "сколько видеопамяти нужно модели 70B в FP8?",
    "сколько стоит аренда восьми H100 на неделю?",
)


@dataclass(frozen=True)
class AnswerContext:
    """Everything a generator may use; entries are numbered [1]…[n] in this order."""

    route: Route
    message: str
    question: str
    history: Sequence[Turn] = ()
    entries: tuple[Entry, ...] = ()
    picked: tuple[Picked, ...] = ()
    outcome: Outcome | None = None
    tool_text: str = ""  # the calculation's answer text (answer/calculations/text.py)
    defined_term: str = ""
    chat: str = ""  # which small-talk reply: hello, help, thanks, praise, bye
    # sentences the answer plan writes first (a catalogue figure, a verdict), markers included
    lead: tuple[str, ...] = ()


class LLMGenerator(Protocol):
    """A language model that phrases answers and helps read follow-ups.

    Nothing it returns is trusted: drafts go through the guard's checks, condensed questions
    and tool arguments through the assists' own checks (llm/assist.py).
    """

    name: str
    routes: frozenset[str]  # the routes it phrases; the others stay deterministic
    instructions: set[tuple[str, ...]]  # word 4-grams of its prompts: a draft must not echo them

    @property
    def available(self) -> bool:
        """False while the server is known to be down (circuit open): skip it without waiting."""
        ...

    def healthy(self) -> bool:
        """Asks the server now (readiness probes)."""
        ...

    def generate(self, ctx: AnswerContext, *, timeout_s: float | None = None) -> str:
        """A whole draft within timeout_s (default: the client's llm_timeout_s); raises
        GenerationError / LLMUnavailableError (LLMTimeoutError past the deadline) as the
        client does."""
        ...

    def condense(self, message: ParsedMessage, history: list[Turn]) -> str | None:
        """A self-contained rewrite of a follow-up, or None when unusable."""
        ...

    def fill_arguments(
        self, tool: FunctionTool, message: ParsedMessage, history: list[Turn]
    ) -> JsonObject:
        """Calculator arguments the user actually said, read by a forced tool call."""
        ...


class EmbeddedGenerator:
    """Grounded extractive composer: glossary sentences and tool texts joined by templates."""

    name = "embedded"

    def __init__(self, prompts_dir: Path) -> None:
        self.prompts_dir = prompts_dir

    def _render(self, name: str, **ctx: Any) -> str:
        return render(self.prompts_dir, f"embedded/{name}.j2", **ctx)

    def unknown_note(self, term: str) -> str:
        """The line that says a defined term has no entry, before what the entries named say."""
        return self._render("unknown_term", term=term).strip()

    def setup_note(self) -> str:
        """The line after a memory problem the calculators could not check: what they need."""
        return self._render("setup_note").strip()

    def generate(self, ctx: AnswerContext) -> str:
        if ctx.route == "greeting":
            return self._render("greeting", examples=EXAMPLES, chat=ctx.chat)
        if ctx.route in ("out_of_scope", "injection"):
            return self._render(ctx.route)
        if ctx.route == "not_found":
            return self._render("not_found", term=ctx.defined_term, nearest=ctx.entries)
        if ctx.route in ("numeric", "clarify"):
            return self._render("numeric", tool_text=ctx.tool_text, sources=ctx.entries)
        # an entry whose one sentence leads is cited with no paragraph of its own
        paragraphs = [text for text in map(paragraph, ctx.picked) if text]
        if ctx.lead:
            paragraphs.insert(0, " ".join(ctx.lead))
        return self._render("answer", paragraphs=paragraphs)


class VLLMGenerator:
    """Phrases answers with a self-hosted LLM; the engine verifies every draft before use."""

    name = "vllm"
    routes: frozenset[str] = frozenset({"term", "comparison", "numeric"})

    def __init__(self, client: ChatClient, prompts_dir: Path, *, max_tokens: int = 350) -> None:
        self.client = client
        self.prompts_dir = prompts_dir
        self.max_tokens = max_tokens
        self.instructions = instruction_shingles(prompts_dir)
        self.lexicon = Lexicon.build()  # finds the headline sentence of a tool result

    @property
    def available(self) -> bool:
        return self.client.available

    def healthy(self) -> bool:
        return self.client.available and self.client.health()

    def condense(self, message: ParsedMessage, history: list[Turn]) -> str | None:
        return assist.condense(self.client, self.prompts_dir, message, history)

    def fill_arguments(
        self, tool: FunctionTool, message: ParsedMessage, history: list[Turn]
    ) -> JsonObject:
        return assist.fill_arguments(self.client, self.prompts_dir, tool, message, history)

    def messages(self, ctx: AnswerContext) -> list[ChatMessage]:
        """The stable system prompt first (prefix-cached), the retrieved context last: the same
        evidence the embedded composer uses — the entries, the sentences picked as answering,
        the plan's lead (the catalogue's figures, a diagnosis) and the calculators' results."""
        system = render(self.prompts_dir, "system.j2")
        results = ctx.outcome.results if ctx.outcome else []
        headlines = [headline_sentence(r.model_dump(), self.lexicon) for r in results]
        user = render(
            self.prompts_dir,
            "answer.j2",
            history=list(ctx.history)[-4:],
            tool_results=list(zip(results, headlines, strict=True)),
            entries=ctx.entries,
            picked=ctx.picked,
            lead=ctx.lead,
            question=ctx.question,
            route=ctx.route,
        )
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def generate(self, ctx: AnswerContext, *, timeout_s: float | None = None) -> str:
        """Stream from vLLM but return the whole draft: the engine verifies it before a single
        word reaches the user. timeout_s (default llm_timeout_s) bounds the whole draft."""
        return "".join(self.stream(ctx, timeout_s=timeout_s)).strip()

    def stream(self, ctx: AnswerContext, *, timeout_s: float | None = None) -> Iterator[str]:
        """Text deltas of one draft; LLMTimeoutError once timeout_s has passed in total."""
        yield from self.client.stream(
            self.messages(ctx), max_tokens=self.max_tokens, timeout_s=timeout_s
        )


def instruction_shingles(prompts_dir: Path) -> set[tuple[str, ...]]:
    """Word 4-grams of the prompts' fixed wording (Jinja tags removed): a draft containing one
    is echoing its instructions, which must never reach a customer."""
    found: set[tuple[str, ...]] = set()
    for name in ("system.j2", "answer.j2", "tool_result.j2", "condense.j2", "tool_call.j2"):
        path = prompts_dir / name
        if path.exists():
            source = re.sub(r"{[{%#].*?[}%#]}", " | ", path.read_text("utf-8"), flags=re.S)
            for part in source.split("|"):
                found |= shingles(part)
    return found


def renumber(text: str, count: int) -> tuple[str, list[int]]:
    """Renumber markers by first use: returns new text and the used entry indexes (0-based).

    Markers outside 1..count are left as they are, so the grounding check catches them.
    """
    order: list[int] = []

    def sub(m: re.Match[str]) -> str:
        n = int(m.group(1))
        if not 1 <= n <= count:
            return m.group(0)
        if n - 1 not in order:
            order.append(n - 1)
        return f"[{order.index(n - 1) + 1}]"

    return MARKER.sub(sub, text), order
