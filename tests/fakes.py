"""In-process stand-ins for the two expensive seams, implementing the same protocols honestly.

    HashEmbedder()          embedding.model.Embedder: words and lemmas hashed into a fixed-size,
                            L2-normalised vector — deterministic, no model, microseconds per text.
                            Real FAISS and BM25 indexes are built over it (search/indexing.py).
    ScriptedLLM(drafts=…)   answer.generation.LLMGenerator: returns the drafts, condensations and
                            tool arguments a test scripts, in order; a scripted exception is
                            raised where the real client would raise it. Records what it was asked.

Neither knows anything about the questions a test asks: what they return is what the test wrote.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from assistant.answer.generation import AnswerContext, instruction_shingles
from assistant.errors import LLMUnavailableError
from assistant.llm.wire import FunctionTool, JsonObject
from assistant.schema import Turn
from assistant.settings import ROOT
from assistant.text.tokens import lemmas, words
from assistant.understanding.reader import ParsedMessage

T = TypeVar("T")


class HashEmbedder:
    """Feature hashing of a text's words and lemmas: texts sharing words have close vectors."""

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.model_id = f"hash-embedder:{dim}"

    def _vector(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        for feature in (*words(text), *(f"lemma:{x}" for x in lemmas(text))):
            digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
            bucket = int.from_bytes(digest[:4], "little") % self.dim
            v[bucket] += 1.0 if digest[4] & 1 else -1.0
        norm = float(np.linalg.norm(v))
        return v / norm if norm else v

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return np.vstack([self._vector(t) for t in texts]).astype(np.float32)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed_queries(texts)


@dataclass
class ScriptedLLM:
    """An LLMGenerator whose answers are written by the test.

    `drafts`, `condensed` and `arguments` are consumed in order; an exhausted script is a
    test bug and fails loudly. `down()` makes it unavailable, as an open circuit breaker does.
    """

    drafts: list[str | Exception] = field(default_factory=list)
    condensed: list[str | Exception | None] = field(default_factory=list)
    arguments: list[JsonObject | Exception] = field(default_factory=list)
    name: str = "vllm"
    routes: frozenset[str] = frozenset({"term", "comparison", "numeric"})
    instructions: set[tuple[str, ...]] = field(
        default_factory=lambda: instruction_shingles(ROOT / "prompts")
    )
    asked: list[AnswerContext] = field(default_factory=list)
    timeouts: list[float | None] = field(default_factory=list)  # what was left of the deadline
    condense_asked: list[str] = field(default_factory=list)
    tools_offered: list[str] = field(default_factory=list)
    _available: bool = True

    @property
    def available(self) -> bool:
        return self._available

    def down(self) -> ScriptedLLM:
        self._available = False
        return self

    def healthy(self) -> bool:
        return self._available

    def generate(self, ctx: AnswerContext, *, timeout_s: float | None = None) -> str:
        self.asked.append(ctx)
        self.timeouts.append(timeout_s)
        return _next(self.drafts, "draft")

    def condense(self, message: ParsedMessage, history: list[Turn]) -> str | None:
        self.condense_asked.append(message.text)
        return _next(self.condensed, "condensation")

    def fill_arguments(
        self, tool: FunctionTool, message: ParsedMessage, history: list[Turn]
    ) -> JsonObject:
        self.tools_offered.append(tool["function"]["name"])
        return _next(self.arguments, "tool call")


def _next(script: list[T | Exception], what: str) -> T:
    if not script:
        raise AssertionError(f"ScriptedLLM: no scripted {what} left")
    item = script.pop(0)
    if isinstance(item, Exception):
        raise item
    return item


def unavailable(message: str = "LLM timed out") -> LLMUnavailableError:
    """What the real client raises when the server is unreachable or too slow."""
    return LLMUnavailableError(message)
