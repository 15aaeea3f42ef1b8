"""Hand-worked values for the calculators (figures from the glossary and worked by hand)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assistant.calculators.registry import ToolName, all_tools, get_tool, openai_tools
from assistant.corpus.catalog import load_catalog
from assistant.errors import ToolInputError
from assistant.numeric import Calculations
from assistant.settings import ROOT
from tests.helpers import TOOLBOX


def run(tool: str, **args: object) -> dict[str, Any]:
    return dict(TOOLBOX.run(tool, dict(args)).values)


@pytest.mark.parametrize(
    ("args", "key", "expected"),
    [
        ({"params_b": 70, "precision": "bf16"}, "weights_gb", 140.0),  # glossary:vram
        ({"params_b": 70, "precision": "fp4"}, "weights_gb", 35.0),  # glossary:fp4
        ({"params_b": 70, "precision": "fp8"}, "weights_gb", 70.0),
        ({"params_b": 7, "precision": "fp32"}, "weights_gb", 28.0),
        ({"params_b": 13, "precision": "int4"}, "weights_gb", 6.5),
        ({"params_b": 70, "precision": "bf16"}, "total_low_gb", 154.0),  # +10 %
        ({"params_b": 70, "precision": "bf16"}, "total_high_gb", 182.0),  # +30 %
        ({"params_b": 70, "precision": "fp8", "quant_scales": True}, "weights_gb", 74.375),
        ({"params_b": 1, "precision": "bf16", "gib": True}, "weights_gb", 1.8626),
    ],
)
def test_weights(args: dict[str, object], key: str, expected: float) -> None:
    assert run("vram_inference", **args)[key] == pytest.approx(expected, abs=1e-3)


def test_llama70b_kv_cache_32k_fp16() -> None:
    # 2 × 80 layers × 8 KV heads × 128 × 2 bytes × 32 768 tokens = 10 737 418 240 B ≈ 10,74 GB
    v = run(
        "vram_inference",
        params_b=70,
        precision="bf16",
        context_tokens=32768,
        layers=80,
        kv_heads=8,
        head_dim=128,
        kv_precision="fp16",
    )
    assert v["kv_cache_gb"] == pytest.approx(10.74, abs=0.005)
    r = TOOLBOX.run("vram_inference", {"model": "Llama 3 70B", "context_tokens": 32768})
    assert r.values["kv_cache_gb"] == pytest.approx(10.74, abs=0.005)
    assert "10,7\u00a0ГБ" in r.summary_ru and "80 слоёв × 8 KV-голов × 128" in r.summary_ru


def test_kv_batch_and_precision() -> None:
    # 8B Llama shape, 8 192 tokens × 8 sequences in FP8: 2×32×8×128×1×8192×8 = 4,29 GB
    v = run("vram_inference", model="llama 3 8b", context_tokens=8192, batch=8, kv_precision="fp8")
    assert v["kv_cache_gb"] == pytest.approx(4.295, abs=0.001)


def test_deepseek_uses_total_params_and_mla() -> None:
    v = run("vram_inference", model="DeepSeek-V3", precision="fp8", context_tokens=1000)
    assert v["weights_gb"] == pytest.approx(671)  # glossary:moe — all 671B must fit
    assert v["kv_cache_gb"] == pytest.approx(61 * 576 * 2 * 1000 / 1e9)


@pytest.mark.parametrize(
    ("args", "key", "expected"),
    [
        ({"params_b": 7}, "total_gb", 112.0),  # 16 bytes/param
        ({"params_b": 70, "gpus": 8, "sharding": "zero3"}, "per_gpu_gb", 140.0),
        ({"params_b": 70, "gpus": 8, "sharding": "fsdp"}, "per_gpu_gb", 140.0),
        ({"params_b": 10, "gpus": 4, "sharding": "zero1"}, "per_gpu_gb", 20 + 20 + 120 / 4),
        ({"params_b": 10, "gpus": 4, "sharding": "zero2"}, "per_gpu_gb", 20 + 140 / 4),
        ({"params_b": 10, "gpus": 4}, "per_gpu_gb", 160.0),  # plain data parallel
        ({"params_b": 65, "method": "qlora"}, "total_gb", 32.5 + 0.65 * 16),
        ({"params_b": 70, "method": "lora", "lora_trainable_pct": 0.5}, "total_gb", 140 + 5.6),
    ],
)
def test_training(args: dict[str, object], key: str, expected: float) -> None:
    assert run("vram_training", **args)[key] == pytest.approx(expected, abs=1e-3)


def test_unsharded_training_on_several_gpus_also_shows_the_sharded_need() -> None:
    """«можно ли дообучить 70B целиком на 8 картах?»: 1 120 ГБ on each GPU as asked, and the
    140 ГБ the same GPUs need with ZeRO-3/FSDP (glossary:zero, glossary:fsdp)."""
    v = run("vram_training", params_b=70, gpus=8)
    assert v["per_gpu_gb"] == pytest.approx(1120.0) and v["per_gpu_zero3_gb"] == pytest.approx(140)
    assert "per_gpu_zero3_gb" not in run("vram_training", params_b=70, gpus=8, sharding="zero3")
    assert "per_gpu_zero3_gb" not in run("vram_training", params_b=70)


def test_unsharded_training_on_several_gpus_names_data_parallelism() -> None:
    """Several GPUs without sharding is DDP: its text says so, as glossary:data-parallelism
    does («каждый GPU хранит полную копию модели»), so an answer names the customer's setup."""
    text = TOOLBOX.run("vram_training", {"params_b": 8, "gpus": 8}).summary_ru
    assert "параллелизме по данным" in text and "каждый из 8 GPU хранит полную копию" in text
    sharded = TOOLBOX.run("vram_training", {"params_b": 8, "gpus": 8, "sharding": "zero3"})
    assert "полную копию" not in sharded.summary_ru


def test_full_training_names_the_optimizer_state_it_adds_to_the_weights() -> None:
    """«модель же гигов 16 весит — почему OOM при файнтюне?»: gradients and the optimizer
    state are what training holds beyond the weights; the first sentence names both."""
    text = TOOLBOX.run("vram_training", {"params_b": 8}).summary_ru
    first = text.split(". ")[0]
    assert "градиенты 2" in first and "состояние оптимизатора 12" in first


def test_qlora_65b_fits_48gb_like_the_paper() -> None:
    v = run("vram_training", params_b=65, method="qlora", gpu="L40S")  # glossary:qlora
    assert v["fits"] is True


@pytest.mark.parametrize(
    ("args", "key", "expected"),
    [
        ({"price_month": 2190}, "price_per_gpu_hour", 3.0),  # glossary:gpu-hour
        ({"price_hour": 3}, "price_per_gpu_month", 2190.0),
        ({"gpus": 8, "duration": 10}, "gpu_hours", 80.0),  # glossary:gpu-hour
        ({"price_month": 2190, "gpus": 8, "duration": 10}, "job_cost", 240.0),
        ({"price_hour": 2, "duration": 3, "duration_unit": "days"}, "job_cost", 144.0),
        ({"price_hour": 1, "duration": 1, "duration_unit": "weeks"}, "job_cost", 168.0),
        ({"price_hour": 1, "duration": 2, "duration_unit": "months"}, "job_cost", 1460.0),
        ({"price_month": 17520, "gpus": 8, "price_scope": "total"}, "price_per_gpu_hour", 3.0),
        ({"gpus": 1}, "egress_tb_included", 20.0),  # glossary:egress
        ({"gpus": 8}, "egress_tb_included", 50.0),
        ({"gpus": 8}, "egress_fee", 0),
    ],
)
def test_cost(args: dict[str, object], key: str, expected: float) -> None:
    assert run("gpu_cost", **args)[key] == pytest.approx(expected)


def test_cost_states_730_convention_and_russian_money() -> None:
    r = TOOLBOX.run("gpu_cost", {"price_month": 2190})
    assert "730" in r.summary_ru
    assert "2\u00a0190\u00a0$" in r.summary_ru and "3,00\u00a0$" in r.summary_ru


def test_example_price_is_marked_as_example() -> None:
    r = TOOLBOX.run("gpu_cost", {"gpu": "H100", "duration": 1})
    assert r.values["job_cost"] == pytest.approx(3.0)
    assert any("пример" in a for a in r.assumptions_ru)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"params_b": 70, "precision": "bf16", "gpu": "h100"}, ("no", 4)),  # 182 GB / 80 → 3 → TP 4
        ({"params_b": 70, "precision": "bf16", "gpu": "h100", "gpus": 8}, ("fits", 4)),
        ({"params_b": 70, "precision": "fp8", "gpu": "h200"}, ("fits", 1)),  # 91 ≤ 141
        ({"params_b": 70, "precision": "bf16", "gpu": "b200"}, ("tight", 2)),  # 154 ≤ 180 < 182
        ({"required_gb": 100, "gpu": "l40s"}, ("no", 4)),  # 100 / 48 → 3 → TP 4
        ({"params_b": 671, "precision": "fp8", "gpu": "h200"}, ("no", 8)),  # 872 / 141 → 7 → 8
    ],
)
def test_fit(args: dict[str, object], expected: tuple[str, int]) -> None:
    v = run("gpu_fit", **args)
    assert (v["verdict"], v["gpus_needed"]) == expected


def test_fit_advice_states_the_range_on_each_card() -> None:
    """The advised GPUs carry the per-card range of the total (156–186 ГБ over 4 H100s), by the
    card's short name once its full name has been said."""
    r = TOOLBOX.run("gpu_fit", {"model": "llama-3-70b", "precision": "bf16", "gpu": "h100"})
    v = r.values
    low, high = float(str(v["need_low_gb"])) / 4, float(str(v["need_high_gb"])) / 4
    advice = r.summary_ru.split("С запасом хватит ")[1]
    assert advice.startswith("4 × H100 SXM (около ")
    assert f"{int(low)}–{int(high) + 1}\u00a0ГБ на GPU" in advice  # 39–47 ГБ


def test_fit_on_several_cards_states_their_memory_together() -> None:
    r = TOOLBOX.run("gpu_fit", {"params_b": 405, "precision": "fp8", "gpu": "h100", "gpus": 4})
    assert r.values["total_memory_gb"] == 320  # 4 × 80 ГБ, what the weights are split over
    assert "по 80\u00a0ГБ, всего 320\u00a0ГБ" in r.summary_ru


def test_lora_states_the_frozen_base_apart_from_the_adapters() -> None:
    # 70B: the BF16 base alone (140 ГБ) is more than a 96 ГБ card, whatever the adapters cost
    r = TOOLBOX.run("vram_training", {"params_b": 70, "method": "lora"})
    assert r.values["base_gb"] == 140 and r.values["adapters_gb"] == 11.2  # 0,7B × 16 байт
    assert "замороженная база — 140\u00a0ГБ" in r.summary_ru
    q = run("vram_training", params_b=70, method="qlora")
    assert q["base_gb"] == 35  # NF4, 0,5 байта на параметр


def test_fit_beyond_one_server() -> None:
    # 2000B × 2 bytes × 1,3 = 5 200 GB; / 80 GB = 65 GPUs → 9 servers of 8 = 72 GPUs
    v = run("gpu_fit", params_b=2000, precision="bf16", gpu="h100")
    assert (v["gpus_needed"], v["servers_needed"]) == (72, 9)


def test_fit_lists_catalogue_gpus() -> None:
    v = run("gpu_fit", params_b=8, precision="bf16")  # 8 × 2 × 1,3 = 20,8 GB
    assert set(v["fitting_gpus"]) >= {"rtx-5090", "l40s", "h100-sxm", "h200", "b200"}
    v = run("gpu_fit", params_b=70, precision="bf16")  # 182 GB: only 288 GB GPUs
    assert v["fitting_gpus"] == ["b300", "gb300-nvl72", "mi355x"]


@pytest.mark.parametrize(
    ("tool", "args", "fragment"),
    [
        ("vram_inference", {"params_b": 0}, "больше нуля"),
        ("vram_inference", {"params_b": -5}, "больше нуля"),
        ("vram_inference", {"params_b": 1e9}, "нереалистично"),
        ("vram_inference", {"params_b": 7, "precision": "fp6"}, "Неизвестная точность"),
        ("vram_inference", {"model": "gpt-5"}, "не найдена"),
        ("vram_inference", {}, "Укажите модель"),
        ("vram_inference", {"params_b": 7, "context_tokens": -1}, "контекст"),
        ("vram_inference", {"params_b": 7, "context_tokens": 10, "layers": 3}, "все три"),
        ("vram_inference", {"params_b": "много"}, "ожидается число"),
        ("vram_inference", {"params_b": 7, "colour": 1}, "неизвестный параметр"),
        ("gpu_fit", {"params_b": 7, "gpu": "Voodoo 2"}, "нет в каталоге"),
        ("gpu_cost", {"price_month": 0}, "больше нуля"),
        ("gpu_cost", {"price_month": 10, "price_hour": 1}, "одну цену"),
        ("gpu_cost", {"duration": 1, "duration_unit": "years", "gpus": 0}, "больше нуля"),
        ("vram_training", {"params_b": 7, "method": "magic"}, "допустимые значения"),
        ("vram_training", {"params_b": 7, "gpus": 10**9}, "нереалистично"),
    ],
)
def test_errors_are_typed_and_russian(tool: str, args: dict[str, object], fragment: str) -> None:
    with pytest.raises(ToolInputError) as e:
        TOOLBOX.run(tool, args)
    assert fragment in e.value.user_message


def test_unknown_tool() -> None:
    with pytest.raises(ToolInputError):
        get_tool("vram_magic")


def test_registry_contract() -> None:
    tools = all_tools()
    assert [t.name for t in tools] == [n.value for n in ToolName]  # one tool per name, in order
    for spec in openai_tools():
        assert spec["type"] == "function"
        fn = spec["function"]
        assert fn["parameters"]["type"] == "object"
        assert any("а" <= c <= "я" for c in fn["description"])
        json.dumps(spec)  # serialisable


def test_result_records_inputs_defaults_formula() -> None:
    r = TOOLBOX.run("vram_inference", {"params_b": 70})
    assert r.inputs["precision"] == "bf16" and "precision" in r.defaults
    assert "params_b" not in r.defaults
    assert "параметры" in r.formula
    assert "140\u00a0ГБ" in r.summary_ru
    json.dumps(r.model_dump())


def test_calculators_read_the_corpus_they_are_given(tmp_path: Path) -> None:
    for name in ("gpus.yaml", "models.yaml", "prices.yaml"):
        shutil.copy(ROOT / "corpus" / name, tmp_path / name)
    gpus = (tmp_path / "gpus.yaml").read_text("utf-8")
    (tmp_path / "gpus.yaml").write_text(gpus.replace("memory_gb: 141", "memory_gb: 100"), "utf-8")
    other = Calculations(load_catalog(tmp_path))
    args = {"params_b": 70, "precision": "fp8", "gpu": "H200"}
    assert other.run("gpu_fit", args).values["gpu_memory_gb"] == 100
    assert TOOLBOX.run("gpu_fit", args).values["gpu_memory_gb"] == 141  # one corpus per toolbox
    assert "H200 (100" in other.solve("поместится ли 70B в FP8 на H200").answer_ru


def test_a_rental_states_its_total_first_and_says_an_example_price_is_one() -> None:
    args = {"gpu": "h100-sxm", "gpus": 8, "duration": 1, "duration_unit": "weeks"}
    r = TOOLBOX.run("gpu_cost", args)
    first = r.summary_ru.split(". ")[0]
    assert first.startswith("По цене из примера глоссария аренда обойдётся примерно в 4")
    assert "1\u00a0344" in first  # the GPU-hours it is counted from


def test_an_approximate_total_of_a_hundred_dollars_or_more_has_no_cents() -> None:
    big = TOOLBOX.run("gpu_cost", {"gpus": 4, "duration": 72, "price_month": 2190})
    assert big.values["job_cost"] == pytest.approx(864.0)
    assert "примерно в 864\u00a0$:" in big.summary_ru and "3,00\u00a0$ за GPU-час" in big.summary_ru
    small = TOOLBOX.run("gpu_cost", {"gpus": 1, "duration": 10, "price_month": 2190})
    assert "примерно в 30,00\u00a0$:" in small.summary_ru
