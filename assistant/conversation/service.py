"""(message, where it belongs) → stored question → engine answer (worker thread) → stored answer.

The one conversation service behind HTTP (/v1/chat, SSE, OpenAI, /v1/suggest) and Telegram:

    service = ChatService(pipeline, settings, repository, observer=metrics)
    reply = await service.ask("что такое NVLink", Where(channel="web", session_id=sid))
    async with service.turn(message, Where("telegram", external_id=str(chat_id))) as question:
        async for item in service.stream(question):   # str deltas…, then the stored Reply
            ...
    await service.forget(Where("web", session_id=sid))   # deleted, with its feedback

Every channel gets the same rules: one validator (InputError with one Russian text), the
question stored before answering (a failing engine never loses it), a FIFO cap on answers in
flight (Settings.max_concurrent_answers) and one question at a time per conversation.
Blocking work (engine, database) always runs off the event loop. Every engine call goes through
one safety net: an untyped exception is logged with its traceback and becomes AnswerFailedError
(a Russian message, HTTP 422), so no question a user can type is a server error.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from anyio import to_thread

from assistant.conversation.admission import Admission, ConversationLocks, answer_slots
from assistant.conversation.validation import ValidMessage, clean_text, validate_message
from assistant.errors import AnswerFailedError, AssistantError
from assistant.schema import Answer, StreamEvent, Turn
from assistant.settings import Settings

if TYPE_CHECKING:
    from assistant.storage import Repository

log = logging.getLogger("assistant.conversation")
HISTORY_TURNS = 10
T = TypeVar("T")


class AnswerEngine(Protocol):
    """What the service needs from `assistant.pipeline.Pipeline`."""

    def answer(self, message: str, history: Sequence[Turn] = ()) -> Answer: ...

    def stream(self, message: str, history: Sequence[Turn] = ()) -> Iterator[StreamEvent]: ...

    def turns_for(self, message: str, answer: Answer) -> tuple[Turn, Turn]: ...

    def ready(self) -> dict[str, Any]: ...


class AnswerObserver(Protocol):
    """Told about every stored answer and feedback (the HTTP service's Prometheus metrics)."""

    def observe_answer(self, answer: Answer) -> None: ...

    def observe_feedback(self, score: int) -> None: ...

    def observe_failure(self) -> None: ...


class _Unobserved:
    def observe_answer(self, answer: Answer) -> None:
        pass

    def observe_feedback(self, score: int) -> None:
        pass

    def observe_failure(self) -> None:
        pass


@dataclass(frozen=True)
class Where:
    """Which conversation a question belongs to.

    `session_id`: a stored conversation to continue (unknown or None → a new one);
    `external_id`: the channel's own key (a Telegram chat) → that chat's current conversation;
    `history`: client-supplied turns (OpenAI messages, an agent's thread) → a new conversation
    answered with these turns instead of stored ones.
    """

    channel: str = "web"
    session_id: str | None = None
    external_id: str | None = None
    history: Sequence[Turn] | None = None

    @property
    def lock_key(self) -> str | None:
        """Questions with the same key are answered one after another."""
        if self.external_id is not None:
            return f"{self.channel}/{self.external_id}"
        if self.history is None:
            return self.session_id
        return None


@dataclass(frozen=True)
class Question:
    """A validated question, already stored, with the history it is answered with."""

    session_id: str
    question_id: str
    text: str
    history: list[Turn]


@dataclass(frozen=True)
class Reply:
    """A stored answer: the key for feedback is `message_id`."""

    answer: Answer
    session_id: str
    message_id: str


def clean_history(turns: Sequence[Turn]) -> list[Turn]:
    """Client-held turns cleaned like a message (validation.clean_text): the engine may quote
    them, and an LLM reads them."""
    return [t.model_copy(update={"content": clean_text(t.content)}) for t in turns]


class ChatService:
    """Validate, store, answer under admission, store; one service instance for all channels
    of a process, so the answer cap is shared."""

    def __init__(
        self,
        engine: AnswerEngine,
        settings: Settings,
        repo: Repository,
        *,
        observer: AnswerObserver | None = None,
    ) -> None:
        self.engine, self.settings, self.repo = engine, settings, repo
        self.observer: AnswerObserver = observer or _Unobserved()
        self.admission = Admission(answer_slots(settings))
        self.locks = ConversationLocks()

    def validate(self, message: str | None) -> ValidMessage:
        """The stripped message, or InputError (empty_message / message_too_long)."""
        return validate_message(message, self.settings.max_message_chars)

    @asynccontextmanager
    async def turn(self, message: str | None, where: Where) -> AsyncIterator[Question]:
        """Validate, wait for the conversation's turn, store the question; answer it inside."""
        text = self.validate(message)
        async with self.locks.hold(where.lock_key):
            history = None
            if where.history is not None:
                history = await self.rehydrate(clean_history(where.history))
            yield await to_thread.run_sync(self._store_question, text, where, history)

    async def ask(self, message: str | None, where: Where) -> Reply:
        """One complete exchange: the stored answer to `message`."""
        async with self.turn(message, where) as question:
            return await self.answer(question)

    async def answer(self, question: Question) -> Reply:
        """The engine's answer under an admission slot, then stored (call inside `turn`)."""
        async with self.admission.slot():
            answer = await to_thread.run_sync(
                self._engine, self.engine.answer, question.text, question.history
            )
        return await self._store_answer(question, answer)

    async def stream(self, question: Question) -> AsyncIterator[str | Reply]:
        """Text deltas of an answer that already passed every check, then the stored Reply
        (call inside `turn`); closed, and the slot given back, if the consumer leaves."""
        events = self._engine(self.engine.stream, question.text, question.history)
        answer: Answer | None = None
        try:
            async with self.admission.slot():
                while (
                    event := await to_thread.run_sync(self._engine, next, events, None)
                ) is not None:
                    if event.kind == "delta":
                        yield event.text
                    elif event.answer is not None:
                        answer = event.answer
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()
        if answer is not None:
            yield await self._store_answer(question, answer)

    async def rehydrate(self, history: list[Turn]) -> list[Turn]:
        """Client-supplied history has text only: re-answer the last user turn so the assistant
        turn after it carries the engine's params/slugs and follow-ups such as «а в FP8?» keep
        the model size. One extra answer (under an admission slot), follow-ups only."""
        last = max((i for i, t in enumerate(history) if t.role == "user"), default=-1)
        if last < 0:
            return history
        question = history[last].content
        try:
            async with self.admission.slot():
                earlier = await to_thread.run_sync(
                    self._engine, self.engine.answer, question, history[:last]
                )
            _, bot = self._engine(self.engine.turns_for, question, earlier)
        except AssistantError:
            return history
        turns = list(history)
        if last + 1 < len(turns) and turns[last + 1].role == "assistant":
            turns[last + 1] = turns[last + 1].model_copy(
                update={"params": bot.params, "slugs": bot.slugs}
            )
        else:
            turns.insert(last + 1, bot)
        return turns

    async def reset(self, where: Where) -> None:
        """Start a new conversation for the channel's key (the old one stays stored); waits for
        the question in flight, so its answer still lands in the old conversation."""
        async with self.locks.hold(where.lock_key):
            await to_thread.run_sync(self.repo.reset_conversation, where.channel, where.external_id)

    async def forget(self, where: Where) -> bool:
        """Delete a conversation for good: a widget session (`session_id`), or every
        conversation of a chat (`external_id`, Telegram's /forget). Waits for the question in
        flight, so its answer is not stored after the deletion. False if there was none."""
        async with self.locks.hold(where.lock_key):
            if where.external_id is not None:
                gone = await to_thread.run_sync(
                    self.repo.delete_chat, where.channel, where.external_id
                )
                return gone > 0
            if where.session_id:
                return await to_thread.run_sync(self.repo.delete_conversation, where.session_id)
        return False

    async def feedback(self, message_id: str, score: int, comment: str = "") -> bool:
        """Record 👍 (+1) / 👎 (-1) for a stored answer, the comment cleaned like a message;
        False if there is no such answer."""
        from assistant.storage import UnknownMessageError

        comment = clean_text(comment).strip()
        try:
            await to_thread.run_sync(self.repo.add_feedback, message_id, score, comment)
        except UnknownMessageError:
            return False
        self.observer.observe_feedback(score)
        return True

    async def ready(self) -> dict[str, Any]:
        """The engine's readiness plus whether the database answers."""
        engine: dict[str, Any] = await to_thread.run_sync(self.engine.ready)
        database = await to_thread.run_sync(self.repo.ping)
        return {**engine, "database": database}

    def _engine(self, call: Callable[..., T], *args: Any) -> T:
        """The transport's safety net around every engine call: typed failures pass through;
        anything else is logged once with its traceback and becomes AnswerFailedError."""
        try:
            return call(*args)
        except AssistantError:
            raise
        except Exception as e:
            log.error("the engine raised %s; answered with an error", type(e).__name__, exc_info=e)
            self.observer.observe_failure()
            raise AnswerFailedError() from e

    def _store_question(self, text: str, where: Where, history: list[Turn] | None) -> Question:
        repo = self.repo
        if where.external_id is not None:
            session_id = repo.get_or_create_conversation(where.channel, where.external_id)
        elif where.session_id and repo.conversation_exists(where.session_id):
            session_id = where.session_id
        else:
            session_id = repo.get_or_create_conversation(where.channel, None)
        if history is None:
            history = repo.history(session_id, HISTORY_TURNS)
        question_id = repo.add_user_message(session_id, text)
        return Question(session_id, question_id, text, history)

    async def _store_answer(self, question: Question, answer: Answer) -> Reply:
        self.observer.observe_answer(answer)
        message_id = await to_thread.run_sync(self._add_answer, question, answer)
        return Reply(answer, question.session_id, message_id)

    def _add_answer(self, question: Question, answer: Answer) -> str:
        _, assistant_turn = self._engine(self.engine.turns_for, question.text, answer)
        return self.repo.add_answer(
            question.session_id, question.question_id, answer, assistant_turn
        )
