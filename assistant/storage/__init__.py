"""Settings → a Repository persisting conversations, messages and feedback (SQLite or PostgreSQL).

Every channel (HTTP API, widget, Telegram) stores its conversations through this interface:

    repo = open_repository(settings)      # SQLite at settings.db_path, or PostgreSQL when
                                          # settings.database_url starts with postgresql://
    cid = repo.get_or_create_conversation("telegram", str(chat_id))   # the chat's active one
    cid = repo.get_or_create_conversation("web", None)                # always a fresh one
    cid = repo.reset_conversation("telegram", str(chat_id))           # /new: fresh one, old kept
    turns = repo.history(cid, limit=10)                               # list[Turn], oldest first
    qid = repo.add_user_message(cid, text)       # stored BEFORE generation: a failing engine
    answer = pipeline.answer(text, turns)        # never loses the question
    _, assistant_turn = pipeline.turns_for(text, answer)
    mid = repo.add_answer(cid, qid, answer, assistant_turn)           # message id of the reply
    repo.add_feedback(mid, +1, "спасибо")        # +1 / -1; again for the same message replaces it
    items = repo.report_items()                  # refused / low-confidence / thumbs-down answers
    repo.delete_conversation(cid)                # gone with its messages and feedback
    repo.delete_chat("telegram", str(chat_id))   # every conversation of that chat (/forget)
    repo.purge(before=time.time() - 90 * 86400)  # retention: everything older than that
    repo.close()

Identifiers are random 32-hex-digit strings (unguessable; a conversation id is the widget's
session token). `history` returns only answered questions and answers (a question whose
generation failed stays stored but is not fed back to the engine). Both implementations are
thread-safe and keep every write under concurrent requests; `assistant.storage.report` groups
the report items for `assistant report`. The console's reads (periods, filters, export,
content gaps) are `storage.console.ConsoleStore`; both implementations provide it too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from assistant.schema import Answer, Turn
from assistant.settings import Settings

if TYPE_CHECKING:
    from assistant.storage.console import ConsoleRepository
    from assistant.storage.forget import Purged


class UnknownMessageError(LookupError):
    """Feedback for a message id that does not exist or is not an assistant answer."""


@dataclass(frozen=True)
class StoredMessage:
    """One stored message as a channel shows it again (e.g. the widget after a reload)."""

    id: str
    role: str  # "user" | "assistant"
    content: str
    answer: dict[str, Any] | None = None  # the public Answer object, assistant messages only
    feedback: int | None = None  # +1 / -1 / None


@dataclass(frozen=True)
class ReportItem:
    """One answer an editor should look at: refused, low confidence, handed off or thumbs-down."""

    message_id: str
    question: str  # what the user typed
    condensed: str  # the self-contained question the engine answered (may equal `question`)
    route: str
    refused: bool
    confidence: str
    handoff: bool
    created_at: float
    feedback: int | None = None
    comment: str = ""
    slugs: list[str] = field(default_factory=list)


class Repository(Protocol):
    """Conversations, messages and feedback; see the module docstring for the call order."""

    def get_or_create_conversation(self, channel: str, external_id: str | None) -> str: ...

    def reset_conversation(self, channel: str, external_id: str | None) -> str: ...

    def conversation_exists(self, conversation_id: str) -> bool: ...

    def history(self, conversation_id: str, limit: int = 10) -> list[Turn]: ...

    def messages(self, conversation_id: str, limit: int = 100) -> list[StoredMessage]: ...

    def add_user_message(self, conversation_id: str, text: str) -> str: ...

    def add_answer(
        self, conversation_id: str, reply_to: str | None, answer: Answer, assistant_turn: Turn
    ) -> str: ...

    def add_feedback(self, message_id: str, score: int, comment: str = "") -> None: ...

    def report_items(self, since: float | None = None) -> list[ReportItem]: ...

    def delete_conversation(self, conversation_id: str) -> bool: ...

    def delete_chat(self, channel: str, external_id: str) -> int: ...

    def purge(self, before: float) -> Purged: ...

    def ping(self) -> bool: ...

    def close(self) -> None: ...


def open_repository(settings: Settings) -> ConsoleRepository:
    """PostgreSQL when `database_url` is a postgres DSN, else SQLite at `db_path` (WAL)."""
    url = settings.database_url.strip()
    if url.startswith(("postgresql://", "postgres://")):
        from assistant.storage.postgres import PostgresRepository

        return PostgresRepository(url)
    if url.startswith("sqlite:///"):
        from pathlib import Path

        from assistant.storage.sqlite import SqliteRepository

        path = Path(url.removeprefix("sqlite:///"))
        return SqliteRepository(path, setting="ASSISTANT_DATABASE_URL")
    if url:
        from assistant.errors import ConfigError

        message = "ASSISTANT_DATABASE_URL должен быть пустым, sqlite:///путь или postgresql://…"
        raise ConfigError(message, user_message=message)
    from assistant.storage.sqlite import SqliteRepository

    return SqliteRepository(settings.db_path)


__all__ = [
    "ReportItem",
    "Repository",
    "StoredMessage",
    "UnknownMessageError",
    "open_repository",
]
