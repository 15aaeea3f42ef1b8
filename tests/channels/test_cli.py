"""`assistant telegram`: clear Russian refusal without a token; webhook registration and removal."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from assistant.settings import ROOT
from tests.channels.botapi_server import BotAPIServer
from tests.channels.conftest import TOKEN


def run_cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    code = "from assistant.cli import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, "telegram", *args],
        cwd=ROOT / "tests",  # no .env picked up
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_no_token_exits_2_with_a_russian_message() -> None:
    result = run_cli()
    assert result.returncode == 2
    assert "не задан токен Telegram-бота" in result.stderr
    assert "Traceback" not in result.stderr


# Each `assistant telegram` process imports aiogram (~4 s of its types on this machine): these
# end-to-end process tests belong to the slow tier.
@pytest.mark.slow
def test_webhook_registration(botapi: BotAPIServer) -> None:
    env = {"ASSISTANT_TELEGRAM_TOKEN": TOKEN, "ASSISTANT_TELEGRAM_API_BASE": botapi.base_url}
    url = "https://bot.fullgpu.example/telegram/webhook"
    result = run_cli("--webhook-url", url, **env, ASSISTANT_TELEGRAM_WEBHOOK_SECRET="s3cret-1")
    assert result.returncode == 0, result.stderr
    [call] = botapi.calls_of("setWebhook")
    assert call.params["url"] == url and call.params["secret_token"] == "s3cret-1"
    assert botapi.webhook["url"] == url
    http = run_cli("--webhook-url", "http://insecure.example/hook", **env)
    assert http.returncode == 2 and "HTTPS" in http.stderr
    assert TOKEN.partition(":")[2] not in http.stderr + result.stderr
    assert run_cli("--delete-webhook", **env).returncode == 0
    assert botapi.webhook == {}


@pytest.mark.slow
def test_rejected_token_exits_2(botapi: BotAPIServer) -> None:
    wrong = "5:" + "y" * 35
    env = {"ASSISTANT_TELEGRAM_TOKEN": wrong, "ASSISTANT_TELEGRAM_API_BASE": botapi.base_url}
    result = run_cli("--delete-webhook", **env)
    assert result.returncode == 2 and "отклонил токен" in result.stderr
    assert "y" * 35 not in result.stderr
