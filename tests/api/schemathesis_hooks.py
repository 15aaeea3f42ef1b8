"""Checks the schemathesis gate adds to `--checks all` (loaded by tests/api/schemathesis.toml).

- refused_for_its_meaning: a schema-valid question may be refused for what it says (422
  `answer_failed`, `calculation_failed`: «0 часов» is a fine string and a bad duration), never
  for its form (empty, too long, a wrong type) — except where JSON Schema cannot single out the
  question (the last user message of a list, the last customer line of a thread).
- russian_errors: every error body is `{"error": {"code", "message"}}` with Russian text and no
  internals; on the OpenAI routes OpenAI's shape, which adds `type` and `param`.
"""

from __future__ import annotations

from typing import Any

import schemathesis

BY_MEANING = {"answer_failed", "calculation_failed"}
QUESTION_IN_A_LIST = {"empty_message", "message_too_long", "invalid_request"}
LIST_ROUTES = {"/v1/chat/completions", "/v1/suggest"}
OPENAI_ROUTES = ("/v1/chat/completions", "/v1/models")
INTERNALS = ("Traceback", 'File "', "Error:", "/site-packages/", "/work/")


def _error(response: Any) -> dict[str, Any] | None:
    if not response.headers.get("content-type", [""])[0].startswith("application/json"):
        return None
    try:
        body = response.json()
    except ValueError:
        return None
    return body.get("error") if isinstance(body, dict) else None


@schemathesis.check
def refused_for_its_meaning(ctx: Any, response: Any, case: Any) -> bool | None:
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 422:
        return None
    error = _error(response) or {}
    allowed = BY_MEANING | (QUESTION_IN_A_LIST if case.operation.path in LIST_ROUTES else set())
    if error.get("code") not in allowed:
        raise AssertionError(f"A schema-valid request was refused for its form: {error}")
    return None


@schemathesis.check
def russian_errors(ctx: Any, response: Any, case: Any) -> bool | None:
    if response.status_code < 400 or (response.status_code == 503 and case.path == "/readyz"):
        return None
    error = _error(response)
    keys = {"code", "message"}
    if case.path.startswith(OPENAI_ROUTES):
        keys |= {"type", "param"}
    if error is None or set(error) != keys:
        raise AssertionError(f"Not the error body: {response.text[:200]}")
    message = str(error["message"])
    if not any("а" <= ch <= "я" for ch in message.lower()):
        raise AssertionError(f"The error message is not Russian: {message}")
    if any(word in message for word in INTERNALS):
        raise AssertionError(f"The error message shows internals: {message}")
    return None
