"""Conversation → LLM help where rules fall short: JSON condensation, tool-argument filling.

Both are optional: every answer from here is checked, and on any doubt the deterministic
result stands (a base model or a broken server can never make an answer worse).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path

from pydantic import JsonValue

from assistant.errors import AssistantError
from assistant.llm.client import ChatClient
from assistant.llm.wire import FunctionTool, JsonObject, ResponseFormat
from assistant.schema import Turn
from assistant.text.templates import render
from assistant.text.tokens import lemmas, words
from assistant.understanding.reader import ParsedMessage, numbers

log = logging.getLogger(__name__)
CONDENSE_SCHEMA: ResponseFormat = {
    "type": "json_schema",
    "json_schema": {
        "name": "condensed_question",
        "strict": True,
        "schema": {
            "type": "object",
            "properties": {"question": {"type": "string", "maxLength": 300}},
            "required": ["question"],
            "additionalProperties": False,
        },
    },
}


def condense(
    client: ChatClient, prompts_dir: Path, message: ParsedMessage, history: list[Turn]
) -> str | None:
    """A self-contained question from the LLM (structured output), or None if it is not sane."""
    prompt = render(prompts_dir, "condense.j2", history=history[-4:], question=message.text)
    try:
        reply = client.complete(
            [{"role": "user", "content": prompt}], response_format=CONDENSE_SCHEMA, max_tokens=80
        )
        question = str(json.loads(reply.text)["question"]).strip()
    except (AssistantError, ValueError, KeyError, TypeError) as e:
        log.info("LLM condensation unusable: %s", e)
        return None
    return question if _sane(question, message, history) else None


def _sane(question: str, message: ParsedMessage, history: list[Turn]) -> bool:
    """Keep the rewrite only if it stays on the conversation's own words."""
    if not 3 <= len(question) <= 300:
        return False
    mine = set(message.lemmas)
    seen = mine | set(lemmas(" ".join(t.content for t in history[-4:])))
    rewritten = lemmas(question)
    new = [w for w in rewritten if len(w) >= 4 and w not in seen]
    return bool(mine & set(rewritten)) and len(new) <= 2


def fill_arguments(
    client: ChatClient,
    prompts_dir: Path,
    tool: FunctionTool,
    message: ParsedMessage,
    history: list[Turn],
) -> JsonObject:
    """Arguments the LLM read from the conversation, kept only if the user actually said them."""
    name = tool["function"]["name"]
    strict_tool: FunctionTool = {**tool, "function": {**tool["function"], "strict": True}}
    prompt = render(
        prompts_dir, "tool_call.j2", tool=name, history=history[-4:], question=message.text
    )
    try:
        reply = client.complete(
            [{"role": "user", "content": prompt}],
            tools=[strict_tool],
            tool_choice={"type": "function", "function": {"name": name}},
            max_tokens=120,
        )
    except AssistantError as e:
        log.info("LLM tool call failed: %s", e)
        return {}
    calls = [c for c in reply.tool_calls if c.name == name]
    if not calls:
        return {}
    earlier = " ".join(t.content for t in history if t.role == "user")
    said = Said(
        numbers={*message.numbers, *numbers(earlier)},
        words={w.lower() for w in (*message.words, *words(earlier))},
    )
    return {k: v for k, v in calls[0].arguments.items() if _grounded_value(v, said)}


@dataclass(frozen=True)
class Said:
    """The numbers and words the user wrote in this conversation."""

    numbers: set[float]
    words: set[str]


def _grounded_value(value: JsonValue, said: Said) -> bool:
    """A number must appear in the user's words; a name (bf16, h100) must be one of them."""
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, int | float):
        return float(value) in said.numbers
    if isinstance(value, str):
        return value.lower() in said.words
    return False
