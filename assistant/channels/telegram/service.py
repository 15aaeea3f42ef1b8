"""Telegram chat → engine + persistence: per-chat conversation memory, run off the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from assistant.schema import Answer, Turn

if TYPE_CHECKING:
    from assistant.storage import Repository

CHANNEL = "telegram"


class AnswerEngine(Protocol):
    """What the bot needs from `assistant.pipeline.Pipeline`."""

    def answer(self, message: str, history: Sequence[Turn] = ()) -> Answer: ...

    def turns_for(self, message: str, answer: Answer) -> tuple[Turn, Turn]: ...


@dataclass(frozen=True)
class Reply:
    """An answer and the id of its stored message (the key for 👍/👎 feedback)."""

    answer: Answer
    message_id: str


class ChatService:
    """Asks the engine with the chat's history and stores both turns; one question per chat at a
    time, so a follow-up always sees the previous answer."""

    def __init__(
        self, engine: AnswerEngine, repository: Repository, *, history_limit: int = 10
    ) -> None:
        self.engine = engine
        self.repository = repository
        self.history_limit = history_limit
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, chat_id: int) -> asyncio.Lock:
        return self._locks.setdefault(chat_id, asyncio.Lock())

    async def ask(self, chat_id: int, text: str) -> Reply:
        """Answer `text` in the chat's conversation; the question is stored before generating."""
        async with self._lock(chat_id):
            return await asyncio.to_thread(self._ask, chat_id, text)

    def _ask(self, chat_id: int, text: str) -> Reply:
        repo = self.repository
        conversation = repo.get_or_create_conversation(CHANNEL, str(chat_id))
        history = repo.history(conversation, limit=self.history_limit)
        question_id = repo.add_user_message(conversation, text)
        answer = self.engine.answer(text, history)
        _, assistant_turn = self.engine.turns_for(text, answer)
        message_id = repo.add_answer(conversation, question_id, answer, assistant_turn)
        return Reply(answer, message_id)

    async def reset(self, chat_id: int) -> None:
        """Start a new conversation for the chat (the old one stays stored)."""
        async with self._lock(chat_id):
            await asyncio.to_thread(self.repository.reset_conversation, CHANNEL, str(chat_id))

    async def feedback(self, message_id: str, score: int) -> None:
        """Record 👍 (+1) or 👎 (-1) for a stored answer; UnknownMessageError if there is none."""
        await asyncio.to_thread(self.repository.add_feedback, message_id, score)
