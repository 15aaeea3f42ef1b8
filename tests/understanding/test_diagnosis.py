"""understanding/diagnosis.py: a problem with a model and a card named is computed, with what
would help as the plan's last runs; a problem without them is not."""

from __future__ import annotations

from typing import Any

from assistant.corpus.catalog import Catalog
from assistant.understanding.calculation import Plan
from assistant.understanding.decide import Kind, decide
from assistant.understanding.diagnosis import PRECISION_ASSUMED, diagnose
from assistant.understanding.params import Params
from assistant.understanding.reader import Reader


def plan(catalog: Catalog, text: str) -> Plan | None:
    return diagnose(Reader(catalog).read(text), Params(), catalog)


def runs(p: Plan) -> list[dict[str, Any]]:
    return [r.model_dump() for r in p.runs]


def test_an_oom_with_the_setup_named_is_its_calculation_plus_lighter_precisions(
    catalog: Catalog,
) -> None:
    p = plan(catalog, "Llama 3 70B в bf16 не стартует на одной h100, сразу oom. что делать?")
    assert p is not None and p.tool == "gpu_fit"
    assert [r["precision"] for r in runs(p)] == ["bf16", "fp8", "int4", "bf16"]
    assert p.remedies == 3
    # lighter precisions on the same card; the same precision on the next larger SXM card
    assert [r["gpu"] for r in runs(p)] == ["h100-sxm"] * 3 + ["h200"]


def test_a_card_that_computes_in_fp4_is_offered_fp4_not_int4(catalog: Catalog) -> None:
    p = plan(catalog, "Llama 3.1 405B в FP8 на одной MI355X падает по памяти при загрузке")
    assert p is not None and [r["precision"] for r in runs(p)] == ["fp8", "fp4"]


def test_a_full_fine_tune_is_offered_lora_qlora_and_sharding(catalog: Catalog) -> None:
    p = plan(catalog, "полный файнтюн Mistral 7B на одной H100 вылетает по памяти")
    assert p is not None and p.tool == "vram_training"
    shapes = [(r["method"], r["gpus"], r["sharding"]) for r in runs(p)]
    assert shapes[0] == ("full", 1, "none")
    assert ("lora", 1, "none") in shapes and ("qlora", 1, "none") in shapes
    assert ("full", 2, "zero3") in shapes and ("full", 4, "zero3") in shapes


def test_an_unnamed_precision_is_taken_as_published_and_said(catalog: Catalog) -> None:
    p = plan(catalog, "vllm падает с out of memory на Mixtral 8x7B на одной L40S")
    assert p is not None and runs(p)[0]["precision"] == "bf16"
    assert PRECISION_ASSUMED in p.notes


def test_a_problem_with_nothing_to_compute_has_no_diagnosis(catalog: Catalog) -> None:
    for text in (
        "на длинных доках модель падает по памяти",
        "2 сервера по 8×H100, через пару часов всё встаёт и падает",
    ):
        assert plan(catalog, text) is None, text


def test_a_problem_about_what_no_entry_describes_gets_no_fit(catalog: Catalog) -> None:
    """«насколько падает перплексия при awq?»: a quality measure the glossary does not give;
    a fit of the model named would answer another question."""
    reader = Reader(catalog)
    text = "насколько падает перплексия llama 3 8b при awq 4 бит против gptq?"
    u = decide(reader.read(text), Params(), catalog)
    assert u.kind is Kind.question and u.plan is None
    oom = "llama 3 70b в bf16 на одной h100 падает с OOM, что делать?"
    assert decide(reader.read(oom), Params(), catalog).plan is not None  # memory keeps figures
