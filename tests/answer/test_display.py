"""Display block: Russian labels, rounded numbers, display names, stated inputs, no keys or ids."""

from __future__ import annotations

import json
import re

import pytest

from assistant.answer.calculations.display import build_display
from assistant.answer.calculations.words import gb_span, gpu_name, num, usd
from assistant.calculators.base import ToolResult
from assistant.schema import Display
from tests.helpers import CATALOG, TOOLBOX

run = TOOLBOX.run

NB = "\u00a0"
QUESTIONS = (
    "сколько памяти нужно Qwen 32B в FP8 с контекстом 8k?",
    "поместится ли llama 3 70b в fp8 на 2 h100 с контекстом 32k",
    "поместится ли Llama 3 70B в FP8 на H100?",
    "какие gpu подойдут для 405B в bf16",
    "сколько памяти для полного дообучения 8B на 4 GPU с zero3",
    "qlora 70b на h100",
    "сколько стоит 8 H100 на неделю",
    "H100 за 2190 $ в месяц это сколько в час",
    "сколько GPU-часов 4 карты на 3 дня",
    "сколько трафика включено на 8 gpu",
    "сколько видеопамяти нужно для 70B?",
)
# what must never reach a person: keys, ids, reprs, raw floats, English enum values
LEAKS = (
    re.compile(r"_gb\b|_pct\b|_tokens\b|params_b|kv_precision|price_month|gpus_needed"),
    re.compile(r"h100-sxm|gb300-nvl72|rtx-pro-6000|rtx-5090|llama-3-70b|qwen3-32b"),
    re.compile(r"\{'|\['|\[object|None|True|False"),
    re.compile(r"\d\.\d"),  # a decimal point instead of a comma
    re.compile(r"\d{5,}"),  # an unseparated long number
    re.compile(r"\b(?:fits|tight|verdict|weeks|days|per_gpu|total|qlora|full)\b"),
    re.compile(r"glossary:"),
)


def strings(display: Display) -> list[str]:
    out: list[str] = []

    def walk(x: object) -> None:
        if isinstance(x, str):
            out.append(x)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(display.model_dump())
    names = sorted((m.name for m in CATALOG.models.values()), key=len, reverse=True)
    for i, text in enumerate(out):  # «Llama 3 / 3.1 70B»: a version, not a decimal point
        for name in names:
            text = text.replace(name, "МОДЕЛЬ")
        out[i] = text
    return out


def displays(question: str) -> list[Display]:
    out = TOOLBOX.solve(question)
    assert out.results, question
    return [TOOLBOX.display(r, out.arguments, out.notes_ru) for r in out.results]


@pytest.mark.parametrize("question", QUESTIONS)
def test_nothing_a_person_reads_is_a_key_id_or_repr(question: str) -> None:
    for display in displays(question):
        for text in strings(display):
            for leak in LEAKS:
                assert not leak.search(text), (question, text)
        labels = [i.label for i in display.inputs]
        assert len(labels) == len(set(labels))  # no duplicated inputs
        assert display.title and display.headline.endswith(".")
        assert display.source.startswith("Расчёт: ")


def test_numbers_round_by_magnitude_with_a_decimal_comma() -> None:
    assert num(1344) == f"1{NB}344"
    assert num(70.63) == "70,6"
    assert num(0.523) == "0,52"
    assert num(2.147483648) == "2,1"
    assert num(140.0) == "140"
    assert num(45.0) == "45"
    assert gb_span(77.66, 91.78) == f"77–92{NB}ГБ"
    assert gb_span(7.06, 21.2, whole=False) == f"7,1–21,2{NB}ГБ"
    assert usd(3.0) == f"3,00{NB}$" and usd(4032.0) == f"4{NB}032{NB}$"


def test_gpu_display_names_come_from_the_catalogue() -> None:
    assert gpu_name("h100-sxm", CATALOG) == "H100 SXM"
    assert gpu_name("gb300-nvl72", CATALOG) == "GB300 NVL72"
    assert gpu_name("rtx-5090", CATALOG) == "RTX 5090"
    for g in CATALOG.gpus:
        name = gpu_name(g, CATALOG)
        assert name and "NVIDIA" not in name and "(" not in name and name != g


def test_inference_breakdown_weights_kv_overhead_total() -> None:
    [d] = displays("сколько памяти нужно Qwen 32B в FP8 с контекстом 8k?")
    assert d.title == "Память для инференса"
    rows = {r.label: r for r in d.rows}
    assert list(rows) == ["Веса", "KV-кэш", f"Запас 10–30{NB}%", "Итого"]
    assert rows["Веса"].value == f"32,8{NB}ГБ" and "FP8" in rows["Веса"].note
    assert rows["KV-кэш"].value == f"2,1{NB}ГБ"
    assert rows["Итого"].strong and rows["Итого"].value == f"38–46{NB}ГБ"
    assert [i.label for i in d.inputs] == ["Модель", "Точность весов", "Контекст"]
    # defaults are assumptions, each marked; the parser's note comes first
    assert d.assumptions[0] == "8k понимаем как 8 192 токена"  # the parser's note, agreed
    assert "KV-кэш в FP16 — по умолчанию" in d.assumptions
    assert f"1{NB}одновременный запрос — по умолчанию" in d.assumptions
    assert sum("FP16" in a for a in d.assumptions) == 1  # said once, not twice


def test_fit_has_the_gpu_options_table_and_a_verdict() -> None:
    [d] = displays("поместится ли Llama 3 70B в FP8 на H100?")
    assert d.title == "Подбор GPU"
    assert d.table is not None
    assert d.table.columns == ["GPU", "Память", "Нужно GPU", "На одну карту?"]
    table = {row[0]: row for row in d.table.rows}
    # the GPUs FullGPU offers (corpus/gpus.yaml `offered`); the ones it does not are shown only
    # when asked about, marked «не предлагаем»
    assert len(table) == len([g for g in CATALOG.gpus.values() if g.offered])
    assert table["H100 SXM"] == ["H100 SXM", f"80{NB}ГБ", "2", "впритык"]
    assert table["H200"][1:] == [f"141{NB}ГБ", "1", "да"]
    assert table["RTX 5090"][3] == "нет"
    assert "впритык" in d.headline and "H100 SXM" in d.headline
    # weights come from the fit's own breakdown
    assert [r.label for r in d.rows][:1] == ["Веса"]
    assert any(r.label == "H100 SXM" and r.value == "впритык" for r in d.rows)


def test_fit_across_gpus_shows_the_share_per_gpu() -> None:
    [d] = displays("поместится ли llama 3 70b в fp8 на 2 h100 с контекстом 32k")
    labels = [r.label for r in d.rows]
    assert f"На каждую из 2{NB}GPU" in labels and "2 × H100 SXM" in labels
    assert "поместится на 2 × H100 SXM" in d.headline


def test_cost_hours_times_price_equals_total() -> None:
    [d] = displays("сколько стоит 8 H100 на неделю")
    assert d.title == "Стоимость аренды"
    rows = {r.label: r for r in d.rows}
    assert rows["Часы"].value == f"1{NB}344{NB}GPU-ч"
    assert rows["Часы"].note == f"8{NB}GPU × 168{NB}ч"
    assert rows["Цена GPU-часа"].value == f"3,00{NB}$"
    assert "пример из глоссария" in rows["Цена GPU-часа"].note
    assert rows["Итого"].strong and rows["Итого"].value == f"4{NB}032{NB}$"
    assert d.headline == f"8 × H100 SXM на 1{NB}неделю: около 4{NB}032{NB}$."


def test_a_stated_price_is_not_repeated_as_a_result_row() -> None:
    [d] = displays("H100 за 2190 $ в месяц это сколько в час")
    assert [i.value for i in d.inputs if i.label == "Цена"] == [f"2{NB}190{NB}$ в месяц"]
    assert [r.label for r in d.rows] == ["Цена GPU-часа"]


def test_training_rows_and_verdict() -> None:
    [d] = displays("qlora 70b на h100")
    assert d.title == "Память для обучения"
    assert [r.label for r in d.rows][:3] == ["Веса", "Градиенты", "Оптимизатор"]
    assert "QLoRA" in d.headline and "поместится" in d.headline
    assert {"label": "Метод", "value": "QLoRA"} in [i.model_dump() for i in d.inputs]


def test_unsharded_training_on_several_gpus_shows_the_sharded_row() -> None:
    [d] = displays("можно ли дообучить 70B целиком на одном сервере на 8 карт?")
    rows = {r.label: r.value for r in d.rows}
    assert rows["Итого на GPU"] == f"1{NB}120{NB}ГБ" and rows["С ZeRO-3 или FSDP"] == f"140{NB}ГБ"
    [sharded] = displays("полное дообучение 70B на 8 GPU с ZeRO-3")
    assert "С ZeRO-3 или FSDP" not in [r.label for r in sharded.rows]


def test_only_stated_inputs_are_listed() -> None:
    result = run("vram_inference", {"model": "Llama 3 70B", "precision": "fp8"})
    d = build_display(result, CATALOG, stated={"model", "precision"})
    assert [i.label for i in d.inputs] == ["Модель", "Точность весов"]
    guessed = build_display(
        result, CATALOG
    )  # without the engine's word: defaults and derived stay out
    assert [i.label for i in guessed.inputs] == ["Модель", "Точность весов"]


def test_reads_values_defensively() -> None:
    """A calculator that drops or renames values makes the display shorter, never broken."""
    result = run("vram_inference", {"params_b": 7, "precision": "bf16"})
    bare = result.model_copy(update={"values": {"weights_gb": "?", "unit": 3}})
    d = build_display(bare, CATALOG)
    assert d.title == "Память для инференса" and d.rows == []
    unknown = ToolResult(
        tool="new_tool",
        inputs={"x_gb": 1},
        defaults=[],
        formula="",
        values={"x_gb": 1.23456},
        summary_ru="Новый расчёт. Вторая фраза.",
        assumptions_ru=[],
    )
    d = build_display(unknown, CATALOG)
    assert d.title == "Расчёт" and d.headline == "Новый расчёт." and d.rows == []
    assert "x_gb" not in json.dumps(d.model_dump(), ensure_ascii=False)


def test_later_per_part_values_are_used_when_present() -> None:
    """overhead_low_gb / overhead_high_gb (planned in the calculators) replace the derivation."""
    result = run("vram_inference", {"params_b": 70, "precision": "bf16"})
    values = {**result.values, "overhead_low_gb": 15.0, "overhead_high_gb": 40.0}
    d = build_display(result.model_copy(update={"values": values}), CATALOG)
    [overhead] = [r for r in d.rows if r.label.startswith("Запас")]
    assert overhead.value == f"15–40{NB}ГБ"


def test_a_training_headline_declines_the_model_after_the_method() -> None:
    """«Полное дообучение модели на 13 млрд параметров», not «… модель на …»."""
    result = TOOLBOX.run("vram_training", {"params_b": 13, "method": "full"})
    head = build_display(result, CATALOG).headline.replace("\u00a0", " ")
    assert head.startswith("Полное дообучение модели на 13 млрд параметров")


def test_a_training_headline_on_several_cards_names_the_setup() -> None:
    """«DDP или FSDP?» computed side by side: the two cards read apart by their headlines."""
    ddp = TOOLBOX.run("vram_training", {"params_b": 13, "gpus": 8, "sharding": "none"})
    fsdp = TOOLBOX.run("vram_training", {"params_b": 13, "gpus": 8, "sharding": "fsdp"})
    heads = [build_display(r, CATALOG).headline.replace("\u00a0", " ") for r in (ddp, fsdp)]
    assert "с DDP на 8 GPU: около 208 ГБ на GPU" in heads[0]
    assert "с FSDP на 8 GPU: около 26 ГБ на GPU" in heads[1]
