"""Echoes are safe: control characters (ESC/BEL sequences), bidirectional overrides (U+202E) and
other invisible formatting a person never meant are cleaned from user text once, at the input
edge, so neither the stored question nor an answer that repeats the user's term carries them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

from assistant.api.deps import context_of
from assistant.schema import Answer, Turn
from tests.api.engines import Wrapped
from tests.api.live import app_settings, make_app
from tests.api.test_conversation import stored_rows

HOSTILE = "что такое \u202eквазитрон\x1b[31m\x07\u2066?"
INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


class Recording(Wrapped):
    """The real engine; remembers the history each answer was given."""

    def __init__(self, pipeline: Any) -> None:
        super().__init__(pipeline)
        self.histories: list[list[Turn]] = []

    def answer(self, message: str, history: Sequence[Turn] = ()) -> Answer:
        self.histories.append(list(history))
        return super().answer(message, history)


def client_for(app: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://test")


@pytest.fixture
def echo_settings(settings: Any, tmp_path: Path) -> Any:
    return app_settings(settings, tmp_path / "echo.sqlite3", rate_limit_per_minute=0)


async def test_the_not_found_echo_and_the_stored_question_are_clean(
    fast_pipeline: Any, echo_settings: Any
) -> None:
    app = make_app(fast_pipeline, echo_settings)
    async with client_for(app) as c:
        plain = await c.post("/v1/chat", json={"message": HOSTILE})
        stream = await c.post("/v1/chat/stream", json={"message": HOSTILE})
    assert plain.status_code == 200 and stream.status_code == 200
    answer = plain.json()["answer"]
    assert "квазитрон" in answer and not INVISIBLE.search(answer), repr(answer)
    assert not INVISIBLE.search(stream.text), repr(stream.text)
    stored = stored_rows(echo_settings, "SELECT content FROM messages WHERE role = 'user'")
    assert stored == [("что такое квазитрон[31m?",)] * 2


async def test_client_history_and_feedback_comments_are_cleaned(
    fast_pipeline: Any, echo_settings: Any
) -> None:
    engine = Recording(fast_pipeline)
    app = make_app(engine, echo_settings)
    messages = [
        {"role": "user", "content": "что такое \u202eNVLink\x1b]0;owned\x07"},
        {"role": "assistant", "content": "NVLink\u2067 — это\r\nшина"},
        {"role": "user", "content": "а чем он лучше PCIe?"},
    ]
    async with client_for(app) as c:
        r = await c.post("/v1/chat/completions", json={"messages": messages})
        mid = r.json()["glossary"]["message_id"]
        fb = await c.post(
            "/v1/feedback", json={"message_id": mid, "score": -1, "comment": "\x1b[2Jплохо\u202e"}
        )
    assert r.status_code == 200 and fb.status_code == 200
    history = engine.histories[-1]
    assert [t.content for t in history] == ["что такое NVLink]0;owned", "NVLink — это\nшина"]
    assert context_of(app).repository.report_items()[0].comment == "[2Jплохо"


def test_clean_text_keeps_letters_emoji_and_line_breaks() -> None:
    from assistant.conversation.validation import clean_text

    assert clean_text("a\r\nb\rc\u2028d") == "a\nb\nc\nd"
    assert (
        clean_text("семья 👨\u200d👩\u200d👧 и флаг 🇷🇺\tтаб")
        == "семья 👨\u200d👩\u200d👧 и флаг 🇷🇺\tтаб"
    )
    assert clean_text("\ufeffH100\u200e \x9b31m \x00x") == "H100 31m x"
    assert clean_text("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c") == ""
