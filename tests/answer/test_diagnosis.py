"""A memory problem through the engine (fast fixtures): the cause with the calculators' figures
first, then what would help with its own figures, and nothing of the kind when it fits."""

from __future__ import annotations

import math
import re

from assistant.pipeline import Pipeline
from assistant.schema import Answer


def first_sentence(a: Answer) -> str:
    return re.split(r"(?<=[.!?])\s", a.answer, maxsplit=1)[0]


def span(low: float, high: float) -> str:
    return f"{math.floor(low)}–{math.ceil(high)}\u00a0ГБ"


def test_an_oom_is_answered_with_its_cause_and_the_lighter_precisions(
    fast_pipeline: Pipeline,
) -> None:
    a = fast_pipeline.answer("Llama 3 70B в bf16 не стартует на одной h100, сразу oom. что делать?")
    calls = a.tool_calls
    # the lighter precisions on the same card, then the same weights on the next larger card
    assert [c.arguments["precision"] for c in calls] == ["bf16", "fp8", "int4", "bf16"]
    assert [c.arguments["gpu"] for c in calls] == ["h100-sxm"] * 3 + ["h200"]
    need = calls[0].result["values"]
    lead = first_sentence(a)
    assert "не поместится" in lead and span(need["need_low_gb"], need["need_high_gb"]) in lead
    fp8, int4, h200 = (c.result["values"] for c in calls[1:])
    assert h200["verdict"] == "no" and "на H200 не поместится" in a.answer
    assert f"в FP8 — около {span(fp8['need_low_gb'], fp8['need_high_gb'])}" in a.answer
    assert int4["verdict"] == "fits" and "в INT4" in a.answer
    assert {"quantization", "tensor-parallelism"} <= {c.slug for c in a.citations}


def test_a_fine_tune_that_does_not_fit_states_what_would(fast_pipeline: Pipeline) -> None:
    a = fast_pipeline.answer("Хотим дообучить 13B на одной RTX 4090 — реально?")
    by_method = {c.arguments["method"]: c.result["values"] for c in a.tool_calls}
    assert by_method["full"]["fits"] is False and by_method["qlora"]["fits"] is True
    qlora = str(by_method["qlora"]["per_gpu_gb"]).replace(".", ",")
    assert f"с QLoRA — около {qlora}" in a.answer
    assert {"lora", "qlora"} <= {c.slug for c in a.citations}


def test_what_fits_gets_no_remedies(fast_pipeline: Pipeline) -> None:
    a = fast_pipeline.answer("Llama 3 8B в bf16 на одной h100 поместится?")
    assert [c.arguments["precision"] for c in a.tool_calls] == ["bf16"]
    assert "Что поможет" not in a.answer


def test_weights_that_fill_the_card_are_named_as_the_cause(fast_pipeline: Pipeline) -> None:
    """vLLM's «No available memory for the cache blocks»: 70,6 ГБ of FP8 weights on 80 ГБ."""
    a = fast_pipeline.answer(
        "llama 3.3 70b fp8 на одной h100, vllm:\n"
        "INFO 05-20 14:03:11 model_runner.py:1105] Loading model weights took 65.7681 GB\n"
        "ERROR 05-20 14:03:19 No available memory for the cache blocks."
    )
    weights = str(a.tool_calls[0].result["values"]["weights_gb"]).replace(".", ",")
    assert f"Одни веса занимают {weights}\u00a0ГБ из 80\u00a0ГБ" in a.answer


def test_a_moe_that_fits_in_no_precision_is_a_no_with_all_experts_named(
    fast_pipeline: Pipeline,
) -> None:
    """«активно только 13B»: no question back when every precision gives the same verdict, and
    the MoE entry's sentence says why the active share does not count."""
    a = fast_pipeline.answer(
        "У Mixtral активно только 13B на токен, значит влезет в одну карту на 24 ГБ?"
    )
    assert a.route == "numeric"
    assert {c.result["values"]["verdict"] for c in a.tool_calls} == {"no"}
    assert first_sentence(a).startswith("Нет")
    assert "все эксперты должны помещаться в память GPU" in a.answer.replace("\u00a0", " ")
    assert "moe" in {c.slug for c in a.citations}
    assert "?" not in a.answer


def test_ddp_out_of_memory_on_every_card_leads_with_the_full_copy_each_holds(
    fast_pipeline: Pipeline,
) -> None:
    a = fast_pipeline.answer(
        "8B на инференсе влезает в одну h100, а обучение на 8×h100 в DDP падает по OOM на "
        "каждой карте. как так"
    )
    full = next(c for c in a.tool_calls if c.arguments["method"] == "full")
    per = str(full.result["values"]["per_gpu_gb"]).removesuffix(".0")
    lead = first_sentence(a).replace("\u00a0", " ")
    assert "каждый из 8 GPU хранит полную копию" in lead and f"{per} ГБ на GPU" in lead


def test_ddp_out_of_memory_on_cards_named_by_memory_leads_with_the_full_copy(
    fast_pipeline: Pipeline,
) -> None:
    """«8 карт по 80гб»: no card of the catalogue, so no verdict; the OOM is the customer's."""
    a = fast_pipeline.answer(
        "полный файнтюн llama 70b, 8 карт по 80гб = 640 гигов, торч DDP, и всё равно OOM на "
        "первой же итерации на каждой карте. как так, памяти же в сумме куча"
    )
    lead = first_sentence(a).replace("\u00a0", " ")
    assert "каждый из 8 GPU хранит полную копию" in lead and "1 130 ГБ на GPU" in lead


def test_zero_2_out_of_memory_leads_with_the_weights_it_leaves_whole(
    fast_pipeline: Pipeline,
) -> None:
    a = fast_pipeline.answer(
        "full finetune llama 3.1 70b на 8×H100, deepspeed zero stage 2, bf16 — сразу OOM. "
        "что докрутить?"
    )
    lead = first_sentence(a).replace("\u00a0", " ")
    assert "веса (141 ГБ) лежат целиком на каждой карте" in lead and "ZeRO-3" in lead


def test_zero_1_out_of_memory_leads_with_what_it_leaves_whole(fast_pipeline: Pipeline) -> None:
    a = fast_pipeline.answer("полный файнтюн 70b на 8×H100 с deepspeed zero stage 1 — OOM, почему?")
    lead = first_sentence(a).replace("\u00a0", " ")
    assert "шардируется только состояние оптимизатора" in lead
    assert "веса (140 ГБ) и градиенты (140 ГБ) лежат целиком" in lead


def test_weights_that_fill_several_cards_are_stated_whole_then_per_card(
    fast_pipeline: Pipeline,
) -> None:
    """Mixtral 8x7B in BF16 over two L40S: 93,4 ГБ of weights on 96 ГБ, 46,7 on each 48."""
    a = fast_pipeline.answer(
        "mixtral 8x7b bf16, две L40S, vllm --tensor-parallel-size 2, out of memory при загрузке"
    )
    values = a.tool_calls[0].result["values"]
    per = str(values["weights_per_gpu_gb"]).replace(".", ",")
    lead = a.answer.split(". ")[0]
    assert "из суммарных 96\u00a0ГБ" in lead
    assert f"по {per}\u00a0ГБ из 48\u00a0ГБ на каждой из 2 GPU" in lead


def test_cards_without_a_direct_link_read_as_no_nvlink_over_pcie() -> None:
    from assistant.answer.failures import explaining, reading
    from assistant.understanding.failures import Failure, FailureKind
    from tests.helpers import CATALOG

    f = Failure(FailureKind.no_peer_link)
    text = reading(f, CATALOG.gpus["rtx-5090"])
    assert "нет NVLink" in text and "PCIe" in text and "каждом слое" in text
    assert "P2P" not in text  # no entry names it: the guard would reject it
    assert {"nvlink", "pcie-gen5"} <= set(explaining(f))


def test_memory_running_out_as_users_come_leads_with_the_kv_cache(fast_pipeline: Pipeline) -> None:
    a = fast_pipeline.answer(
        "Поднял лламу 8б на vllm, пока 2-3 юзера всё ок, а как набегает человек 40 — запросы "
        "встают в очередь и память кончается. модель же мелкая, чё за фигня?"
    )
    lead = first_sentence(a).replace("\u00a0", " ")
    assert "KV-кэш" in lead and "40 одновременных запросов" in lead and "21,5 ГБ" in lead
    assert "веса" in lead  # against what it is larger than
    assert "kv-cache" in [c.slug for c in a.citations]


def test_cards_talking_over_pcie_get_both_links_speeds(fast_pipeline: Pipeline) -> None:
    a = fast_pipeline.answer(
        "собрал 4x rtx 5090, запускаю 70b в fp4 с tensor parallel 4 — токенов в сек почти "
        "столько же сколько на 2 картах. почему не масштабируется??"
    )
    text = a.answer.replace("\u00a0", " ")
    first_lines = text.split("\n")[0]
    assert "нет NVLink" in first_lines and "64 ГБ/с" in first_lines and "900 ГБ/с" in first_lines
    cited = [c.slug for c in a.citations]
    assert {"pcie-gen5", "nvlink"} <= set(cited)
    assert text.count("64 ГБ/с") == 1  # said once, not again in its entry's paragraph
