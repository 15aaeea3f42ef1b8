"""A small, realistic history for console tests: questions from every channel answered by the
real engine, 👍/👎 with comments, spread over the last days (SQLite or PostgreSQL)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from assistant.schema import Turn
from assistant.storage.console import ConsoleRepository
from tests.storage.test_forget import _backdate as backdate


@dataclass(frozen=True)
class Asked:
    channel: str
    question: str
    days_ago: float
    feedback: int | None = None
    comment: str = ""
    chat: str | None = None  # Telegram chat id: its questions share a conversation


HISTORY = (
    Asked("web", "что такое NVLink?", 0.1, 1),
    Asked("web", "Сколько видеопамяти нужно для 70B в FP8?", 0.2, 1),
    Asked("web", "сколько стоит аренда TPU v5 в Google Cloud?", 0.3),
    Asked("web", "почём TPU v5 у гугла в час", 1.2, -1, "нужны цены TPU, а не H100"),
    Asked("telegram", "что такое HBM?", 1.3, chat="501"),
    Asked("telegram", "а чем HBM отличается от GDDR7?", 1.31, -1, "не понял разницу", "501"),
    Asked("telegram", "как приготовить борщ", 2.4, chat="502"),
    Asked("telegram", "рецепт борща со свёклой", 3.1, chat="503"),
    Asked("agent", "Клиент просит вернуть деньги за простой сервера", 2.2),
    Asked("agent", "что такое MIG?", 4.5, 1),
    Asked("openai", "что такое Gaudi 3 от Intel?", 3.6),
    Asked("openai", "чем Intel Gaudi 3 лучше H100?", 5.2, -1, "про Gaudi ничего"),
    Asked("openai", "сколько памяти нужно модели?", 6.1),
    Asked("web", "стоимость 8 H100 на неделю", 6.3, 1),
)
__all__ = ["HISTORY", "Asked", "backdate", "seed"]


def seed(repo: ConsoleRepository, pipeline: Any, history: tuple[Asked, ...] = HISTORY) -> list[str]:
    """Store `history` as the service would (question first, then the engine's answer) and
    return the conversation id of each question."""
    ids: list[str] = []
    shifted: set[str] = set()
    for asked in history:
        cid = repo.get_or_create_conversation(asked.channel, asked.chat)
        turns: list[Turn] = repo.history(cid) if asked.chat else []
        qid = repo.add_user_message(cid, asked.question)
        answer = pipeline.answer(asked.question, turns)
        _, turn = pipeline.turns_for(asked.question, answer)
        mid = repo.add_answer(cid, qid, answer, turn)
        if asked.feedback is not None:
            repo.add_feedback(mid, asked.feedback, asked.comment)
        ids.append(cid)
    for asked, cid in zip(history, ids, strict=True):
        if cid not in shifted:
            backdate(repo, cid, asked.days_ago)
            shifted.add(cid)
    return ids
