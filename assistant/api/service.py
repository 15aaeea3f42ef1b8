"""Question + session → stored question, engine answer (worker thread), stored answer, metrics."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass

from anyio import to_thread

from assistant.api.errors import ApiError
from assistant.api.metrics import Metrics
from assistant.errors import AssistantError
from assistant.pipeline import Pipeline
from assistant.schema import Answer, StreamEvent, Turn
from assistant.settings import Settings
from assistant.storage import Repository

log = logging.getLogger("assistant.api")
HISTORY_TURNS = 10


@dataclass(frozen=True)
class Prepared:
    """A validated question whose text is already stored."""

    session_id: str
    question_id: str
    message: str
    history: list[Turn]


@dataclass(frozen=True)
class Stored:
    answer: Answer
    session_id: str
    message_id: str


def answer_slots(settings: Settings) -> int:
    """How many answers may be computed at once (see Settings.max_concurrent_answers)."""
    if settings.max_concurrent_answers > 0:
        return settings.max_concurrent_answers
    return 64 if settings.llm_base_url else 2 * (os.cpu_count() or 1)


class ChatService:
    """The glue every HTTP channel shares; blocking work always runs off the event loop."""

    def __init__(
        self, pipeline: Pipeline, settings: Settings, repo: Repository, metrics: Metrics
    ) -> None:
        self.pipeline, self.settings, self.repo, self.metrics = pipeline, settings, repo, metrics
        self._slot_count = answer_slots(settings)
        self._slot_loop: asyncio.AbstractEventLoop | None = None
        self._semaphore = asyncio.Semaphore(self._slot_count)

    def validate(self, message: str) -> str:
        text = message.strip()
        if not text:
            raise ApiError(422, "empty_message", "Пустое сообщение: напишите вопрос.")
        limit = self.settings.max_message_chars
        if len(text) > limit:
            raise ApiError(
                422,
                "message_too_long",
                f"Сообщение слишком длинное ({len(text)} символов, максимум {limit}).",
            )
        return text

    async def prepare(
        self,
        message: str,
        session_id: str | None,
        channel: str = "web",
        history: Sequence[Turn] | None = None,
    ) -> Prepared:
        """Validate, resolve the session (unknown id → a new one), store the question first."""
        text = self.validate(message)
        return await to_thread.run_sync(self._prepare, text, session_id, channel, history)

    def _prepare(
        self, text: str, session_id: str | None, channel: str, history: Sequence[Turn] | None
    ) -> Prepared:
        if not session_id or not self.repo.conversation_exists(session_id):
            session_id = self.repo.get_or_create_conversation(channel, None)
        turns = (
            list(history) if history is not None else self.repo.history(session_id, HISTORY_TURNS)
        )
        question_id = self.repo.add_user_message(session_id, text)
        return Prepared(session_id, question_id, text, turns)

    async def rehydrate(self, history: list[Turn]) -> list[Turn]:
        """Client-supplied history (OpenAI messages, an agent's thread) has text only: re-answer
        the last user turn so the assistant turn after it carries the engine's params/slugs and
        follow-ups such as «а в FP8?» keep the model size. One extra answer, follow-ups only."""
        last = max((i for i, t in enumerate(history) if t.role == "user"), default=-1)
        if last < 0:
            return history
        try:
            earlier = await to_thread.run_sync(
                self.pipeline.answer, history[last].content, history[:last]
            )
        except AssistantError:
            return history
        _, bot = self.pipeline.turns_for(history[last].content, earlier)
        turns = list(history)
        if last + 1 < len(turns) and turns[last + 1].role == "assistant":
            turns[last + 1] = turns[last + 1].model_copy(
                update={"params": bot.params, "slugs": bot.slugs}
            )
        else:
            turns.insert(last + 1, bot)
        return turns

    def _slots(self) -> asyncio.Semaphore:
        """FIFO admission (asyncio's semaphore wakes waiters in order); one per event loop,
        since an asyncio semaphore belongs to the loop it first waited on (tests, portals)."""
        loop = asyncio.get_running_loop()
        if self._slot_loop is not loop:
            self._slot_loop, self._semaphore = loop, asyncio.Semaphore(self._slot_count)
        return self._semaphore

    async def answer(self, prepared: Prepared) -> Stored:
        async with self._slots():
            answer = await to_thread.run_sync(
                self.pipeline.answer, prepared.message, prepared.history
            )
        return await self.store(prepared, answer)

    async def store(self, prepared: Prepared, answer: Answer) -> Stored:
        self.metrics.observe_answer(answer)
        message_id = await to_thread.run_sync(self._store, prepared, answer)
        return Stored(answer, prepared.session_id, message_id)

    def _store(self, prepared: Prepared, answer: Answer) -> str:
        _, assistant_turn = self.pipeline.turns_for(prepared.message, answer)
        return self.repo.add_answer(
            prepared.session_id, prepared.question_id, answer, assistant_turn
        )

    async def events(self, prepared: Prepared) -> AsyncIterator[StreamEvent]:
        """The engine's stream, one event per worker-thread hop; closed if the consumer leaves."""
        iterator: Iterator[StreamEvent] = self.pipeline.stream(prepared.message, prepared.history)
        try:
            async with self._slots():
                while True:
                    event = await to_thread.run_sync(next, iterator, None)
                    if event is None:
                        return
                    yield event
        finally:
            iterator.close()  # type: ignore[attr-defined]

    async def feedback(self, message_id: str, score: int, comment: str) -> None:
        from assistant.storage import UnknownMessageError

        try:
            await to_thread.run_sync(self.repo.add_feedback, message_id, score, comment)
        except UnknownMessageError:
            raise ApiError(404, "unknown_message", "Сообщение не найдено.") from None
        self.metrics.observe_feedback(score)
