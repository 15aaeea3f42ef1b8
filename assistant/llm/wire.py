"""The OpenAI chat-completions wire: requests this project sends → TypedDicts, the answers it
reads → frozen pydantic models.

    ChatMessage(role="user", content="…")
    FunctionTool(type="function", function=FunctionSpec(name=…, description=…, parameters=…))
    ToolChoice(type="function", function={"name": …})   ResponseFormat(type="json_schema", …)
    Completion.model_validate(body).choices[0].message.content   ModelList: GET /models

Only what the client and the calculators actually put on the wire; JSON Schemas (a tool's
parameters, a structured output) stay JSON objects, which is what they are.
"""

from __future__ import annotations

from typing import Literal, NotRequired

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from assistant.calculators.tool_schema import FunctionSpec, FunctionTool, JsonObject

__all__ = ["FunctionSpec", "FunctionTool", "JsonObject"]  # the tools' own shape, re-exported


class FunctionCall(TypedDict):
    name: str
    arguments: str  # JSON text


class ToolCallItem(TypedDict):
    """A tool call an assistant message made, sent back with the tool's answer."""

    id: str
    type: Literal["function"]
    function: FunctionCall


class ChatMessage(TypedDict):
    role: Literal["system", "user", "assistant", "tool"]
    content: str | None  # None: an assistant message that only calls tools
    tool_calls: NotRequired[list[ToolCallItem]]
    tool_call_id: NotRequired[str]  # role "tool": the call this answers


class FunctionName(TypedDict):
    name: str


class ToolChoice(TypedDict):
    """Force a call of this one function."""

    type: Literal["function"]
    function: FunctionName


class JsonSchemaFormat(TypedDict):
    name: str
    strict: bool
    schema: JsonObject


class ResponseFormat(TypedDict):
    type: Literal["json_schema"]
    json_schema: JsonSchemaFormat


class ChatRequest(TypedDict):
    """The body of POST /chat/completions."""

    model: str
    messages: list[ChatMessage]
    max_tokens: int
    temperature: float
    stream: bool
    tools: NotRequired[list[FunctionTool]]
    tool_choice: NotRequired[str | ToolChoice]
    response_format: NotRequired[ResponseFormat]


# -- what comes back: only the fields the client reads; the rest of a server's answer is ignored


class _Wire(BaseModel):
    # a server that sends an id or a finish reason as a number is still understood
    model_config = ConfigDict(coerce_numbers_to_str=True, frozen=True)


class ModelItem(_Wire):
    id: str


class ModelList(_Wire):
    """GET /models."""

    data: list[ModelItem]


class CalledFunction(_Wire):
    name: str
    arguments: str | JsonObject | None = None  # JSON text, as OpenAI sends it; some send an object


class CalledTool(_Wire):
    id: str | None = None
    function: CalledFunction


class ReplyMessage(_Wire):
    content: str | None = None
    tool_calls: list[CalledTool] | None = None


class Choice(_Wire):
    message: ReplyMessage
    finish_reason: str | None = None


class Usage(_Wire):
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class Completion(_Wire):
    """A non-streamed chat completion."""

    choices: list[Choice] = Field(min_length=1)
    usage: Usage | None = None
