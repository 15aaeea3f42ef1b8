"""`ChatService.forget`: a widget session or a whole chat is deleted, after the answer in flight
has been stored (the real engine over the fast retriever, SQLite)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from assistant.conversation import ChatService, Where
from assistant.settings import Settings
from assistant.storage.sqlite import SqliteRepository
from tests.api.engines import Gate

QUESTION = "что такое NVLink"


async def test_forget_waits_for_the_answer_in_flight_then_deletes(
    fast_pipeline: Any, settings: Settings, tmp_path: Path
) -> None:
    repo = SqliteRepository(tmp_path / "db.sqlite3")
    gate = Gate(fast_pipeline, QUESTION)
    service = ChatService(gate, settings, repo)
    first = await service.ask("что такое HBM", Where("web"))
    where = Where("web", session_id=first.session_id)
    asking = asyncio.create_task(service.ask(QUESTION, where))
    await asyncio.to_thread(gate.entered.wait, 10)
    forgetting = asyncio.create_task(service.forget(where))
    await asyncio.sleep(0.2)
    assert not forgetting.done()  # the answer being written comes first
    gate.release()
    reply = await asking
    assert reply.session_id == first.session_id and await forgetting is True
    assert not repo.conversation_exists(first.session_id)
    assert await service.forget(where) is False
    repo.close()


async def test_forget_a_chat_deletes_its_conversations_and_the_next_question_starts_fresh(
    fast_pipeline: Any, settings: Settings, tmp_path: Path
) -> None:
    repo = SqliteRepository(tmp_path / "db.sqlite3")
    service = ChatService(fast_pipeline, settings, repo)
    chat = Where("telegram", external_id="99")
    before = await service.ask("что такое HBM", chat)
    await service.reset(chat)
    await service.ask("что такое NVLink", chat)
    assert await service.forget(chat) is True
    assert not repo.conversation_exists(before.session_id)
    after = await service.ask("а в FP8?", chat)
    assert after.session_id != before.session_id
    assert [m.role for m in repo.messages(after.session_id)] == ["user", "assistant"]
    repo.close()
