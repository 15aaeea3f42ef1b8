"""The real aiogram bot polling the local Bot API server over HTTP, with the real engine."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from assistant.channels.telegram import texts
from assistant.errors import AnswerFailedError, LLMUnavailableError
from assistant.schema import Answer, Citation, Turn
from tests.api.engines import Failing, Gate, InFlight
from tests.channels.botapi_server import BotAPIServer, Stored
from tests.channels.conftest import BASE_URL

CHAT = 5001


def answers(server: BotAPIServer, chat_id: int, count: int = 1) -> Any:
    """Predicate: at least `count` successful sendMessage calls to the chat → their Stored."""

    def check(s: BotAPIServer) -> list[Stored] | None:
        sent = s.sent(chat_id)
        return sent if len(sent) >= count else None

    return check


def feedback_data(message: Stored) -> list[str]:
    markup = message.reply_markup or {}
    return [b["callback_data"] for row in markup.get("inline_keyboard", []) for b in row]


async def test_russian_question_with_citations(start_bot: Any, botapi: BotAPIServer) -> None:
    await start_bot()
    botapi.push_message(CHAT, "что такое NVLink?")
    [reply] = await botapi.until(answers(botapi, CHAT))
    assert "NVLink" in reply.text and "[1]" in reply.text
    assert f'<a href="{BASE_URL}/glossary/nvlink">NVLink</a>' in reply.html
    assert "Источники:" in reply.text
    data = feedback_data(reply)
    assert [d[:5] for d in data] == ["fb:+:", "fb:-:"]
    names = [c.method for c in botapi.calls]
    assert names.index("sendChatAction") < names.index("sendMessage")
    typing = botapi.calls_of("sendChatAction")[0]
    assert typing.params == {"chat_id": CHAT, "action": "typing"}
    assert botapi.calls_of("sendMessage")[0].params["parse_mode"] == "HTML"


async def test_numeric_question_and_follow_up(start_bot: Any, botapi: BotAPIServer) -> None:
    await start_bot()
    botapi.push_message(CHAT, "сколько видеопамяти нужно для Llama 3 70B в FP8?")
    [first] = await botapi.until(answers(botapi, CHAT))
    assert "<pre>" in first.html and "FP8" in first.text
    table = first.html.split("<pre>")[1].split("</pre>")[0]
    assert "Веса" in table and "70,6\u00a0ГБ" in table
    botapi.push_message(CHAT, "а в FP4?")
    second = (await botapi.until(answers(botapi, CHAT, 2)))[1]
    assert "FP4" in second.text and "35,3" in second.text  # 70.6B × 0.5 byte: needs history
    assert "<pre>" in second.html


async def test_fit_answer_is_one_readable_message(start_bot: Any, botapi: BotAPIServer) -> None:
    await start_bot()
    botapi.push_message(CHAT, "поместится ли Llama 3 70B в FP8 на H100?")
    [reply] = await botapi.until(answers(botapi, CHAT))
    assert botapi.calls_of("sendMessage")[0].ok  # Telegram parsed the HTML
    assert len(botapi.sent(CHAT)) == 1 and len(reply.text) <= 4096
    assert "<b>Подбор GPU</b>" in reply.html and "Варианты GPU" in reply.text
    options = reply.html.split("<pre>")[2].split("</pre>")[0]
    assert "H100 SXM" in options and "впритык" in options and "h100-sxm" not in reply.text
    for leak in ("_gb", "{'", "[object", "gpu_fit", "маршрут"):
        assert leak not in reply.text


async def test_restart_keeps_the_conversation(start_bot: Any, botapi: BotAPIServer) -> None:
    bot = await start_bot()
    botapi.push_message(CHAT, "сколько видеопамяти нужно для Llama 3 70B в FP8?")
    await botapi.until(answers(botapi, CHAT))
    await bot.stop()  # process gone: new repository connection, new dispatcher
    await start_bot()
    botapi.push_message(CHAT, "а в FP4?")
    second = (await botapi.until(answers(botapi, CHAT, 2)))[1]
    assert "35,3" in second.text


async def test_reset_starts_a_new_conversation(start_bot: Any, botapi: BotAPIServer) -> None:
    bot = await start_bot()
    botapi.push_message(CHAT, "сколько видеопамяти нужно для Llama 3 70B в FP8?")
    await botapi.until(answers(botapi, CHAT))
    before = bot.repository.get_or_create_conversation("telegram", str(CHAT))
    botapi.push_message(CHAT, "/reset")
    reset = (await botapi.until(answers(botapi, CHAT, 2)))[1]
    assert reset.text == texts.RESET
    after = bot.repository.get_or_create_conversation("telegram", str(CHAT))
    assert after != before and bot.repository.history(after) == []


async def test_forget_deletes_the_chats_conversations_and_their_feedback(
    start_bot: Any, botapi: BotAPIServer
) -> None:
    bot = await start_bot()
    botapi.push_message(CHAT, "/forget")
    [nothing] = await botapi.until(answers(botapi, CHAT))
    assert nothing.text == texts.NOTHING_TO_FORGET
    botapi.push_message(CHAT, "что такое NVLink?")
    reply = (await botapi.until(answers(botapi, CHAT, 2)))[1]
    botapi.push_callback(CHAT, reply.message_id, feedback_data(reply)[1])  # 👎
    await botapi.until(lambda s: s.calls_of("editMessageReplyMarkup"))
    before = bot.repository.get_or_create_conversation("telegram", str(CHAT))
    botapi.push_message(CHAT, "/reset")
    botapi.push_message(CHAT, "а что такое HBM?")
    await botapi.until(answers(botapi, CHAT, 4))
    botapi.push_message(CHAT, "/forget")
    done = (await botapi.until(answers(botapi, CHAT, 5)))[4]
    assert done.text == texts.FORGOTTEN
    assert not bot.repository.conversation_exists(before)
    assert bot.repository.report_items() == []  # the 👎 went with its answer
    after = bot.repository.get_or_create_conversation("telegram", str(CHAT))
    assert after != before and bot.repository.messages(after) == []


class LongEngine:
    """The real engine's answer repeated until it is far over Telegram's limit."""

    def __init__(self, engine: Any, times: int = 30) -> None:
        self.engine, self.times = engine, times

    def answer(self, message: str, history: Sequence[Turn] = ()) -> Answer:
        real: Answer = self.engine.answer(message, history)
        text = "\n\n".join([real.answer] * self.times)
        return real.model_copy(update={"answer": text})

    def turns_for(self, message: str, answer: Answer) -> tuple[Turn, Turn]:
        result: tuple[Turn, Turn] = self.engine.turns_for(message, answer)
        return result


async def test_long_answer_is_split(start_bot: Any, botapi: BotAPIServer, pipeline: Any) -> None:
    await start_bot(LongEngine(pipeline))
    botapi.push_message(CHAT, "что такое NVLink?")
    await botapi.until(lambda s: any(feedback_data(m) for m in s.sent(CHAT)))
    sent = botapi.sent(CHAT)
    assert len(sent) >= 3
    assert all(c.ok for c in botapi.calls_of("sendMessage"))  # every part parsed and ≤ 4096
    assert all(len(m.text) <= 4096 for m in sent)
    assert [bool(feedback_data(m)) for m in sent] == [False] * (len(sent) - 1) + [True]
    assert sent[-1].html.count("<a href=") >= 1
    single = pipeline.answer("что такое NVLink?").answer.split()
    words = " ".join(m.text for m in sent).split()
    assert words[: len(single)] == single


class HostileEngine:
    """Echoes the user's text into the answer and a citation, like a careless model might."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def answer(self, message: str, history: Sequence[Turn] = ()) -> Answer:
        real: Answer = self.engine.answer(message, history)
        cite = Citation(slug="x", title=message[:40], url='/glossary/x"><b>')
        return real.model_copy(
            update={"answer": f"Вы спросили: {message}\n{real.answer}", "citations": [cite]}
        )

    def turns_for(self, message: str, answer: Answer) -> tuple[Turn, Turn]:
        result: tuple[Turn, Turn] = self.engine.turns_for(message, answer)
        return result


HOSTILE = '<b>жирный</b> <a href="javascript:alert(1)">x</a> &amp; & <script>alert("x")</script> <'


async def test_hostile_input_is_escaped(
    start_bot: Any, botapi: BotAPIServer, pipeline: Any
) -> None:
    await start_bot(HostileEngine(pipeline))
    botapi.push_message(CHAT, HOSTILE)
    [reply] = await botapi.until(answers(botapi, CHAT))
    assert all(c.ok for c in botapi.calls_of("sendMessage"))
    assert f"Вы спросили: {HOSTILE}" in reply.text  # shown literally, nothing interpreted
    assert "<script>" not in reply.html and "javascript:" not in reply.html.split("href=")[0]
    assert 'href="https://fullgpu.example/glossary/x&quot;&gt;&lt;b&gt;"' in reply.html


async def test_real_engine_with_hostile_input(start_bot: Any, botapi: BotAPIServer) -> None:
    await start_bot()
    botapi.push_message(CHAT, "что такое <b>NVLink</b> & PCIe? </pre><script>")
    await botapi.until(answers(botapi, CHAT))
    assert all(c.ok for c in botapi.calls_of("sendMessage"))


async def test_429_retry_after_is_honoured(start_bot: Any, botapi: BotAPIServer) -> None:
    await start_bot()
    botapi.fail_next("sendMessage", 429, retry_after=1)
    botapi.push_message(CHAT, "что такое NVLink?")
    await botapi.until(answers(botapi, CHAT))
    first, second = botapi.calls_of("sendMessage")[:2]
    assert first.status == 429 and first.response["parameters"] == {"retry_after": 1}
    assert second.ok and second.at - first.at >= 0.95
    assert second.params["text"] == first.params["text"]


async def test_server_error_is_retried_with_backoff(start_bot: Any, botapi: BotAPIServer) -> None:
    await start_bot()
    botapi.fail_next("sendMessage", 500, "Internal Server Error")
    botapi.fail_next("sendMessage", 502, "Bad Gateway")
    botapi.push_message(CHAT, "что такое NVLink?")
    await botapi.until(answers(botapi, CHAT))
    assert [c.status for c in botapi.calls_of("sendMessage")] == [500, 502, 200]


async def test_non_text_messages_get_a_polite_note(start_bot: Any, botapi: BotAPIServer) -> None:
    await start_bot()
    file = {"file_id": "f1", "file_unique_id": "u1"}
    botapi.push_message(CHAT, sticker={**file, "type": "regular", "width": 512, "height": 512,
                                       "is_animated": False, "is_video": False})  # fmt: skip
    botapi.push_message(CHAT, photo=[{**file, "width": 90, "height": 90}])
    botapi.push_message(CHAT, voice={**file, "duration": 3})
    sent = await botapi.until(answers(botapi, CHAT, 3))
    assert [m.text for m in sent] == [texts.NOT_TEXT] * 3


async def test_feedback_buttons_record_feedback(start_bot: Any, botapi: BotAPIServer) -> None:
    bot = await start_bot()
    botapi.push_message(CHAT, "что такое NVLink?")
    [reply] = await botapi.until(answers(botapi, CHAT))
    down = feedback_data(reply)[1]
    query = botapi.push_callback(CHAT, reply.message_id, down)
    edit = await botapi.until(lambda s: s.calls_of("editMessageReplyMarkup"))
    answered = botapi.calls_of("answerCallbackQuery")
    assert answered[0].params == {"callback_query_id": query, "text": texts.FEEDBACK_THANKS}
    assert edit[0].ok and "👎" in str(botapi.stored(CHAT, reply.message_id).reply_markup)
    conversation = bot.repository.get_or_create_conversation("telegram", str(CHAT))
    stored = bot.repository.messages(conversation)
    assert [m.feedback for m in stored if m.role == "assistant"] == [-1]
    botapi.push_callback(CHAT, reply.message_id, "fb:+:" + "0" * 32)  # unknown answer id
    await botapi.until(lambda s: len(s.calls_of("answerCallbackQuery")) > 1)
    assert botapi.calls_of("answerCallbackQuery")[1].params["text"] == texts.FEEDBACK_GONE


async def test_start_offers_examples_as_buttons(start_bot: Any, botapi: BotAPIServer) -> None:
    await start_bot()
    botapi.push_message(CHAT, "/start")
    [hello] = await botapi.until(answers(botapi, CHAT))
    buttons = feedback_data(hello)
    assert buttons == ["ex:0", "ex:1", "ex:2"]
    botapi.push_callback(CHAT, hello.message_id, "ex:1")
    answer = (await botapi.until(answers(botapi, CHAT, 2)))[1]
    assert "FP8" in answer.text and "<pre>" in answer.html
    botapi.push_message(CHAT, "/help")
    help_ = (await botapi.until(answers(botapi, CHAT, 3)))[2]
    assert "/reset" in help_.text and "/forget" in help_.text


async def test_group_answers_only_when_addressed(start_bot: Any, botapi: BotAPIServer) -> None:
    await start_bot()
    group = -100777
    botapi.push_message(group, "что такое NVLink?", chat_type="supergroup", user_id=42)
    mention = "@fullgpu_test_bot что такое PCIe?"
    entities = [{"type": "mention", "offset": 0, "length": len("@fullgpu_test_bot")}]
    asked = botapi.message(group, mention, chat_type="supergroup", user_id=42, entities=entities)
    botapi.push_update({"message": asked})
    [reply] = await botapi.until(answers(botapi, group))
    call = next(c for c in botapi.calls_of("sendMessage") if c.params["chat_id"] == group)
    assert call.params["reply_parameters"]["message_id"] == asked["message_id"]
    assert "PCIe" in reply.text
    botapi.push_message(group, "а NVLink?", chat_type="supergroup", user_id=42,
                        reply_to=reply.message_id)  # fmt: skip
    second = (await botapi.until(answers(botapi, group, 2)))[1]
    assert "NVLink" in second.text
    assert len(botapi.sent(group)) == 2


class BrokenEngine:
    def answer(self, message: str, history: Sequence[Turn] = ()) -> Answer:
        raise RuntimeError("boom: index at /secret/path exploded")

    def turns_for(self, message: str, answer: Answer) -> tuple[Turn, Turn]:
        raise AssertionError


async def test_engine_failure_gives_an_apology(start_bot: Any, botapi: BotAPIServer) -> None:
    await start_bot(BrokenEngine())
    botapi.push_message(CHAT, "что такое NVLink?")
    [reply] = await botapi.until(answers(botapi, CHAT))
    assert reply.text == AnswerFailedError.user_message  # the text HTTP puts in its 422 body


async def test_too_long_question_gets_the_engine_message(
    start_bot: Any, botapi: BotAPIServer
) -> None:
    await start_bot()
    botapi.push_message(CHAT, "что такое NVLink? " * 200)
    [reply] = await botapi.until(answers(botapi, CHAT))
    assert "слишком длинное" in reply.text


# --- the shared conversation service: same texts, same cap, same order as HTTP -------------------


async def test_too_long_question_gets_the_same_text_as_http(
    start_bot: Any, botapi: BotAPIServer
) -> None:
    await start_bot()
    question = "что такое NVLink? " * 200
    botapi.push_message(CHAT, question)
    [reply] = await botapi.until(answers(botapi, CHAT))
    n = len(question.strip())
    assert reply.text == (
        f"Сообщение слишком длинное ({n} символов, максимум 2000). Сократите вопрос, пожалуйста."
    )


async def test_engine_failure_keeps_the_question(start_bot: Any, botapi: BotAPIServer) -> None:
    bot = await start_bot(BrokenEngine())
    botapi.push_message(CHAT, "что такое NVLink?")
    [reply] = await botapi.until(answers(botapi, CHAT))
    assert reply.text == AnswerFailedError.user_message and "/secret/path" not in reply.text
    conversation = bot.repository.get_or_create_conversation("telegram", str(CHAT))
    stored = bot.repository.messages(conversation)
    assert [(m.role, m.content) for m in stored] == [("user", "что такое NVLink?")]


async def test_a_typed_failure_reads_as_on_http(
    start_bot: Any, botapi: BotAPIServer, pipeline: Any
) -> None:
    down = LLMUnavailableError("connection refused by 10.0.0.7:8000")
    await start_bot(Failing(pipeline, "почему сервер молчит", down))
    botapi.push_message(CHAT, "почему сервер молчит")
    [reply] = await botapi.until(answers(botapi, CHAT))
    assert reply.text == down.user_message  # the text HTTP puts in its 503 body
    assert "10.0.0.7" not in reply.text


@pytest.mark.parametrize("slots", [1, 2])
async def test_answers_respect_the_admission_cap(
    start_bot: Any, botapi: BotAPIServer, pipeline: Any, slots: int
) -> None:
    counted = InFlight(pipeline, hold_s=0.3)
    chats = [CHAT + i for i in range(4)]
    for chat in chats:  # queued before the bot polls: one getUpdates batch, handled at once
        botapi.push_message(chat, "что такое NVLink?")
    await start_bot(counted, max_concurrent_answers=slots)
    for chat in chats:
        [reply] = await botapi.until(answers(botapi, chat))
        assert "NVLink" in reply.text
    assert counted.calls == len(chats)
    assert counted.peak == slots  # never more than the cap, and the cap is actually used


async def test_a_follow_up_waits_for_the_answer_before_it(
    start_bot: Any, botapi: BotAPIServer, pipeline: Any
) -> None:
    gate = Gate(pipeline, "сколько видеопамяти нужно для Llama 3 70B в FP8?")
    await start_bot(gate)
    botapi.push_message(CHAT, gate.held)
    await asyncio.to_thread(gate.entered.wait, 30)
    botapi.push_message(CHAT, "а в FP4?")
    botapi.push_message(CHAT + 1, "что такое HBM?")  # another chat is not held up
    [other] = await botapi.until(answers(botapi, CHAT + 1))
    assert "HBM" in other.text
    await asyncio.sleep(0.3)
    assert botapi.sent(CHAT) == []  # the follow-up did not overtake the held answer
    gate.release()
    first, second = await botapi.until(answers(botapi, CHAT, 2))
    assert "70,6\u00a0ГБ" in first.html and "35,3" in second.text  # FP4 of the same 70.6B model
    assert gate.order.index(gate.held) < gate.order.index("а в FP4?")


async def test_reset_waits_for_the_answer_in_flight(
    start_bot: Any, botapi: BotAPIServer, pipeline: Any
) -> None:
    gate = Gate(pipeline, "сколько видеопамяти нужно для Llama 3 70B в FP8?")
    bot = await start_bot(gate)
    botapi.push_message(CHAT, gate.held)
    await asyncio.to_thread(gate.entered.wait, 30)
    before = bot.repository.get_or_create_conversation("telegram", str(CHAT))
    botapi.push_message(CHAT, "/reset")
    await asyncio.sleep(0.3)
    assert botapi.sent(CHAT) == []
    gate.release()
    answer, reset = await botapi.until(answers(botapi, CHAT, 2))
    assert "70,6\u00a0ГБ" in answer.html and reset.text == texts.RESET
    stored = bot.repository.messages(before)  # the answer landed in the old conversation
    assert [m.role for m in stored] == ["user", "assistant"]
