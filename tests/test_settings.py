"""Settings edge: a bad environment value is a ConfigError naming the variable, no traceback."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from assistant.errors import ConfigError
from assistant.settings import load_settings


def test_bad_values_name_every_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSISTANT_EMBEDDING_BACKEND", "tensorflow")
    monkeypatch.setenv("ASSISTANT_PORT", "восемь тысяч")
    with pytest.raises(ConfigError) as caught:
        load_settings()
    text = str(caught.value)
    assert "ASSISTANT_EMBEDDING_BACKEND — допустимо: 'onnx' или 'torch'" in text
    assert "ASSISTANT_PORT — нужно целое число" in text
    assert caught.value.user_message == text and "\n" not in text  # one line for the CLI


def test_an_unknown_console_time_zone_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSISTANT_CONSOLE_TIMEZONE", "Europe/Atlantis")
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert "ASSISTANT_CONSOLE_TIMEZONE" in str(caught.value) and "Europe/Atlantis" in str(
        caught.value
    )
    monkeypatch.setenv("ASSISTANT_CONSOLE_TIMEZONE", "Asia/Yekaterinburg")
    assert load_settings().console_timezone == "Asia/Yekaterinburg"


def test_good_values_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSISTANT_EMBEDDING_BACKEND", "torch")
    monkeypatch.setenv("ASSISTANT_MAX_CONCURRENT_ANSWERS", "3")
    s = load_settings()
    assert s.embedding_backend == "torch" and s.max_concurrent_answers == 3


def test_cli_reports_bad_settings_and_exits_2() -> None:
    from assistant.cli import _register_all, app

    _register_all()
    result = CliRunner().invoke(
        app, ["search", "что такое nvlink"], env={"ASSISTANT_EMBEDDING_BACKEND": "tensorflow"}
    )
    assert result.exit_code == 2
    assert "ASSISTANT_EMBEDDING_BACKEND" in result.output
    assert "Traceback" not in result.output and "pydantic" not in result.output
