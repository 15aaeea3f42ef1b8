"""A calculator as an OpenAI function tool: its name, description and JSON Schema → FunctionTool.

    FunctionTool(type="function", function=FunctionSpec(name=…, description=…, parameters=…))

The calculators describe themselves in this shape (base.py `Tool.openai()`); the LLM client
(llm/wire.py) sends it as is. Defined here so that the calculators import nothing of llm/.
"""

from __future__ import annotations

from typing import Literal, NotRequired

from pydantic import JsonValue
from typing_extensions import TypedDict

JsonObject = dict[str, JsonValue]


class FunctionSpec(TypedDict):
    name: str
    description: str
    parameters: JsonObject  # the input model's JSON Schema
    strict: NotRequired[bool]  # structured outputs: arguments must match the schema


class FunctionTool(TypedDict):
    type: Literal["function"]
    function: FunctionSpec
