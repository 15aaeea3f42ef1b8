"""Intent words, the card-choice question and price words (assistant/understanding/intent.py)."""

from __future__ import annotations

import pytest

from assistant.text.numbers import normalise
from assistant.understanding import intent
from tests.helpers import read


def intents(text: str) -> set[str]:
    return intent.intents(normalise(text))


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("а на 50 юзеров?", "training"),  # «юзеров» holds «зеро», not ZeRO
        ("на 10 процентов больше", "cost"),  # «процент» holds «цен»
        ("переобучение модели", "training"),
    ],
)
def test_intent_words_start_a_word(text: str, absent: str) -> None:
    assert absent not in intents(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ZeRO-3 на 8 картах", "training"),
        ("дообучение 7B", "training"),
        ("сколько стоит H100", "cost"),
        ("сколько памяти нужно", "vram"),
    ],
)
def test_intent_words_still_found(text: str, expected: str) -> None:
    assert expected in intents(text)


@pytest.mark.parametrize(
    "text",
    [
        "ок а на чем это крутить?",
        "на чём её запускать",
        "а на чем такое гонять",
        "на чем задеплоить",
    ],
)
def test_on_what_to_run_it_asks_which_card(text: str) -> None:
    assert "fit" in intents(text)


@pytest.mark.parametrize(
    "text",
    [
        "сколько надо видях?",
        "скок карточек нужно",
        "какое железо нужно?",
        "на каком железе",
        "а что по железу?",
        "а под это какой сервер нужен?",
        "which gpu should i use?",
    ],
)
def test_cards_in_slang_ask_a_fit(text: str) -> None:
    assert "fit" in intents(text)


def test_on_what_without_a_run_verb_is_no_card_choice() -> None:
    assert "fit" not in intents("на чем основан расчет")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("сколько выйдет 4 карты L40S на месяц?", True),
        ("скока выйдет за неделю", True),
        ("сколько памяти нужно 70B", False),
    ],
)
def test_how_much_will_it_come_to_asks_a_price(text: str, expected: bool) -> None:
    assert intent.price_words(normalise(text)) is expected


def test_a_server_is_no_card_choice_without_asking_which() -> None:
    assert "fit" not in intents("а какой сервер у вас с nvlink?")


@pytest.mark.parametrize(
    "text",
    [
        "что по картам, есть в наличии?",
        "which gpu has the most memory?",
        "неделю не могу запустить",
    ],
)
def test_no_card_choice_in_other_questions(text: str) -> None:
    assert not intent.chooses_card(normalise(text))


def test_the_number_of_cards_asked() -> None:
    assert read("сколько h100 нужно под llama 3.1 405b в bf16?").quantities.count_asked
    assert read("DeepSeek V3 в fp8 — сколько H200 понадобится?").quantities.count_asked
    assert not read("поместится ли Llama 3 70B на H100?").quantities.count_asked


def test_a_models_bare_cache_is_its_kv_cache_not_a_cards_l2() -> None:
    assert intent.kv_asked("сколько займёт кэш на 32k контекста")
    assert not intent.kv_asked("какой кэш l2 у h100")


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("сколько слоёв и kv-голов у gemma 2 27b?", True),
        ("какая у модели архитектура внимания, head_dim?", True),
        # the shape given, to compute with: nothing asked of it
        ("kv-кэш: 80 слоёв, 8 kv-голов, размерность головы 128, контекст 8192", False),
        ("28 layers, 4 kv heads, head_dim 128, ctx 128k — сколько кэш?", False),
    ],
)
def test_a_models_shape_is_asked_only_when_no_figure_is_given(text: str, asked: bool) -> None:
    assert intent.architecture(normalise(text).lower()) is asked


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("mistral large 2 в bf16 — сколько гигов займут одни веса?", True),
        ("скок врам надо qwen 72b в fp8? пока только веса интересуют", True),
        ("сколько весят веса llama 70b", True),
        ("сколько памяти нужно llama 70b в bf16", False),
        ("сколько займёт kv-кэш и веса у qwen 32b", False),  # the cache is asked too
    ],
)
def test_the_weights_alone_asked(text: str, asked: bool) -> None:
    from assistant.understanding.intent import weights_asked

    assert weights_asked(text) is asked
