"""The bot's fixed Russian texts, example questions and inline keyboards (callback data formats)."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

EXAMPLES = (
    "Что такое NVLink?",
    "Сколько видеопамяти нужно для Llama 3 70B в FP8?",
    "Сколько стоит аренда 8 GPU H100 на неделю?",
)

START = (
    "Здравствуйте! Я ассистент FullGPU: отвечаю на вопросы о GPU и инфраструктуре для ИИ "
    "по нашему глоссарию — со ссылками на статьи — и считаю видеопамять, подбор GPU и "
    "стоимость аренды.\n\n"
    "Спрашивайте коротко, можно уточнять: «а в FP8?». Попробуйте один из вопросов ниже."
)
HELP = (
    "<b>Что я умею</b>\n"
    "• объяснить термин: «что такое HBM?»\n"
    "• сравнить: «NVLink или PCIe?»\n"
    "• посчитать: «сколько памяти нужно Qwen 32B в FP8 с контекстом 8k?», "
    "«поместится ли 70B на H100?», «сколько стоит 8 H100 на месяц?»\n\n"
    "Уточняющие вопросы понимаю с учётом предыдущего ответа.\n"
    "/reset — начать новый разговор\n"
    "/forget — удалить нашу переписку с сервера\n"
    "/help — эта подсказка\n\n"
    "В группе отвечаю, когда меня упоминают или отвечают на моё сообщение.\n"
    "Под ответом можно поставить 👍 или 👎 — это помогает нам улучшать ответы."
)
RESET = "Начали новый разговор: предыдущие вопросы больше не учитываются."
FORGOTTEN = (
    "Удалил нашу переписку с сервера: ваши вопросы, мои ответы и оценки. "
    "Следующий вопрос начнёт новый разговор."
)
NOTHING_TO_FORGET = "У меня нет сохранённой переписки с этим чатом — удалять нечего."
NOT_TEXT = (
    "Я понимаю только текстовые сообщения. Напишите вопрос словами, например: «что такое NVLink?»"
)
APOLOGY = "Извините, не получилось ответить на этот вопрос. Попробуйте ещё раз чуть позже."
EMPTY_MENTION = "Слушаю! Задайте вопрос о GPU или инфраструктуре для ИИ."
FEEDBACK_THANKS = "Спасибо за оценку!"
FEEDBACK_GONE = "Этот ответ больше недоступен для оценки."

EXAMPLE_PREFIX = "ex:"
FEEDBACK_PREFIX = "fb:"


def examples_keyboard() -> InlineKeyboardMarkup:
    """One button per example question; the callback data is its index («ex:0»)."""
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text=q, callback_data=f"{EXAMPLE_PREFIX}{i}")]
            for i, q in enumerate(EXAMPLES)
        ]
    )


def feedback_keyboard(message_id: str) -> InlineKeyboardMarkup:
    """👍/👎 under an answer: «fb:+:<stored id>» / «fb:-:<stored id>» (≤ 64 bytes)."""
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text="👍", callback_data=f"{FEEDBACK_PREFIX}+:{message_id}"),
                InlineKeyboardButton(text="👎", callback_data=f"{FEEDBACK_PREFIX}-:{message_id}"),
            ]
        ]
    )


def parse_feedback(data: str) -> tuple[int, str] | None:
    """«fb:+:<id>» → (+1, id); anything malformed → None."""
    if not data.startswith(FEEDBACK_PREFIX):
        return None
    sign, _, message_id = data.removeprefix(FEEDBACK_PREFIX).partition(":")
    if sign not in ("+", "-") or not message_id:
        return None
    return (1 if sign == "+" else -1), message_id


def parse_example(data: str) -> str | None:
    """«ex:1» → the example question; anything else → None."""
    index = data.removeprefix(EXAMPLE_PREFIX)
    if not data.startswith(EXAMPLE_PREFIX) or not index.isdigit() or int(index) >= len(EXAMPLES):
        return None
    return EXAMPLES[int(index)]
