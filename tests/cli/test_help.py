"""`--help` and usage errors speak Russian only: typer's English strings never reach a person."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from assistant.cli import _register_all, app

_register_all()
runner = CliRunner()
ENGLISH = re.compile(
    r"Usage|Options|Arguments|Commands|Show this message|<bool>|<str>|<int>|<float>|\[required\]"
    r"|Missing argument|No such option|Invalid value|Try '|Error"
)


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["ask", "--help"],
        ["chat", "--help"],
        ["fit", "--help"],
        ["index", "--help"],
        ["index", "build", "--help"],
        ["eval", "--help"],
        ["eval", "answers", "--help"],
    ],
)
def test_help_is_russian(args: list[str]) -> None:
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    assert not ENGLISH.search(r.output), r.output
    assert "Использование:" in r.output and "Показать эту справку и выйти." in r.output


def test_help_lists_commands_arguments_and_types() -> None:
    top = runner.invoke(app, ["--help"]).output
    assert "Команды" in top and "ask" in top and "serve" in top
    ask = runner.invoke(app, ["ask", "--help"]).output
    assert "ask [ПАРАМЕТРЫ] ВОПРОС" in ask and "[обязательно]" in ask
    assert "--verbose" in ask and "--json" in ask
    fit = runner.invoke(app, ["fit", "--help"]).output
    assert re.search(r"--gpus, -n\s+ЧИСЛО", fit)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ask"], "не указан аргумент ВОПРОС"),
        (["ask", "--bogus", "x"], "нет такого параметра: --bogus"),
        (["vram", "70", "--context", "abc"], "неверное значение параметра --context"),
        (["nosuch"], "нет такой команды: «nosuch»"),
        (["vram", "70", "b", "c"], "лишний аргумент: b c"),
    ],
)
def test_usage_errors_are_one_russian_line(args: list[str], message: str) -> None:
    r = runner.invoke(app, args)
    assert r.exit_code == 2
    assert message in r.output and not ENGLISH.search(r.output), r.output
    assert r.output.count("Ошибка:") == 1


def test_calculator_error_is_printed_once() -> None:
    r = runner.invoke(app, ["fit", "70", "-p", "bf16", "--gpu", "voodoo"])
    assert r.exit_code == 2
    assert r.output.count("нет в каталоге") == 1, r.output
