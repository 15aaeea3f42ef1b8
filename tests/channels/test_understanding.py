"""Telegram edges of issue 11, through the real bot and engine: a year or an absurd value gets a
readable reply, and a follow-up «одной L40S хватит?» computes with everything said before."""

from __future__ import annotations

from typing import Any

from tests.channels.botapi_server import BotAPIServer
from tests.channels.test_bot import answers

CHAT = 5011


async def test_absurd_value_then_follow_up_in_one_chat(
    start_bot: Any, botapi: BotAPIServer
) -> None:
    await start_bot()
    botapi.push_message(CHAT, "сколько будет стоить H100 на 500 лет?")
    [limit] = await botapi.until(answers(botapi, CHAT))
    assert "Посчитать не получится" in limit.text and "десяти лет" in limit.text
    botapi.push_message(CHAT, "Планируем Mistral 7B в FP16, контекст 8k, 10 пользователей")
    await botapi.until(answers(botapi, CHAT, 2))
    botapi.push_message(CHAT, "одной L40S хватит?")
    fit = (await botapi.until(answers(botapi, CHAT, 3)))[2]
    assert "<b>Подбор GPU</b>" in fit.html and "L40S" in fit.text
    assert "поместится" in fit.text and "10" in fit.text  # the 10 users are in the KV cache
    assert len(fit.text) <= 4096


async def test_a_year_is_not_a_rental(start_bot: Any, botapi: BotAPIServer) -> None:
    await start_bot()
    botapi.push_message(CHAT, "NVLink образца 2024 года быстрее прошлого?")
    [reply] = await botapi.until(answers(botapi, CHAT))
    assert "NVLink" in reply.text and "Стоимость аренды" not in reply.text
