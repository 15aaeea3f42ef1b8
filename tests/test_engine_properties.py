"""Property: any text up to the message limit gets an Answer from the whole engine — never an
exception. Runs on the fast fixtures (the real engine over the hash embedder); the slow variant
repeats it on the real model."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.conversation.validation import clean_text
from assistant.errors import InputError
from assistant.pipeline import Pipeline
from assistant.schema import Answer, Turn

LIMIT = 2000  # Settings.max_message_chars

# Pieces of the questions people write, so that examples reach the calculators and the date,
# duration and number readers, not only the term search.
WORDS = (
    "сколько памяти нужно стоит влезет поместится хватит на в с по до за контекст батч слоёв "
    "KV-голов размерность головы пользователей карт карты GPU H100 H200 L40S RTX 4090 A6000 "
    "A100 Llama 3 70B 8B 405B Qwen 2.5 FP8 BF16 FP4 $ в час в месяц ГБ неделю дней лет года "
    "2024 году июня января понедельника пятницы полгода сутки двух одной -13B 1e400 NaN inf "
    "а что такое NVLink? клиент: оператор: Иван Петров, 10:31 \n 0 . , — ( ) % k"
).split(" ")
TOKENS = st.one_of(
    st.sampled_from(WORDS),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.text(max_size=12),
)
MESSAGES = st.one_of(
    st.lists(TOKENS, max_size=40).map(" ".join),
    st.text(max_size=LIMIT),
    st.text(alphabet="0123456789", min_size=300, max_size=LIMIT),
)


def answered(pipeline: Pipeline, text: str, history: list[Turn]) -> Answer | None:
    """The answer, or None for the validator's rejection of a blank message (control and
    bidi characters are dropped first: a lone ESC is blank; its one Russian reply, shown by
    every channel); any other exception fails the property."""
    try:
        return pipeline.answer(text[:LIMIT], history)
    except InputError as e:
        assert not clean_text(text[:LIMIT]).strip() and e.code == "empty_message", e
        return None


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=MESSAGES, follow_up=MESSAGES)
def test_any_text_gets_an_answer(fast_pipeline: Pipeline, text: str, follow_up: str) -> None:
    first = answered(fast_pipeline, text, [])
    history = list(fast_pipeline.turns_for(text, first)) if first is not None else []
    second = answered(fast_pipeline, follow_up, history)  # and as a follow-up to it
    for a in (first, second):
        if a is not None:
            assert isinstance(a, Answer) and a.answer.strip()
            json.dumps(a.model_dump(), allow_nan=False)  # no Infinity / NaN in the JSON


@pytest.mark.slow
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=MESSAGES)
def test_any_text_gets_an_answer_real_model(pipeline: Pipeline, text: str) -> None:
    a = answered(pipeline, text, [])
    assert a is None or a.answer.strip()
