"""The official `openai` SDK against the service under uvicorn: models, completions (sync, async,
streamed), real token counts in `usage`, and errors in OpenAI's shape (fast engine, SQLite)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest
from tokenizers import Tokenizer

from assistant.api.usage import tokenizer_file
from assistant.errors import LLMUnavailableError
from assistant.settings import Settings
from tests.api.engines import Failing
from tests.api.live import app_settings, live_server, make_app

MODEL = "glossary-assistant"
QUESTION = "что такое NVLink?"
BROKEN = "сломай ответ"


@pytest.fixture(scope="module")
def base(
    fast_pipeline: Any, settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    db = tmp_path_factory.mktemp("openai-sdk") / "db.sqlite3"
    engine = Failing(fast_pipeline, BROKEN, LLMUnavailableError("down"))
    app = make_app(engine, app_settings(settings, db, rate_limit_per_minute=0))
    with live_server(app) as url:
        yield url + "/v1"


@pytest.fixture
def client(base: str) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(base_url=base, api_key="unused", max_retries=0, timeout=30) as c:
        yield c


@pytest.fixture(scope="module")
def count(settings: Settings) -> Any:
    """Token counts the way api/usage.py says it counts them, from the tokenizer file itself."""
    tokenizer = Tokenizer.from_file(str(tokenizer_file(settings)))
    return lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)


def test_models_list_and_retrieve(client: openai.OpenAI) -> None:
    listed = client.models.list()
    assert [m.id for m in listed.data] == [MODEL]
    assert listed.data[0].object == "model" and listed.data[0].owned_by
    assert client.models.retrieve(MODEL).id == MODEL
    with pytest.raises(openai.NotFoundError) as info:
        client.models.retrieve("gpt-4o")
    assert info.value.code == "model_not_found" and info.value.type == "invalid_request_error"
    assert "glossary-assistant" in info.value.message


def test_completion_has_citations_and_real_usage(client: openai.OpenAI, count: Any) -> None:
    messages: list[Any] = [
        {"role": "system", "content": "Отвечай кратко."},
        {"role": "user", "content": QUESTION},
    ]
    done = client.chat.completions.create(model=MODEL, messages=messages, temperature=0.2)
    text = done.choices[0].message.content or ""
    assert "NVLink" in text and done.choices[0].finish_reason == "stop"
    assert done.usage is not None
    assert done.usage.prompt_tokens == count("Отвечай кратко.") + count(QUESTION)
    assert done.usage.completion_tokens == count(text) > 10
    assert done.usage.total_tokens == done.usage.prompt_tokens + done.usage.completion_tokens
    extra = done.model_extra or {}
    assert extra["citations"][0]["slug"] == "nvlink"


def test_streaming_deltas_add_up_and_usage_comes_last_when_asked(
    client: openai.OpenAI, count: Any
) -> None:
    stream = client.chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": QUESTION}],
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert "NVLink" in text
    last = chunks[-1]
    assert last.choices == [] and last.usage is not None
    assert last.usage.prompt_tokens == count(QUESTION)
    assert last.usage.completion_tokens == count(text)
    plain = client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": QUESTION}], stream=True
    )
    assert all(c.usage is None for c in plain)  # not asked: no usage chunk


async def test_async_client_completes_and_streams(base: str) -> None:
    async with openai.AsyncOpenAI(base_url=base, api_key="x", max_retries=0) as client:
        assert [m.id async for m in client.models.list()] == [MODEL]
        done = await client.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "сколько памяти нужно 70B в FP8?"}]
        )
        assert "ГБ" in (done.choices[0].message.content or "")
        stream = await client.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": QUESTION}], stream=True
        )
        pieces = [c.choices[0].delta.content or "" async for c in stream if c.choices]
        assert "NVLink" in "".join(pieces) and len(pieces) > 2


def test_errors_come_in_openai_shape(client: openai.OpenAI) -> None:
    with pytest.raises(openai.UnprocessableEntityError) as info:
        client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": " "}])
    error = info.value
    assert error.code == "empty_message" and error.type == "invalid_request_error"
    assert error.body == {
        "message": "Пустое сообщение: напишите вопрос о GPU или инфраструктуре для ИИ.",
        "type": "invalid_request_error",
        "param": None,
        "code": "empty_message",
    }
    with pytest.raises(openai.UnprocessableEntityError) as info:
        client.chat.completions.create(model=MODEL, messages=[{"role": "system", "content": "x"}])
    assert info.value.code == "invalid_request"
    with pytest.raises(openai.InternalServerError) as unavailable:
        client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": BROKEN}])
    assert unavailable.value.status_code == 503 and unavailable.value.type == "server_error"


def test_a_failure_mid_stream_is_an_openai_error(client: openai.OpenAI) -> None:
    stream = client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": BROKEN}], stream=True
    )
    with pytest.raises(openai.APIError) as info:
        list(stream)
    assert info.value.body is not None and info.value.type == "server_error"
    assert info.value.code == "unavailable"
    assert info.value.message == LLMUnavailableError.user_message  # the Russian text


def test_rate_limits_and_oversized_bodies_too(
    fast_pipeline: Any, settings: Settings, tmp_path: Path
) -> None:
    s = app_settings(settings, tmp_path / "db.sqlite3", rate_limit_per_minute=1, max_body_bytes=800)
    with live_server(make_app(fast_pipeline, s)) as url:
        client = openai.OpenAI(base_url=url + "/v1", api_key="x", max_retries=0)
        with pytest.raises(openai.APIStatusError) as big:
            client.chat.completions.create(
                model=MODEL, messages=[{"role": "user", "content": "я" * 900}]
            )
        assert big.value.status_code == 413 and big.value.code == "payload_too_large"
        assert big.value.type == "invalid_request_error"
        client.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": QUESTION}]
        )
        with pytest.raises(openai.RateLimitError) as limited:
            client.chat.completions.create(
                model=MODEL, messages=[{"role": "user", "content": QUESTION}]
            )
        assert limited.value.type == "rate_limit_error" and limited.value.code == "rate_limited"
        assert limited.value.response.headers["retry-after"].isdigit()
        client.close()
