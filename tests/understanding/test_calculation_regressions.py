"""Regressions from the dialogue eval (d28, d29) and the answer eval: follow-up carrying, server
prices, egress allowance, term questions that must not go to the calculators.

Expected values are worked by hand:
  KV cache, Llama 3 8B (32 layers, 8 KV heads, head dim 128, BF16 = 2 bytes):
    2 × 32 × 8 × 128 × 2 = 131 072 bytes per token
    8k   = 8 192 tokens   → 1 073 741 824 bytes  = 1.073741824 GB
    32k  = 32 768 tokens  → 4 294 967 296 bytes  = 4.294967296 GB
    128k = 131 072 tokens → 17 179 869 184 bytes = 17.179869184 GB
    8k × batch 16         → 17.179869184 GB
  Server price: 17 520 $ / month for 8 GPUs → 17 520 ÷ 8 = 2 190 $ per GPU per month;
    2 190 ÷ 730 = 3.00 $ per GPU-hour.
  Glossary H100 example: 2 190 $ / month = 3.00 $ / GPU-hour; 8 GPU × 168 h × 3 = 4 032 $;
    8 GPU × 10 h × 3 = 240 $.
  Egress (glossary:egress): 20 TB / month single-GPU plan, 50 TB on an 8-GPU server, no fee.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import TOOLBOX, solve_chain

solve = TOOLBOX.solve

KV_FIRST = "сколько памяти под kv-кэш для Llama 3 8B с контекстом 8k"
KV_FIRST_BF16 = "сколько нужно памяти под KV-кэш для llama 3 8b при контексте 8k в BF16"
COST_FIRST = "сколько стоит 8 H100 на 10 часов"
COST_ONE = "сколько стоит одна H100 на 10 часов"
SERVER = "сколько стоит один GPU-час, если сервер на 8 H100 стоит 17520$ в месяц"


_chain = solve_chain


# ---------------------------------------------------------------- 1. follow-up carrying


@pytest.mark.parametrize(
    ("first", "follow", "tool", "arguments", "values"),
    [
        (
            KV_FIRST,
            "а для 32k?",
            "vram_inference",
            {"model": "llama-3-8b", "context_tokens": 32768},
            {"kv_cache_gb": 4.294967296},
        ),
        (
            KV_FIRST_BF16,
            "а для 32k?",
            "vram_inference",
            {"model": "llama-3-8b", "context_tokens": 32768, "precision": "bf16"},
            {"kv_cache_gb": 4.294967296},
        ),
        (
            KV_FIRST,
            "а с контекстом 32k?",
            "vram_inference",
            {"model": "llama-3-8b", "context_tokens": 32768},
            {"kv_cache_gb": 4.294967296},
        ),
        (
            KV_FIRST,
            "а для 128k?",
            "vram_inference",
            {"model": "llama-3-8b", "context_tokens": 131072},
            {"kv_cache_gb": 17.179869184},
        ),
        (
            KV_FIRST,
            "а если батч 16?",
            "vram_inference",
            {"model": "llama-3-8b", "context_tokens": 8192, "batch": 16},
            {"kv_cache_gb": 17.179869184},
        ),
        (
            KV_FIRST_BF16,
            "а на 8 картах?",
            "gpu_fit",
            {"model": "llama-3-8b", "context_tokens": 8192, "precision": "bf16", "gpus": 8},
            {},
        ),
        (
            COST_FIRST,
            "а за неделю?",
            "gpu_cost",
            {"gpu": "h100-sxm", "gpus": 8, "duration": 1, "duration_unit": "weeks"},
            {"job_cost": 4032},
        ),
        (
            COST_ONE,
            "а на 8 картах?",
            "gpu_cost",
            {"gpu": "h100-sxm", "gpus": 8, "duration": 10, "duration_unit": "hours"},
            {"job_cost": 240},
        ),
    ],
)
def test_short_follow_up_changes_one_parameter(
    first: str, follow: str, tool: str, arguments: dict[str, Any], values: dict[str, float]
) -> None:
    out = _chain(first, follow)
    assert out.is_numeric is True, follow
    assert out.tool == tool
    assert {k: out.arguments.get(k) for k in arguments} == arguments
    for key, expected in values.items():
        assert out.results, out.missing
        assert out.results[0].values[key] == pytest.approx(expected, rel=1e-6), key


def test_term_question_between_keeps_params_for_the_next_follow_up() -> None:
    first = solve(KV_FIRST)
    term = solve("что такое KV-кэш?", carried=first.params)
    assert term.is_numeric is False
    again = solve("а для 32k?", carried=term.params)
    assert again.is_numeric is True and again.arguments["model"] == "llama-3-8b"
    assert again.results[0].values["kv_cache_gb"] == pytest.approx(4.294967296)


# ---------------------------------------------------------------- 2. server price vs per-GPU price


@pytest.mark.parametrize(
    "question",
    [
        SERVER,
        "сервер на 8 H100 стоит 17520 $ в месяц — сколько это за GPU-час?",
        "восьмикарточный сервер с H100 стоит 17520 $ в месяц, сколько стоит GPU-час?",
        "17520 $ в месяц за 8 карт H100 — какая цена одного GPU-часа?",
    ],
)
def test_server_price_is_for_all_its_gpus(question: str) -> None:
    out = solve(question)
    assert out.tool == "gpu_cost" and out.missing == []
    assert out.arguments["gpus"] == 8 and out.arguments["price_scope"] == "total"
    assert "duration" not in out.arguments  # only the rate was asked: no invented job
    v = out.results[0].values
    assert v["price_per_gpu_hour"] == pytest.approx(3.0)
    assert v["price_per_gpu_month"] == pytest.approx(2190)
    assert "job_cost" not in v and "gpu_hours" not in v
    assert "3,00\u00a0$" in out.answer_ru and "2\u00a0190\u00a0$ в месяц за GPU" in out.answer_ru


def test_server_price_follow_up_per_card_per_month() -> None:
    out = _chain(SERVER, "а в месяц на одну карту сколько выходит?")
    assert out.is_numeric is True and out.tool == "gpu_cost"
    v = out.results[0].values
    assert v["price_per_gpu_month"] == pytest.approx(2190)
    assert v["price_per_gpu_hour"] == pytest.approx(3.0)
    assert "job_cost" not in v


@pytest.mark.parametrize(
    "question",
    [
        "сервер на 8 H100 по 2190 $ в месяц за карту — сколько стоят 10 часов?",
        "сервер на 8 H100 по 2190 $ в месяц — сколько стоят 10 часов?",  # «по» — each
        "сервер на 8 H100, 2190 $ в месяц per GPU — сколько стоят 10 часов?",
    ],
)
def test_explicit_per_card_price_on_a_server_stays_per_gpu(question: str) -> None:
    out = solve(question)
    assert out.arguments.get("price_scope", "per_gpu") == "per_gpu"
    assert out.results[0].values["job_cost"] == pytest.approx(240)


# ---------------------------------------------------------------- 3. egress needs no price


@pytest.mark.parametrize(
    ("question", "tb"),
    [
        ("сколько терабайт в месяц можно отдавать наружу с 8-GPU сервера без доплаты", 50),
        ("сколько можно скачивать с сервера в месяц на тарифе с одним GPU?", 20),
        ("какой лимит на исходящий трафик у 8-GPU сервера", 50),
        ("есть ли плата за трафик на 8-GPU сервере?", 50),
        ("egress на тарифе с одним GPU платный?", 20),
    ],
)
def test_egress_allowance_needs_no_price(question: str, tb: float) -> None:
    out = solve(question)
    assert out.is_numeric is True and out.tool == "gpu_cost"
    assert out.missing == [] and out.arguments.get("egress") is True
    v = out.results[0].values
    assert v["egress_tb_included"] == tb and v["egress_fee"] == 0


def test_cost_question_mentioning_traffic_still_needs_a_price() -> None:
    out = solve("сколько стоит сервер на 8 карт на неделю вместе с исходящим трафиком?")
    assert out.tool == "gpu_cost" and out.missing == ["price"]


# ---------------------------------------------------------------- 4. term questions


@pytest.mark.parametrize(
    "text",
    [
        "как несколько карт обучают одну модель, когда каждая обрабатывает свою порцию данных",
        "как выгрузить температуру и энергопотребление видеокарт в prometheus",
        "на наш публичный IP льют трафик с тысяч адресов — вы что-то фильтруете до сервера?",
        "на сколько максимум изолированных экземпляров можно поделить одну карту",
        "что даёт GPUDirect при обучении на нескольких узлах",
        "в pytorch шардирую модель по картам, и вырос трафик между ними — это нормально?",
        "как перевести месячную цену сервера в почасовую цену за одну карту",
        "псиай экспресс 5 это сколько гб/с в одну сторону",
        "зеро3 или оффлоад чтоб влезло на 4 карты?",
        "почему при увеличении контекста до 128к модель перестаёт влезать в память",
        "как дообучить модель на 65B на одной карте с 48 ГБ",
    ],
)
def test_questions_without_quantities_are_not_numeric(text: str) -> None:
    out = solve(text)
    assert out.is_numeric is False, (out.tool, out.missing)


@pytest.mark.parametrize(
    "text",
    [
        "в fp16 лосс улетает в nan без loss scaling — какой 16-битный формат взять для обучения",
        "как выгрузить температуру и энергопотребление видеокарт в prometheus",
    ],
)
def test_long_unrelated_question_after_a_numeric_turn_is_not_numeric(text: str) -> None:
    first = solve("сколько памяти нужно 70B в FP8")
    assert solve(text, carried=first.params).is_numeric is False


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("Сколько памяти нужно модели в FP8?", "vram_inference"),
        ("Сколько памяти нужно для дообучения?", "vram_training"),
        ("Сколько стоит H100 в месяц?", "gpu_cost"),
        ("почём час одной h100 выходит если брать помесячно", "gpu_cost"),
        ("скока видеопамяти надо под ламу 70б", "vram_inference"),
    ],
)
def test_explicit_calculation_requests_stay_numeric(text: str, tool: str) -> None:
    out = solve(text)
    assert out.is_numeric is True and out.tool == tool


def test_a_duration_after_a_fit_asks_the_cost_of_those_cards() -> None:
    """«а за месяц аренды этих двух сколько выйдет?» after a fit on 2 × H100: only the cost
    calculator takes a duration (the glossary's example: 2 × 730 h × 3,00 $ = 4 380 $)."""
    out = _chain(
        "llama 3 70b fp8 8k context - сколько vram?",
        "а на 2 х H100 зайдет?",
        "а за месяц аренды этих двух сколько выйдет?",
    )
    assert out.tool == "gpu_cost" and out.arguments["gpus"] == 2
    assert out.results[0].values["gpu_hours"] == 1460
    assert out.results[0].values["job_cost"] == pytest.approx(4380)


def test_users_follow_up_is_a_batch_not_training() -> None:
    """«юзеров» holds «зеро»: it was read as ZeRO and answered with the training calculator.
    KV cache of Mistral 7B at 4k for 50 users: 131 072 B × 4 096 × 50 = 26,84 GB."""
    out = _chain("Mistral 7B fp8, ctx 4k, сколько гигов надо", "а на 50 юзеров?")
    assert out.tool == "vram_inference" and out.arguments["batch"] == 50
    assert out.results[0].values["kv_cache_gb"] == pytest.approx(26.843545600)


def test_how_much_will_it_come_to_without_a_price_asks_for_it() -> None:
    out = solve("сколько выйдет 4 карты L40S на месяц?")
    assert out.tool == "gpu_cost" and out.missing == ["price"]
    paid = solve("ну пусть 1.5 бакса в час за карту", carried=out.params)
    assert paid.results[0].values["job_cost"] == pytest.approx(4 * 730 * 1.5)
