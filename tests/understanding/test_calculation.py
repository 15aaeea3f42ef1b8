"""solve(): routing numeric vs term questions, clarification, carried follow-ups, answer text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import TOOLBOX

solve = TOOLBOX.solve

TERM_SLUGS = {
    line.split("\t")[1]
    for line in (Path(__file__).parents[2] / "corpus/source/term-slugs.tsv")
    .read_text(encoding="utf-8")
    .splitlines()[1:]
}


@pytest.mark.parametrize(
    "text",
    [
        "что такое FP8?",
        "чем HBM отличается от GDDR7",
        "Что такое GPU-час?",
        "Сколько памяти у H200?",
        "Расскажи про ZeRO и FSDP",
        "Привет!",
    ],
)
def test_term_questions_are_not_numeric(text: str) -> None:
    out = solve(text)
    assert out.is_numeric is False and out.results == []


def test_missing_precision_asks_once_and_shows_side_by_side() -> None:
    out = solve("сколько памяти нужно 70B")
    assert out.missing == ["precision"]
    assert out.clarify_question and "BF16, FP8 или FP4" in out.clarify_question
    weights = [r.values["weights_gb"] for r in out.results]
    assert weights == [140, 70, 35]  # BF16, FP8, FP4 — glossary:vram, glossary:fp4
    assert "140\u00a0ГБ" in out.answer_ru and out.answer_ru.endswith("посчитаю для BF16.")


def test_missing_size_has_no_results() -> None:
    out = solve("Сколько памяти нужно модели в FP8?")
    assert out.missing == ["params_b"] and out.results == []


def test_follow_ups_inherit_parameters() -> None:
    first = solve("сколько памяти нужно 70B")
    fp8 = solve("а в FP8?", carried=first.params)
    assert fp8.arguments == {"params_b": 70, "precision": "fp8"}
    assert fp8.results[0].values["weights_gb"] == 70
    ctx = solve("а с контекстом 32k?", carried=fp8.params)
    assert ctx.arguments["context_tokens"] == 32768 and ctx.arguments["params_b"] == 70
    gpus = solve("а на 8 картах H100?", carried=ctx.params)
    assert gpus.tool == "gpu_fit" and gpus.arguments["gpus"] == 8
    assert gpus.arguments["precision"] == "fp8"


def test_cost_follow_up_changes_duration_only() -> None:
    first = solve("сколько стоит 8 H100 на 10 часов")
    week = solve("а за неделю?", carried=first.params)
    assert week.tool == "gpu_cost"
    assert week.arguments["gpus"] == 8 and week.arguments["duration_unit"] == "weeks"
    assert week.results[0].values["job_cost"] == pytest.approx(8 * 168 * 3.0)


def test_term_question_between_numeric_turns_keeps_params() -> None:
    first = solve("сколько памяти нужно 70B в FP8")
    term = solve("что такое FP8?", carried=first.params)
    assert term.is_numeric is False
    again = solve("а в FP4?", carried=term.params)
    assert again.results[0].values["weights_gb"] == 35


def test_related_slugs_exist_in_glossary() -> None:
    for q in [
        "Llama 3 70B в FP8 с контекстом 32k",
        "QLoRA 65B на одной L40S",
        "полное дообучение 70B на 8 GPU с ZeRO-3",
        "сколько трафика включено на 8-GPU сервере",
        "влезет ли 405B в FP4 на 8×H100",
    ]:
        out = solve(q)
        assert out.related_slugs and set(out.related_slugs) <= TERM_SLUGS, q
    assert "kv-cache" in solve("Llama 3 70B в FP8 с контекстом 32k").related_slugs
    assert "egress" in solve("сколько трафика включено на 8-GPU сервере").related_slugs


@pytest.mark.parametrize(
    ("question", "first_two"),
    [  # answers cite the first two: the most specific entries lead
        ("можно ли дообучить 70B целиком на одном сервере на 8 карт?", ["vram", "zero"]),
        ("QLoRA 65B на одной L40S", ["vram", "qlora"]),
        ("полное дообучение 70B на 8 GPU с FSDP", ["vram", "fsdp"]),
        ("полное дообучение 7B на одной карте", ["vram", "mixed-precision"]),
    ],
)
def test_training_cites_the_method_and_the_sharding_first(
    question: str, first_two: list[str]
) -> None:
    assert solve(question).related_slugs[:2] == first_two


def test_outcome_is_json_serialisable() -> None:
    json.dumps(solve("Llama 3 70B в FP8 на H100 с контекстом 32k").model_dump())


def test_answer_states_assumptions_and_tool() -> None:
    out = solve("Сколько памяти нужно 32B в FP8 при контексте 8192 токена?")
    text = out.answer_ru
    assert text.startswith("Нужно около 37–45\u00a0ГБ")  # the total first
    assert "Веса — 32\u00a0ГБ" in text
    assert "Допущения:" in text and "Расчёт: калькулятор VRAM." in text
    assert "37–45\u00a0ГБ" in text  # (32 + 2,15) × 1,1…1,3 — the style guide's example
