"""Pasted support threads → customer/agent turns, or a Russian warning when unreadable."""

from __future__ import annotations

import pytest

from assistant.understanding.thread import NO_CUSTOMER, WARNING, parse_thread


def roles(text: str) -> list[tuple[str, str]]:
    parsed = parse_thread(text)
    assert parsed.warning == ""
    return [(t.role, t.content) for t in parsed.turns]


def test_role_prefixed_lines() -> None:
    text = (
        "клиент: сколько памяти нужно 70B в BF16?\n"
        "Оператор: Около 140 ГБ под веса.\n"
        "  это без KV-кэша\n"  # a continuation line
        "Клиент - а в FP8?"
    )
    assert roles(text) == [
        ("customer", "сколько памяти нужно 70B в BF16?"),
        ("agent", "Около 140 ГБ под веса.\nэто без KV-кэша"),
        ("customer", "а в FP8?"),
    ]


def test_helpdesk_export_with_names_and_times() -> None:
    text = (
        "Иван Петров, 10:31\n"
        "Добрый день! Сколько видеопамяти нужно для Llama 3 70B?\n"
        "Оператор Мария, 10:32\n"
        "Здравствуйте, Иван! Около 140 ГБ в BF16.\n"
        "Иван Петров, 10:35 А если в FP8?\n"
    )
    assert roles(text) == [
        ("customer", "Добрый день! Сколько видеопамяти нужно для Llama 3 70B?"),
        ("agent", "Здравствуйте, Иван! Около 140 ГБ в BF16."),
        ("customer", "А если в FP8?"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "[10:31] Иван Петров: сервер не отвечает\n[10:32] Мария (поддержка): Проверяем",
        "12.03.2025 10:31 Иван Петров: сервер не отвечает\n"
        "12.03.2025 10:32 Оператор Анна: Проверяем",
    ],
)
def test_time_first_exports(text: str) -> None:
    assert roles(text) == [("customer", "сервер не отвечает"), ("agent", "Проверяем")]


def test_without_role_words_the_first_speaker_is_the_customer() -> None:
    text = "Анна, 09:00 привет, нужен H100\nПётр, 09:01 здравствуйте\nАнна, 09:02 на неделю"
    assert [r for r, _ in roles(text)] == ["customer", "agent", "customer"]


def test_consecutive_messages_of_one_side_merge() -> None:
    text = "клиент: привет\nклиент: нужен сервер\nоператор: какой?"
    assert roles(text) == [("customer", "привет\nнужен сервер"), ("agent", "какой?")]


@pytest.mark.parametrize(
    "garbage",
    ["просто текст без формата\nещё строка", "<<<>>> 12 34", "клиент\nоператор", ":::"],
)
def test_garbage_gives_a_warning_and_no_turns(garbage: str) -> None:
    parsed = parse_thread(garbage)
    assert parsed.turns == [] and parsed.warning == WARNING


def test_only_agent_lines_are_flagged() -> None:
    parsed = parse_thread("оператор: здравствуйте\nоператор: вы тут?")
    assert parsed.warning == NO_CUSTOMER and parsed.turns


def test_empty_text_is_no_thread_and_no_warning() -> None:
    assert parse_thread("  \n ") == parse_thread("")
    assert parse_thread("").warning == "" and parse_thread("").turns == []
