"""Repository contract, run against SQLite and (when available) PostgreSQL."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from assistant.schema import Answer, AnswerMeta, Citation, Turn
from assistant.storage import Repository, UnknownMessageError
from assistant.storage.report import group_report


def make_answer(
    text: str = "NVLink — интерконнект [1].",
    *,
    refused: bool = False,
    confidence: str = "high",
    handoff: bool = False,
    question: str = "",
    route: str = "term",
) -> Answer:
    return Answer(
        answer=text,
        citations=[Citation(slug="nvlink", title="NVLink", url="/glossary/nvlink")],
        refused=refused,
        route=route,  # type: ignore[arg-type]
        generator="embedded",
        meta=AnswerMeta(question=question, confidence=confidence, handoff=handoff),  # type: ignore[arg-type]
    )


def exchange(repo: Repository, cid: str, text: str, **kw: object) -> str:
    qid = repo.add_user_message(cid, text)
    kw.setdefault("question", text)
    answer = make_answer(**kw)  # type: ignore[arg-type]
    turn = Turn(role="assistant", content=answer.answer, params={"params_b": 70}, slugs=["nvlink"])
    return repo.add_answer(cid, qid, answer, turn)


def test_external_id_maps_to_one_active_conversation(repo: Repository) -> None:
    first = repo.get_or_create_conversation("telegram", "42")
    assert repo.get_or_create_conversation("telegram", "42") == first
    assert repo.get_or_create_conversation("web", "42") != first  # channels are separate
    fresh = repo.reset_conversation("telegram", "42")
    assert fresh != first
    assert repo.get_or_create_conversation("telegram", "42") == fresh
    assert repo.conversation_exists(first)  # the old one is kept, just no longer active


def test_no_external_id_always_creates(repo: Repository) -> None:
    a = repo.get_or_create_conversation("web", None)
    b = repo.get_or_create_conversation("web", None)
    assert a != b and len(a) == 32
    assert repo.conversation_exists(a) and not repo.conversation_exists("nope")


def test_history_is_oldest_first_limited_and_round_trips_params(repo: Repository) -> None:
    cid = repo.get_or_create_conversation("web", None)
    for i in range(3):
        exchange(repo, cid, f"вопрос {i}")
    turns = repo.history(cid, limit=4)
    assert [t.role for t in turns] == ["user", "assistant", "user", "assistant"]
    assert turns[0].content == "вопрос 1"
    assert turns[1].params == {"params_b": 70} and turns[1].slugs == ["nvlink"]


def test_unanswered_question_is_stored_but_not_in_history(repo: Repository) -> None:
    cid = repo.get_or_create_conversation("web", None)
    exchange(repo, cid, "что такое nvlink")
    repo.add_user_message(cid, "вопрос, на котором движок упал")
    assert [t.content for t in repo.history(cid)][-1] == "NVLink — интерконнект [1]."
    stored = repo.messages(cid)
    assert stored[-1].content == "вопрос, на котором движок упал" and stored[-1].role == "user"


def test_messages_carry_public_answer_and_feedback(repo: Repository) -> None:
    cid = repo.get_or_create_conversation("web", None)
    mid = exchange(repo, cid, "что такое nvlink")
    repo.add_feedback(mid, -1, "мало")
    repo.add_feedback(mid, 1, "")  # changed their mind: replaces, not adds
    user, bot = repo.messages(cid)
    assert user.answer is None and user.feedback is None
    assert bot.id == mid and bot.feedback == 1
    assert bot.answer is not None and bot.answer["citations"][0]["slug"] == "nvlink"
    assert "meta" not in bot.answer


def test_feedback_rejects_unknown_and_user_messages(repo: Repository) -> None:
    cid = repo.get_or_create_conversation("web", None)
    qid = repo.add_user_message(cid, "вопрос")
    with pytest.raises(UnknownMessageError):
        repo.add_feedback("0" * 32, 1)
    with pytest.raises(UnknownMessageError):
        repo.add_feedback(qid, 1)
    with pytest.raises(ValueError):
        repo.add_feedback(exchange(repo, cid, "x"), 5)


def test_report_items_select_what_editors_need(repo: Repository) -> None:
    cid = repo.get_or_create_conversation("web", None)
    exchange(repo, cid, "что такое nvlink")  # fine: not reported
    exchange(repo, cid, "что такое TPU?", refused=True, route="not_found", question="Что такое TPU")
    exchange(repo, cid, "что такое tpu", confidence="low", question="что такое TPU")
    disliked = exchange(repo, cid, "что такое hbm")
    repo.add_feedback(disliked, -1, "ответ устарел")
    items = repo.report_items()
    assert [i.question for i in items] == ["что такое TPU?", "что такое tpu", "что такое hbm"]
    groups = group_report(items)
    assert groups[0].count == 2 and groups[0].refused == 1 and groups[0].low_confidence == 1
    assert groups[0].wordings == ["что такое TPU?", "что такое tpu"]
    assert groups[1].thumbs_down == 1 and groups[1].comments == ["ответ устарел"]
    assert repo.report_items(since=items[-1].created_at + 1) == []


def test_concurrent_writes_are_all_kept(repo: Repository) -> None:
    cids = [repo.get_or_create_conversation("web", None) for _ in range(4)]

    def work(i: int) -> str:
        return exchange(repo, cids[i % 4], f"вопрос {i}")

    with ThreadPoolExecutor(max_workers=16) as pool:
        ids = list(pool.map(work, range(200)))
    assert len(set(ids)) == 200
    assert sum(len(repo.messages(c, limit=1000)) for c in cids) == 400


def test_concurrent_get_or_create_agrees_on_one_conversation(repo: Repository) -> None:
    barrier = threading.Barrier(8)

    def work(_: int) -> str:
        barrier.wait()
        return repo.get_or_create_conversation("telegram", "race")

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert len(set(pool.map(work, range(8)))) == 1


def test_ping(repo: Repository) -> None:
    assert repo.ping()
