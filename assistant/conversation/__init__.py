"""Conversation layer: a user's message in a channel → a stored question and a stored answer.

    service = ChatService(pipeline, settings, repository, observer=metrics)
    reply = await service.ask(message, Where(channel="web", session_id=sid))

validation.py   message → stripped text or InputError (the one set of Russian messages)
admission.py    FIFO cap on answers in flight; one question at a time per conversation
service.py      ChatService: validate → store question → answer → store answer, for every
                channel (HTTP chat, SSE, OpenAI-compatible, /v1/suggest, Telegram)
"""

from __future__ import annotations

from assistant.conversation.service import ChatService, Question, Reply, Where
from assistant.conversation.validation import validate_message

__all__ = ["ChatService", "Question", "Reply", "Where", "validate_message"]
