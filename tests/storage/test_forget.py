"""Deleting is for good: one conversation, a chat's conversations, everything older than a date;
feedback and cached vectors go too, and nothing else is touched (SQLite and PostgreSQL)."""

from __future__ import annotations

import time

from assistant.schema import Turn
from assistant.storage.console import ConsoleRepository, ConversationQuery, Span
from assistant.storage.facts import vector_key
from tests.storage.test_facts import answer

ALL = Span(0, time.time() + 86400)


def _talk(repo: ConsoleRepository, cid: str, question: str) -> str:
    qid = repo.add_user_message(cid, question)
    reply = answer("out_of_scope", refused=True)
    return repo.add_answer(cid, qid, reply, Turn(role="assistant", content=reply.answer))


def _backdate(repo: ConsoleRepository, cid: str, days: float) -> None:
    """Move a conversation, its messages and their feedback `days` into the past (as if
    written then; every stored time moves, the facts' copies too)."""
    shift = days * 86400
    with repo._tx() as cur:  # type: ignore[attr-defined]
        cur.execute(
            "UPDATE messages SET created_at = created_at - ? WHERE conversation_id = ?",
            (shift, cid),
        )
        cur.execute(
            "UPDATE conversations SET created_at = created_at - ?, last_at = last_at - ?"
            " WHERE id = ?",
            (shift, shift, cid),
        )
        cur.execute(
            "UPDATE feedback SET answered_at = answered_at - ? WHERE conversation_id = ?",
            (shift, cid),
        )


def _questions(repo: ConsoleRepository) -> list[str]:
    return sorted(r.question for b in repo.export_batches(ALL) for r in b)


def test_deleting_a_conversation_removes_messages_feedback_and_vectors(
    repo: ConsoleRepository,
) -> None:
    gone = repo.get_or_create_conversation("web", None)
    kept = repo.get_or_create_conversation("web", None)
    repo.add_feedback(_talk(repo, gone, "сколько стоит пицца"), -1, "мой телефон +7 900")
    repo.add_feedback(_talk(repo, kept, "что такое TPU"), -1, "нет статьи")
    repo.save_vectors("m", {vector_key("сколько стоит пицца"): b"v1", "other": b"v2"}, time.time())

    assert repo.delete_conversation(gone) is True
    assert repo.delete_conversation(gone) is False  # already gone
    assert not repo.conversation_exists(gone) and repo.conversation(gone) is None
    assert _questions(repo) == ["что такое TPU"]
    assert [i.comment for i in repo.gap_items(ALL)] == ["нет статьи"]
    assert repo.report_items() and all(i.question == "что такое TPU" for i in repo.report_items())
    assert repo.vectors("m", [vector_key("сколько стоит пицца"), "other"]) == {"other": b"v2"}


def test_forgetting_a_chat_takes_every_conversation_of_it(repo: ConsoleRepository) -> None:
    first = repo.get_or_create_conversation("telegram", "42")
    _talk(repo, first, "вопрос до /reset")
    second = repo.reset_conversation("telegram", "42")
    _talk(repo, second, "вопрос после /reset")
    other = repo.get_or_create_conversation("telegram", "43")
    _talk(repo, other, "чужой вопрос")

    assert repo.delete_chat("telegram", "42") == 2
    assert _questions(repo) == ["чужой вопрос"]
    fresh = repo.get_or_create_conversation("telegram", "42")  # the chat can start again
    assert fresh not in (first, second) and repo.history(fresh) == []


def test_purge_deletes_what_is_older_than_the_date_and_nothing_newer(
    repo: ConsoleRepository,
) -> None:
    old = repo.get_or_create_conversation("web", None)
    repo.add_feedback(_talk(repo, old, "старый вопрос"), -1)
    _backdate(repo, old, 100)
    mixed = repo.get_or_create_conversation("telegram", "7")
    _talk(repo, mixed, "давний вопрос в живом чате")
    _backdate(repo, mixed, 100)
    _talk(repo, mixed, "свежий вопрос в живом чате")
    new = repo.get_or_create_conversation("web", None)
    _talk(repo, new, "свежий вопрос")

    purged = repo.purge(before=time.time() - 90 * 86400)
    assert (purged.messages, purged.conversations) == (4, 1)
    assert _questions(repo) == ["свежий вопрос", "свежий вопрос в живом чате"]
    assert not repo.conversation_exists(old) and repo.conversation_exists(mixed)
    assert repo.purge(before=time.time() - 90 * 86400).messages == 0
    page = repo.conversations(ConversationQuery(ALL))
    assert page.total == 2


def test_purge_works_in_batches_and_keeps_answers_with_questions(
    repo: ConsoleRepository,
) -> None:
    from assistant.storage import forget

    cid = repo.get_or_create_conversation("web", None)
    for i in range(forget.PURGE_BATCH // 2 + 3):  # more messages than one batch holds
        _talk(repo, cid, f"вопрос {i}")
    _backdate(repo, cid, 10)
    purged = repo.purge(before=time.time() - 86400)
    assert purged.messages == 2 * (forget.PURGE_BATCH // 2 + 3) and purged.conversations == 1
