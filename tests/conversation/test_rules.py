"""The conversation layer's rules without a model: one validator, FIFO admission, per-conversation
turns that are forgotten once nobody waits."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from assistant.conversation.admission import Admission, ConversationLocks
from assistant.conversation.service import ChatService, Where
from assistant.conversation.validation import ValidMessage, validate_message
from assistant.errors import InputError
from assistant.schema import Answer, StreamEvent, Turn
from assistant.settings import Settings
from assistant.storage import open_repository

TOO_LONG = (
    "Сообщение слишком длинное ({n} символов, максимум {limit}). Сократите вопрос, пожалуйста."
)
EMPTY = "Пустое сообщение: напишите вопрос о GPU или инфраструктуре для ИИ."


def test_validator_strips_and_rejects_with_one_russian_text_and_a_code() -> None:
    assert validate_message("  что такое HBM?\n", 20) == "что такое HBM?"
    assert validate_message("я" * 20, 20) == "я" * 20
    for empty in ("", "   \n\t", None):
        with pytest.raises(InputError) as info:
            validate_message(empty, 20)
        assert info.value.user_message == EMPTY and info.value.code == "empty_message"
    with pytest.raises(InputError) as info:
        validate_message("  " + "я" * 21 + "  ", 20)
    assert info.value.user_message == TOO_LONG.format(n=21, limit=20)
    assert info.value.code == "message_too_long"


def test_lock_keys_separate_channels_and_skip_new_conversations() -> None:
    assert Where("telegram", external_id="5").lock_key == "telegram/5"
    assert Where("web", session_id="abc").lock_key == "abc"
    assert Where("web").lock_key is None  # a new conversation: nobody to wait for
    assert Where("openai", history=[]).lock_key is None  # client-held history: always new


async def test_same_conversation_waits_in_arrival_order_others_do_not() -> None:
    locks = ConversationLocks()
    order: list[str] = []
    release = asyncio.Event()

    async def turn(key: str, name: str, hold: bool = False) -> None:
        async with locks.hold(key):
            order.append(f"{name} start")
            if hold:
                await release.wait()
            order.append(f"{name} end")

    first = asyncio.create_task(turn("a", "a1", hold=True))
    await asyncio.sleep(0)
    waiting = [asyncio.create_task(turn("a", f"a{i}")) for i in (2, 3)]
    await turn("b", "b1")  # another conversation goes straight through
    assert order == ["a1 start", "b1 start", "b1 end"]
    release.set()
    await asyncio.gather(first, *waiting)
    assert order[3:] == ["a1 end", "a2 start", "a2 end", "a3 start", "a3 end"]
    assert len(locks) == 0  # forgotten once nobody holds or waits


async def test_a_cancelled_waiter_leaves_no_lock_behind() -> None:
    locks = ConversationLocks()
    release = asyncio.Event()

    async def hold() -> None:
        async with locks.hold("a"):
            await release.wait()

    holder = asyncio.create_task(hold())
    await asyncio.sleep(0)
    waiter = asyncio.create_task(hold())
    await asyncio.sleep(0)
    waiter.cancel()
    release.set()
    await holder
    with pytest.raises(asyncio.CancelledError):
        await waiter
    assert len(locks) == 0


@pytest.mark.parametrize("slots", [1, 2])
async def test_admission_caps_and_admits_in_arrival_order(slots: int) -> None:
    admission = Admission(slots)
    now = peak = 0
    admitted: list[int] = []

    async def work(i: int) -> None:
        nonlocal now, peak
        async with admission.slot():
            admitted.append(i)
            now += 1
            peak = max(peak, now)
            await asyncio.sleep(0.01)
            now -= 1

    await asyncio.gather(*(work(i) for i in range(6)))
    assert peak == slots and admitted == list(range(6))


def test_validator_turns_unpaired_surrogates_into_replacement_characters() -> None:
    """Undecodable bytes in a command-line argument arrive as lone surrogates (Python's
    surrogateescape); the validator makes them storable text for every channel."""
    argv = b"\xff what is nvlink".decode("utf-8", "surrogateescape")
    assert validate_message(argv, 50) == "\ufffd what is nvlink"
    assert validate_message("\ud83d что такое HBM", 50) == "\ufffd что такое HBM"
    assert validate_message("что такое HBM 😀", 50) == "что такое HBM 😀"
    validate_message("\udc00\ud800 x", 50).encode("utf-8")  # never raises


def test_a_message_is_validated_once_where_it_arrives() -> None:
    """The channel's validation result is a ValidMessage; the pipeline takes it as it is."""
    checked = validate_message("  что такое HBM?\u202e ", 100)
    assert isinstance(checked, ValidMessage) and checked == "что такое HBM?"
    assert validate_message(checked, 100) is checked  # not cleaned or measured again


async def test_the_service_hands_the_engine_the_validated_message(tmp_path: Path) -> None:
    seen: list[object] = []

    class Recording:
        def answer(self, message: str, history: Sequence[Turn] = ()) -> Answer:
            seen.append(message)
            return Answer(answer="ok", route="term", generator="embedded")

        def stream(self, message: str, history: Sequence[Turn] = ()) -> Iterator[StreamEvent]:
            yield StreamEvent(kind="done", answer=self.answer(message, history))

        def turns_for(self, message: str, answer: Answer) -> tuple[Turn, Turn]:
            return Turn(role="user", content=message), Turn(role="assistant", content="ok")

        def ready(self) -> dict[str, Any]:
            return {"index": True}

    settings = Settings(db_path=tmp_path / "a.sqlite3", index_dir=tmp_path / "index")
    service = ChatService(Recording(), settings, open_repository(settings))
    await service.ask("  что такое HBM? ", Where("web"))
    assert seen == ["что такое HBM?"] and isinstance(seen[0], ValidMessage)
