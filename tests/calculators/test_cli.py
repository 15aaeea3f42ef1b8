"""CLI: vram/fit/cost/calc with flags, JSON, stdin mode, errors exit 2; eval tools meets target."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from assistant.cli import _register_all, app

_register_all()
runner = CliRunner()


def test_vram_flags() -> None:
    r = runner.invoke(app, ["vram", "70B", "--precision", "bf16", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["values"]["weights_gb"] == 140


def test_vram_training_and_fit_and_cost() -> None:
    r = runner.invoke(app, ["vram", "7", "--train", "full", "--json"])
    assert json.loads(r.output)["values"]["total_gb"] == 112
    r = runner.invoke(app, ["fit", "llama 3 70b", "-p", "fp8", "--gpu", "h200", "--json"])
    assert json.loads(r.output)["values"]["fits"] is True
    r = runner.invoke(app, ["cost", "--price-month", "2190", "--gpus", "8", "--hours", "10"])
    assert r.exit_code == 0 and "240" in r.output and "730" in r.output


def test_calc_free_text_and_stdin() -> None:
    r = runner.invoke(app, ["calc", "сколько памяти нужно 70B в FP8"])
    assert r.exit_code == 0 and "70" in r.output
    r = runner.invoke(
        app, ["calc", "--json", "-"], input="сколько памяти нужно 70B в FP8\nчто такое FP8?\n"
    )
    lines = [json.loads(x) for x in r.output.splitlines()]
    assert [x["is_numeric"] for x in lines] == [True, False]


def test_bad_input_exits_2_with_russian_message() -> None:
    r = runner.invoke(app, ["vram", "0", "-p", "bf16"])
    assert r.exit_code == 2 and "больше нуля" in r.output
    r = runner.invoke(app, ["fit", "70", "-p", "bf16", "--gpu", "voodoo"])
    assert r.exit_code == 2 and "нет в каталоге" in r.output


def test_eval_tools_meets_target() -> None:
    r = runner.invoke(app, ["eval", "tools", "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.output)
    assert report["cases"] >= 120
    assert report["extraction_exact"] >= 0.97
    assert report["results_correct"] == 1.0
