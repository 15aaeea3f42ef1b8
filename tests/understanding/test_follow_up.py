"""Short follow-ups to a calculation (assistant/understanding/follow_up.py, merge in
calculation.py): a bare memory asked about after a memory calculation and the card it replaces,
a bare count, a bare price.

Expected values worked by hand (docs/calculators.md):
  Llama 3 70B (70,6B) in FP8: weights 70,6 GB; need (1,1…1,3) × 70,6 = 77,66…91,78 GB.
  On a card with 80 GB: 77,66 ≤ 80 < 91,78 → «tight»; ⌈91,78 / 80⌉ = 2 cards.
  On a card with 48 GB: 77,66 > 48 → «no».
  On 2 × H100: 91,78 / 2 = 45,89 GB per card → «fits».
  4 GPUs × 3 weeks (504 h) = 2 016 GPU-hours; at 4 $ = 8 064 $, at 3,2 $ = 6 451,2 $.
  H200 at 3,8 $/h for a month: 730 h × 3,8 = 2 774 $.
  Full fine-tuning of 8B with ZeRO-2 on 2 GPUs, per GPU: weights 16 + gradients 16/2 + master
  32/2 + moments 64/2 = 72 GB ≤ 80 GB of an H100.
  Llama 3 8B in FP16 at 16k: weights 16,06 GB + KV 131 072 B × 16 384 = 2,147 GB.
"""

from __future__ import annotations

import pytest

from tests.helpers import TOOLBOX, solve_chain

solve = TOOLBOX.solve
MEMORY_70B_FP8 = "Сколько памяти нужно Llama 3 70B в FP8?"


_chain = solve_chain


def test_bare_memory_with_a_verdict_after_a_memory_question_is_the_card() -> None:
    out = _chain(MEMORY_70B_FP8, "а 80 гигов хватит?")
    assert out.tool == "gpu_fit" and out.arguments["gpu_memory_gb"] == 80
    values = out.results[0].values
    assert (values["verdict"], values["gpus_needed"]) == ("tight", 2)


def test_bare_memory_replaces_the_catalogue_card_asked_about_before() -> None:
    out = _chain("влезет ли llama 3 70b в fp8 на h100?", "а 48 гб хватит?")
    assert "gpu" not in out.arguments and out.arguments["gpu_memory_gb"] == 48
    assert not out.rejected and out.results[0].values["verdict"] == "no"


def test_memory_without_a_verdict_is_not_a_card() -> None:
    """Without «хватит» / «влезет» a bare «80 гб» is not read as a card's memory."""
    out = _chain(MEMORY_70B_FP8, "а 80 гб это много?")
    assert "gpu_memory_gb" not in out.params


def test_an_unknown_card_with_its_memory_replaces_a_catalogue_card() -> None:
    """«а на A6000 на 48 ГБ?» after a fit on H100: one card, not both (was «укажите либо GPU
    из каталога, либо память карты»)."""
    out = _chain("влезет ли llama 3 70b в fp8 на h100?", "а на A6000 на 48 ГБ?")
    assert not out.rejected and "gpu" not in out.arguments
    assert out.arguments["gpu_memory_gb"] == 48 and out.results[0].values["verdict"] == "no"


def test_the_answer_to_the_memory_question_keeps_the_card_name() -> None:
    out = _chain("Влезет ли Llama 3 8B в FP16 на RTX A5000?", "у неё 24 ГБ")
    assert out.params["gpu_label"] == "RTX A5000" and out.arguments["gpu_memory_gb"] == 24


def test_bare_count_with_x_after_a_fit() -> None:
    out = _chain("влезет ли llama 3 70b в fp8 на h100?", "а на 2х?")
    assert out.tool == "gpu_fit" and out.arguments["gpus"] == 2
    assert out.results[0].values["verdict"] == "fits"


def test_bare_price_after_a_cost_keeps_its_period() -> None:
    first = "4 x H200 на 3 недели по 4$ в час за карту — сколько?"
    out = _chain(first, "а если по 3.2?")
    assert out.tool == "gpu_cost" and out.arguments["price_hour"] == 3.2
    assert out.results[0].values["job_cost"] == 6451.2


def test_bare_number_after_po_is_no_price_without_a_carried_price() -> None:
    out = _chain(MEMORY_70B_FP8, "а если по 3.2?")
    assert "price_hour" not in out.params and "price_month" not in out.params


@pytest.mark.parametrize("count", ["ну а две?", "а 2?", "а 2 штуки?", "а если 2 таких?"])
def test_a_number_alone_after_a_fit_on_a_card_is_the_count(count: str) -> None:
    out = _chain("влезет ли llama 3 70b в fp8 на h100?", count)
    assert out.tool == "gpu_fit" and out.arguments["gpus"] == 2


def test_a_number_alone_after_a_memory_question_is_no_count() -> None:
    out = _chain(MEMORY_70B_FP8, "а 2?")
    assert "gpus" not in out.params


@pytest.mark.parametrize("unit", ["а месяц?", "ну а месяц?", "а неделю?"])
def test_a_unit_alone_after_a_cost_is_the_duration(unit: str) -> None:
    out = _chain("H200 на неделю по 3.8$ в час сколько выйдет", "а 2 дня?", unit)
    assert out.tool == "gpu_cost" and out.arguments["duration"] == 1


def test_the_month_alone_costs_730_hours() -> None:
    out = _chain("H200 на неделю по 3.8$ в час сколько выйдет", "а месяц?")
    assert out.results[0].values["job_cost"] == pytest.approx(2774)


def test_a_fit_after_a_training_question_is_about_training_memory() -> None:
    out = _chain(
        "Полное дообучение 8B на 2 картах с ZeRO-2 — сколько памяти на карту?", "а на h100 влезет?"
    )
    assert out.tool == "vram_training" and out.arguments["gpu"] == "h100-sxm"
    values = out.results[0].values
    assert values["per_gpu_gb"] == 72 and values["fits"] is True


def test_a_longer_follow_up_asking_which_card_reads_the_bare_context() -> None:
    """«16к, и на какой карте лучше?» answers «Какой контекст?» and asks which card: six words,
    no «а» in front — a fit question within the calculation gate's 8 words."""
    out = _chain("хотим llama 3.1 8b fp16 крутить", "16к, и на какой карте лучше?")
    assert out.tool == "gpu_fit" and out.arguments["context_tokens"] == 16384
    assert out.results[0].values["need_high_gb"] == pytest.approx((16.06 + 2.147483648) * 1.3)


def test_a_longer_question_without_a_card_question_is_no_follow_up() -> None:
    out = _chain("хотим llama 3.1 8b fp16 крутить", "16к это нормальный контекст для чата?")
    assert not out.is_numeric


def test_take_eight_after_a_cost_is_the_count() -> None:
    out = _chain("сколько стоит 2 H100 на неделю по 3$ в час", "а если взять 8?")
    assert out.arguments["gpus"] == 8 and out.results[0].values["job_cost"] == 4032


@pytest.mark.parametrize(
    "question",
    ["will it fit on a 4090?", "окей, а в bf16 влезет в h100?", "а сколько таких нужно?"],
)
def test_longer_fit_questions_naming_what_to_fit_are_follow_ups(question: str) -> None:
    out = _chain("влезет ли qwen 2.5 72b в bf16 на h200?", question)
    assert out.tool == "gpu_fit" and out.arguments["model"] == "qwen2.5-72b"


def test_a_fit_word_in_a_complaint_is_no_follow_up() -> None:
    out = _chain(MEMORY_70B_FP8, "неделю не могу запустить модель, что делать?")
    assert not out.is_numeric


def test_what_about_a_term_is_no_follow_up() -> None:
    assert not _chain(MEMORY_70B_FP8, "what about nvlink?").is_numeric


@pytest.mark.parametrize("reply", ["12", "ну 12", "там 12 гигов"])
def test_a_number_alone_answers_the_memory_question(reply: str) -> None:
    out = _chain("Влезет ли Llama 3 8B в FP16 на RTX 3060?", reply)
    assert out.tool == "gpu_fit" and out.arguments["gpu_memory_gb"] == 12
    assert out.params["gpu_label"] == "RTX 3060" and out.results[0].values["verdict"] == "no"


def test_a_number_alone_is_no_memory_without_the_question() -> None:
    out = _chain("влезет ли llama 3 70b в fp8 на h100?", "12")
    assert "gpu_memory_gb" not in out.params
