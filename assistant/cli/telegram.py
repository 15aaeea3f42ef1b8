"""`assistant telegram`: run the Telegram bot by long polling, or register its webhook."""

from __future__ import annotations

import asyncio
import logging

import typer

from assistant.cli import app
from assistant.cli.common import err_console, settings, user_errors
from assistant.settings import Settings


@app.command("telegram")
def telegram(
    webhook_url: str = typer.Option(
        "",
        "--webhook-url",
        help="HTTPS-адрес маршрута /telegram/webhook HTTP-сервиса: зарегистрировать вебхук и выйти",
    ),
    delete_webhook: bool = typer.Option(
        False, "--delete-webhook", help="Удалить вебхук и выйти (вернуться к long polling)"
    ),
) -> None:
    """Telegram-бот: long polling (по умолчанию) или регистрация вебхука."""
    config = settings()
    token = config.telegram_token.get_secret_value().strip()
    if not token:
        err_console.print(
            "[red]Ошибка:[/red] не задан токен Telegram-бота. Укажите его в переменной "
            "окружения ASSISTANT_TELEGRAM_TOKEN (или в файле .env) и запустите снова."
        )
        raise typer.Exit(2)
    from assistant.channels.telegram.retry import install_log_redaction

    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    install_log_redaction(token)
    from aiogram.exceptions import TelegramAPIError

    from assistant.channels.telegram.retry import redact

    with user_errors():
        try:
            if webhook_url or delete_webhook:
                asyncio.run(_webhook(config, webhook_url))
            else:
                asyncio.run(_poll(config))
        except TelegramAPIError as e:
            err_console.print(f"[red]Ошибка Telegram:[/red] {redact(e.message, token)}")
            raise typer.Exit(2) from None


async def _webhook(config: Settings, url: str) -> None:
    from assistant.channels.telegram import build_bot, register_webhook
    from assistant.channels.telegram.polling import check_token

    bot = build_bot(config)
    try:
        await check_token(bot)
        if url:
            await register_webhook(bot, config, url)
            err_console.print(f"Вебхук зарегистрирован: {url}. Обновления принимает HTTP-сервис.")
        else:
            await bot.delete_webhook(drop_pending_updates=False)
            err_console.print("Вебхук удалён: бот снова может работать через long polling.")
    finally:
        await bot.session.close()


async def _poll(config: Settings) -> None:
    from assistant.channels.telegram import create_telegram, run_polling
    from assistant.conversation import ChatService
    from assistant.conversation.retention import Retention
    from assistant.pipeline import build_pipeline
    from assistant.storage import open_repository

    err_console.print("Загружаю модель и индекс…")
    pipeline = await asyncio.to_thread(build_pipeline, config)
    repository = open_repository(config)
    retention = Retention(repository, config.retention_days)  # the bot keeps the same promise
    try:
        service = ChatService(pipeline, config, repository)
        retention.start()
        await run_polling(create_telegram(config, service))
    finally:
        await retention.stop()
        repository.close()
