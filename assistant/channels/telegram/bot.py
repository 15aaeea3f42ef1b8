"""aiogram bot: factory (custom API server, retries, HTML defaults), handlers and dispatcher."""

from __future__ import annotations

import html
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aiogram import Bot, Dispatcher, F, Router
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ChatType, ParseMode
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command
from aiogram.types import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
    User,
)
from aiogram.utils.chat_action import ChatActionSender
from aiogram.utils.token import TokenValidationError

from assistant.channels.telegram import texts
from assistant.channels.telegram.render import escape, render_answer, split_message, visible_text
from assistant.channels.telegram.retry import RetryMiddleware
from assistant.conversation import ChatService, Reply, Where
from assistant.errors import AssistantError, ConfigError, InputError

if TYPE_CHECKING:
    from assistant.settings import Settings

log = logging.getLogger(__name__)
CHANNEL = "telegram"
NO_TOKEN = (
    "Не задан токен Telegram-бота: укажите его в переменной окружения ASSISTANT_TELEGRAM_TOKEN "
    "(или в файле .env)."
)


@dataclass(frozen=True)
class TelegramApp:
    """Everything one running bot needs: the Bot client, its Dispatcher and the chat service."""

    bot: Bot
    dispatcher: Dispatcher
    service: ChatService


def build_bot(settings: Settings, *, retry: RetryMiddleware | None = None) -> Bot:
    """Bot client for `settings.telegram_api_base`, HTML parse mode, retries on 429/network."""
    token = settings.telegram_token.get_secret_value().strip()
    if not token:
        raise ConfigError("telegram token is not set", user_message=NO_TOKEN)
    session = AiohttpSession(api=TelegramAPIServer.from_base(settings.telegram_api_base))
    session.middleware(retry or RetryMiddleware())
    try:
        return Bot(
            token,
            session=session,
            default=DefaultBotProperties(parse_mode=ParseMode.HTML, link_preview_is_disabled=True),
        )
    except TokenValidationError:
        message = "Токен Telegram-бота имеет неверный формат (ожидается «123456:ABC…»)."
        raise ConfigError("telegram token is malformed", user_message=message) from None


def build_dispatcher(service: ChatService, settings: Settings) -> Dispatcher:
    """Dispatcher with the bot's handlers; `service` and the link base are injected by name."""
    dispatcher = Dispatcher(name="glossary-assistant")
    dispatcher["service"] = service
    dispatcher["base_url"] = settings.public_base_url
    dispatcher.include_router(build_router())
    return dispatcher


def create_telegram(
    settings: Settings, service: ChatService, *, retry: RetryMiddleware | None = None
) -> TelegramApp:
    """Bot + dispatcher over the process's conversation service (shared with the HTTP service in
    webhook mode, so both channels share one answer cap)."""
    return TelegramApp(
        build_bot(settings, retry=retry), build_dispatcher(service, settings), service
    )


def build_router() -> Router:
    """Commands, free text, example/feedback buttons and the note for non-text messages."""
    router = Router(name="telegram")
    router.message.register(on_start, Command("start"))
    router.message.register(on_help, Command("help"))
    router.message.register(on_reset, Command("reset"))
    router.message.register(on_forget, Command("forget"))
    router.message.register(on_text, F.text)
    router.message.register(on_other)
    router.callback_query.register(on_example, F.data.startswith(texts.EXAMPLE_PREFIX))
    router.callback_query.register(on_feedback, F.data.startswith(texts.FEEDBACK_PREFIX))
    router.callback_query.register(on_unknown_button)
    return router


# --- addressing in group chats ---------------------------------------------------------------


def is_private(message: Message) -> bool:
    return message.chat.type == ChatType.PRIVATE


def replies_to(message: Message, me: User) -> bool:
    """True when the message is a reply to one of the bot's own messages."""
    original = message.reply_to_message
    return bool(original and original.from_user and original.from_user.id == me.id)


def addressed_text(message: Message, me: User) -> str | None:
    """The question meant for the bot (mention removed), or None if the bot is not addressed.

    Private chats: always. Groups: only when the bot is @mentioned or replied to.
    """
    text = message.text or ""
    if is_private(message) or replies_to(message, me):
        return _without_mention(text, me)
    for entity in message.entities or ():
        if entity.type == "mention" and me.username:
            if entity.extract_from(text).lower() == f"@{me.username.lower()}":
                return _without_mention(text, me)
        elif entity.type == "text_mention" and entity.user and entity.user.id == me.id:
            return text.strip()
    return None


def _without_mention(text: str, me: User) -> str:
    if not me.username:
        return text.strip()
    handle, out, start = me.username.lower(), [], 0
    for at, char in enumerate(text):
        end = at + 1 + len(handle)
        named = char == "@" and text[at + 1 : end].lower() == handle
        if (
            named
            and at >= start
            and not (end < len(text) and (text[end].isalnum() or text[end] == "_"))
        ):
            out.append(text[start:at] + " ")
            start = end
    out.append(text[start:])
    return "".join(out).strip()


# --- handlers ----------------------------------------------------------------------------------


async def on_start(message: Message) -> None:
    await message.answer(escape(texts.START), reply_markup=texts.examples_keyboard())


async def on_help(message: Message) -> None:
    await message.answer(texts.HELP)


def chat_where(chat_id: int) -> Where:
    """A Telegram chat's place in the conversation service: its current conversation."""
    return Where(CHANNEL, external_id=str(chat_id))


async def on_reset(message: Message, service: ChatService) -> None:
    await service.reset(chat_where(message.chat.id))
    await message.answer(escape(texts.RESET))


async def on_forget(message: Message, service: ChatService) -> None:
    """Every conversation of this chat is deleted for good (after the answer in flight)."""
    gone = await service.forget(chat_where(message.chat.id))
    await message.answer(escape(texts.FORGOTTEN if gone else texts.NOTHING_TO_FORGET))


async def on_text(message: Message, bot: Bot, service: ChatService, base_url: str) -> None:
    question = addressed_text(message, await bot.me())
    if question is None:
        return
    if not question:
        await message.answer(escape(texts.EMPTY_MENTION))
        return
    reply_to = None if is_private(message) else message.message_id
    await respond(bot, service, message.chat.id, question, base_url, reply_to)


async def on_other(message: Message, bot: Bot) -> None:
    """Stickers, photos, voice…: a polite note (in groups only when replying to the bot)."""
    if is_private(message) or replies_to(message, await bot.me()):
        await message.answer(escape(texts.NOT_TEXT))


async def on_example(query: CallbackQuery, bot: Bot, service: ChatService, base_url: str) -> None:
    question = texts.parse_example(query.data or "")
    await query.answer()
    if question is None or query.message is None:
        return
    await respond(bot, service, query.message.chat.id, question, base_url, None)


async def on_feedback(query: CallbackQuery, service: ChatService) -> None:
    parsed = texts.parse_feedback(query.data or "")
    if parsed is None:
        await query.answer()
        return
    score, message_id = parsed
    if not await service.feedback(message_id, score):
        await query.answer(texts.FEEDBACK_GONE)
        return
    await query.answer(texts.FEEDBACK_THANKS)
    if isinstance(query.message, Message):
        chosen = InlineKeyboardButton(
            text=f"Ваша оценка: {'👍' if score > 0 else '👎'}", callback_data="fb:done"
        )
        try:
            await query.message.edit_reply_markup(
                reply_markup=InlineKeyboardMarkup(inline_keyboard=[[chosen]])
            )
        except TelegramBadRequest as e:  # message deleted or already marked
            log.info("feedback markup not updated: %s", e.message)


async def on_unknown_button(query: CallbackQuery) -> None:
    await query.answer()


# --- answering ---------------------------------------------------------------------------------


async def respond(
    bot: Bot,
    service: ChatService,
    chat_id: int,
    question: str,
    base_url: str,
    reply_to: int | None,
) -> None:
    """Typing… while the engine works, then the rendered answer (or a short Russian error; the
    question stays stored either way)."""
    try:
        async with ChatActionSender.typing(bot=bot, chat_id=chat_id):
            reply = await service.ask(question, chat_where(chat_id))
    except Exception as e:
        await send_part(bot, chat_id, escape(error_text(e, chat_id)), reply_to=reply_to)
        return
    await send_answer(bot, chat_id, reply, base_url, reply_to)


def error_text(exc: Exception, chat_id: int) -> str:
    """The channel's one error mapping: a typed failure's own Russian message (the same text
    HTTP puts in its error body), an apology for anything unexpected."""
    if isinstance(exc, InputError):
        return exc.user_message
    if isinstance(exc, AssistantError):
        log.warning("engine failed for chat %s: %s", chat_id, type(exc).__name__)
        return exc.user_message
    log.error("unexpected engine failure for chat %s", chat_id, exc_info=exc)
    return texts.APOLOGY


async def send_answer(
    bot: Bot, chat_id: int, reply: Reply, base_url: str, reply_to: int | None
) -> None:
    """The answer in parts ≤ 4096; 👍/👎 under the last part."""
    parts = split_message(render_answer(reply.answer, base_url))
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        await send_part(
            bot,
            chat_id,
            part,
            reply_to=reply_to if index == 0 else None,
            markup=texts.feedback_keyboard(reply.message_id) if last else None,
        )


async def send_part(
    bot: Bot,
    chat_id: int,
    text: str,
    *,
    reply_to: int | None = None,
    markup: InlineKeyboardMarkup | None = None,
) -> None:
    """One HTML message; if Telegram cannot parse it, the same text without formatting."""
    reply = (
        ReplyParameters(message_id=reply_to, allow_sending_without_reply=True) if reply_to else None
    )
    try:
        await bot.send_message(chat_id, text, reply_markup=markup, reply_parameters=reply)
    except TelegramBadRequest as e:
        if "parse entities" not in e.message:
            raise
        log.error("Telegram rejected our HTML (%s); sending plain text", e.message)
        plain = html.unescape(visible_text(text))
        await bot.send_message(
            chat_id, plain, parse_mode=None, reply_markup=markup, reply_parameters=reply
        )
