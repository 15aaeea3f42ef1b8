"""The questions customers asked that got entry leads instead of answers (integration tier): each
answer must state the facts a correct one needs, the main one in its first sentence. The facts
are the catalogue's and the glossary's; the wording is free.

Fast-tier twins on the hash embedder: tests/test_engine.py (fits, choices, KV cache, methods).
"""

from __future__ import annotations

import re

import pytest

from assistant.schema import Answer

pytestmark = pytest.mark.slow


def first_sentence(answer: Answer) -> str:
    """Up to the first full stop that ends a sentence (not «3,35», not «8x7B.»)."""
    return re.split(r"(?<=[.!?])\s+(?=[А-ЯA-Z])", answer.answer.strip(), maxsplit=1)[0]


def cited(answer: Answer) -> list[str]:
    return [c.slug for c in answer.citations]


def test_memory_bandwidth_of_a_card_is_the_catalogue_figure_first(pipeline) -> None:
    a = pipeline.answer("какая пропускная способность памяти у H100?")
    assert not a.refused and "3,35" in first_sentence(a) and "ТБ/с" in first_sentence(a)
    assert "gpu-h100-sxm" in cited(a)
    assert "нет цифры" not in a.answer  # bandwidth is not generation speed


def test_memory_of_a_card_is_stated_first_not_the_memory_types_definition(pipeline) -> None:
    a = pipeline.answer("сколько памяти у B300?")
    lead = first_sentence(a)
    assert "B300" in lead and "288" in lead and "ГБ" in lead
    assert cited(a)[0] == "gpu-b300"


def test_two_gpus_are_compared_from_both_sheets(pipeline) -> None:
    a = pipeline.answer("B200 или MI355X — чем отличаются, что взять?")
    assert {"gpu-b200", "gpu-mi355x"} <= set(cited(a))
    lead = first_sentence(a)
    assert "180" in lead and "288" in lead  # the memory that differs, both sides
    for fact in ("2 250", "2 500", "1 000", "1 400", "NVLink"):  # BF16 TFLOPS, TDP, link
        assert fact.replace(" ", "\u00a0") in a.answer or fact in a.answer, fact


def test_vllm_oom_on_one_card_gives_the_cause_with_figures_and_what_helps(pipeline) -> None:
    a = pipeline.answer("vllm падает с out of memory на Mixtral 8x7B на одной L40S")
    lead = first_sentence(a)
    assert "не поместится" in lead and "48" in lead
    assert "93,4" in a.answer  # the BF16 weights
    assert "FP8" in a.answer or "INT4" in a.answer  # what a lower precision gives
    assert "× L40S" in a.answer  # how many cards split it
    assert {"quantization", "tensor-parallelism"} <= set(cited(a))


def test_a_pasted_torch_oom_with_its_setup_gives_the_need_and_the_remedies(pipeline) -> None:
    a = pipeline.answer(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
        "total capacity of 79.10 GiB of which 1.2 GiB is free.\n"
        "делаю полный файнтюн llama 3 8B в bf16 на одной H100"
    )
    assert not a.refused and "видеопамят" in first_sentence(a)
    assert "128" in a.answer and "не поместится" in a.answer  # full fine-tune of 8B with Adam
    assert "LoRA" in a.answer and "ГиБ" not in a.answer  # GB like the glossary
    assert {"lora", "zero"} <= set(cited(a)) or {"lora", "fsdp"} <= set(cited(a))
    assert "cuda-cores" not in cited(a)


def test_a_torch_oom_with_a_torchrun_line_reads_the_setup_typed_after_the_command(
    pipeline,
) -> None:
    """«torchrun --nproc_per_node 8, DDP, full finetune llama 3.1 8b…»: the command is the
    person's sentence too; every one of the 8 H100 holds the whole model (DDP), 128 ГБ each."""
    a = pipeline.answer(
        "`torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB. GPU 5 has a "
        "total capacity of 79.19 GiB of which 812.00 MiB is free.`\n"
        "torchrun --nproc_per_node 8, DDP, full finetune llama 3.1 8b, adamw, bf16 amp. "
        "8 карт h100 — и все равно не хватает??"
    )
    assert [t.name for t in a.tool_calls][:1] == ["vram_training"]
    assert a.tool_calls[0].arguments["gpus"] == 8
    lead = first_sentence(a)
    assert "по данным" in lead and "полную копию" in lead and "128" in lead
    assert re.search(r"ZeRO-3|FSDP", a.answer) and "LoRA" in a.answer


def test_fine_tuning_13b_on_a_4090_says_what_makes_it_fit(pipeline) -> None:
    a = pipeline.answer("Хотим дообучить 13B на одной RTX 4090 — реально?")
    assert "208" in a.answer and "не поместится" in a.answer
    assert "QLoRA" in a.answer and "поместится на RTX 4090" in a.answer
    assert "qlora" in cited(a)


def test_moe_total_not_active_parameters_decide_the_fit(pipeline) -> None:
    a = pipeline.answer(
        "У Mixtral активно только 13B на токен, значит влезет в одну карту на 24 ГБ?"
    )
    assert first_sentence(a).startswith("Нет")
    assert "Какая точность" not in a.answer
    assert "эксперты" in a.answer and "moe" in cited(a)


def test_why_an_moe_does_not_fit_leads_with_every_expert_held(pipeline) -> None:
    a = pipeline.answer("mixtral 8x7b же активных ~13b, почему в bf16 на 5090 (32гб) не лезет?")
    text = a.answer.replace("\u00a0", " ")
    assert "все эксперты" in first_sentence(a) and cited(a)[0] == "moe"
    assert "46,7 млрд параметров" in text  # all of them, not the 13B active
    lines = text.split("\n")
    assert all(lines) and text.count("эксперты должны помещаться") == 1  # said once, no gap


def test_kv_cache_question_is_answered_without_asking_the_precision(pipeline) -> None:
    a = pipeline.answer("Сколько займёт KV-кэш у Qwen3 30B-A3B при контексте 32k?")
    lead = first_sentence(a)
    assert "KV-кэш" in lead and "3,22" in lead and "ГБ" in lead
    assert "Какая точность" not in a.answer


def test_a_choice_between_two_cards_computes_both_and_names_the_one(pipeline) -> None:
    a = pipeline.answer("Что лучше для Qwen 2.5 32B в BF16: одна L40S или RTX PRO 6000?")
    lead = first_sentence(a)
    assert "RTX PRO 6000" in lead and "L40S" in lead and "не поместится" in lead
    assert "65,5" in a.answer  # the weights, in the text, not only in the table
    assert len(a.tool_calls) >= 2


@pytest.mark.parametrize(
    "question",
    ["а исходящий трафик у вас оплачивается отдельно?", "спишут ли деньги за исходящий трафик?"],
)
def test_included_traffic_is_answered_first_and_not_handed_off(pipeline, question: str) -> None:
    a = pipeline.answer(question)
    lead = first_sentence(a)
    assert a.route != "handoff" and not a.refused
    assert "20" in lead and "50" in lead and "ТБ" in lead
    assert "egress" in cited(a)
    assert "730" not in a.answer  # no hours were counted


def test_moe_asked_through_generation_is_answered(pipeline) -> None:
    a = pipeline.answer(
        "почему при генерации у Mixtral на каждый токен работает только часть параметров, "
        "а память нужна под все?"
    )
    assert not a.refused and cited(a)[0] == "moe"
    assert "эксперт" in a.answer and "памят" in a.answer


@pytest.mark.parametrize("message", ["спасибо, всё ясно!", "добрый день, чем можете помочь?"])
def test_small_talk_gets_a_short_human_reply(pipeline, message: str) -> None:
    a = pipeline.answer(message)
    assert a.route == "greeting" and not a.refused and not a.citations
    assert len(a.answer) < 400  # no entry read out


@pytest.mark.parametrize(
    ("message", "says"),
    [
        ("вы бот или живой человек?", "не человек"),  # answered as asked
        ("как дела?", "хорошо"),
        ("добрый вечер, есть тут кто-нибудь?", "Здравствуйте"),
        ("ок, дальше сам разберусь. благодарю", "Пожалуйста"),
    ],
)
def test_small_talk_in_other_words_is_still_small_talk(pipeline, message: str, says: str) -> None:
    a = pipeline.answer(message)
    assert a.route == "greeting" and not a.refused and not a.citations
    assert says in a.answer and "GPU" in a.answer


def test_a_fit_states_the_weights_in_its_text(pipeline) -> None:
    a = pipeline.answer("поместится ли Llama 3 8B в BF16 на RTX 4090?")
    assert "16,06" in a.answer and "веса" in a.answer  # not only in the table


@pytest.mark.parametrize(
    "question",
    [
        "сравни Google Colab Pro и Kaggle по лимитам GPU",
        "как писать CUDA-ядра на Triton?",
        "что лучше для обучения: Gaudi 3 от Intel или H100?",
    ],
)
def test_near_domain_questions_the_glossary_does_not_answer_are_declined(
    pipeline, question: str
) -> None:
    a = pipeline.answer(question)
    assert a.refused and a.route == "not_found"
    assert a.citations  # the nearest entries are offered


# near the entries, but none answers them: each is declined with the nearest entries offered
NEAR_BUT_NOT_ANSWERED = [
    # a setting's value: the entries explain NCCL, data parallelism, not their settings
    "какое значение gradient_accumulation_steps поставить на 8 картах?",
    "NCCL_P2P_LEVEL=NVL или PIX — что выставить на сервере?",
    "pin_memory=True в DataLoader реально помогает загрузке на GPU?",
    # a figure none of the near entries gives (CUDA cores, NVLink, CUDA)
    "скока cuda ядер у 5090?? в спеках не нашёл",
    "какая задержка у nvlink между двумя h100, в микросекундах? нужна цифра",
    "какой минимальный номер драйвера nvidia нужен под CUDA 12.8? типа 570.xx",
    "какой time to first token будет у llama 3 70b на одной h200, в миллисекундах?",
    # a recipe for our servers: «на вашем сервере» asks FullGPU, but no sentence of ours answers
    "скиньте пример k8s манифеста чтоб под получил все 8 гпу на вашем сервере",
    "NCCL_IB_HCA, NCCL_IB_GID_INDEX — что конкретно выставлять на ваших нодах с инфинибендом?",
]


@pytest.mark.parametrize("question", NEAR_BUT_NOT_ANSWERED)
def test_what_the_near_entries_do_not_answer_is_declined_with_them(pipeline, question: str) -> None:
    a = pipeline.answer(question)
    assert a.refused and a.route == "not_found" and a.citations


@pytest.mark.parametrize(
    "question",
    [
        "как подобрать версию драйвера под нужную версию cuda?",
        "почему сравнивать карты разных поколений по количеству ядер бессмысленно?",
    ],
)
def test_a_question_about_such_figures_that_an_entry_answers_is_answered(
    pipeline, question: str
) -> None:
    assert not pipeline.answer(question).refused


@pytest.mark.parametrize(
    "question",
    ["H20 — сколько у неё памяти против H100?", "какая пропускная способность памяти у RTX A6000?"],
)
def test_a_card_the_catalogue_lacks_gets_no_other_cards_figures(pipeline, question: str) -> None:
    # no sheet has the card asked about: the H100's 80 ГБ is no answer about the H20
    a = pipeline.answer(question)
    assert a.refused and a.route == "not_found"


def test_one_card_generating_faster_than_another_is_their_bandwidth(pipeline) -> None:
    # same TFLOPS, faster generation: the sheets' bandwidths say why, first
    a = pipeline.answer(
        "у h100 и h200 терафлопсы одинаковые, а токены на h200 идут быстрее. почему?"
    )
    lead = first_sentence(a).replace("\u00a0", " ")
    assert "пропускная способность памяти" in lead and "3,35 ТБ/с" in lead and "4,8 ТБ/с" in lead
    assert {"gpu-h100-sxm", "gpu-h200", "memory-bandwidth"} <= set(cited(a))
    assert "для каждого нового токена" in a.answer.replace("\u00a0", " ")


def test_a_build_without_kernels_for_a_blackwell_card_says_so_first(pipeline) -> None:
    a = pipeline.answer(
        "поставил старый torch на 5090:\n```\nUserWarning: NVIDIA GeForce RTX 5090 with CUDA "
        "capability sm_120 is not compatible with the current PyTorch installation.\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n```"
    )
    lead = first_sentence(a)
    assert "sm_120" in lead and "Blackwell" in a.answer
    assert {"cuda", "blackwell"} <= set(cited(a))


def test_code_words_beside_what_an_entry_explains_are_answered(pipeline) -> None:
    a = pipeline.answer("в ds_config включил zero stage 3 — что теперь шардится между картами?")
    assert not a.refused and cited(a)[0] == "zero"
    assert "параметр" in a.answer.lower()  # stage 3 shards the parameters themselves


@pytest.mark.parametrize(
    ("question", "says"),
    [
        ("а можно пол-карты подешевле? нам столько памяти не надо", "не делит"),
        ("на моей гпушке будут крутиться чужие задачи, пока она простаивает?", "только ваши"),
    ],
)
def test_a_provider_question_opens_with_no_from_fullgpus_own_sentence(
    pipeline, question: str, says: str
) -> None:
    lead = first_sentence(pipeline.answer(question)).replace("\u00a0", " ")
    assert lead.startswith("Нет: FullGPU") and says in lead


def test_a_figure_the_sheet_lacks_is_said_to_be_missing_not_replaced(pipeline) -> None:
    a = pipeline.answer("какой TDP у B300 на одну карту?")
    lead = first_sentence(a).replace("\u00a0", " ")
    assert lead.startswith("TDP NVIDIA B300") and "не указан" in lead
    assert a.refused  # the question is not answered: the console lists it among the gaps


def test_a_spec_no_sheet_carries_is_declined_with_what_the_sheet_has(pipeline) -> None:
    a = pipeline.answer("boost clock у RTX 5090 в МГц и сколько там RT-ядер?")
    lead = first_sentence(a).replace("\u00a0", " ")
    assert a.refused and "RTX 5090" in lead and "нет" in lead and "TDP" in lead
    assert "МГц" not in a.answer  # no clock figure invented
    b = pipeline.answer("сколько памяти у B300?")
    assert not b.refused and "288 ГБ" in first_sentence(b).replace("\u00a0", " ")


@pytest.mark.parametrize(
    ("question", "card"),
    [("сколько fp64 терафлопс у b200?", "B200"), ("FP64 у H100 SXM сколько терафлопс?", "H100")],
)
def test_a_rate_in_a_precision_no_sheet_carries_is_missing_not_the_bf16_one(
    pipeline, question: str, card: str
) -> None:
    """The sheets carry BF16, FP8 and FP4 peaks; an FP64 question gets neither another card's
    figure nor the BF16 one passed off as its answer."""
    a = pipeline.answer(question)
    lead = first_sentence(a)
    assert a.refused and card in lead and "нет" in lead
    assert "TFLOPS" not in lead.replace("(TFLOPS)", "")  # no figure in its place
    other = pipeline.answer(f"сколько терафлопс у {card}?")
    assert not other.refused and re.search(r"BF16 — [\d\s\u00a0]+TFLOPS", first_sentence(other))


def test_a_peak_asked_with_sparsity_gives_the_sheets_figure_then_how_sparsity_relates(
    pipeline,
) -> None:
    a = pipeline.answer("сколько терафлопс у H200 с разреженностью?")
    lead = first_sentence(a).replace("\u00a0", " ")
    assert "H200" in lead and "989 TFLOPS" in lead  # the sheet's figure first
    assert "вдвое" in a.answer and "tflops" in cited(a)  # then what sparsity does to it


def test_ai_tops_asked_beside_teraflops_is_the_ai_tops_figure(pipeline) -> None:
    a = pipeline.answer("сколько ai tops у 5090 и сколько это в терафлопсах?")
    assert "3 352 AI TOPS" in first_sentence(a).replace("\u00a0", " ")
    assert cited(a)[0] == "ai-tops"


def test_a_general_question_opens_with_the_sentence_that_answers_it(pipeline) -> None:
    """«поверх чего работает RoCE v2»: its entry's UDP/IP sentence, not what RoCE stands for;
    the definition still follows, and the first entry is still the one cited first."""
    a = pipeline.answer("RoCE v2 поверх чего работает и обязательно ли сеть без потерь городить?")
    assert "UDP" in first_sentence(a) and cited(a)[0] == "roce"
    assert "RDMA over Converged Ethernet" in a.answer


def test_a_build_without_the_logged_cards_kernels_names_that_card_and_the_remedy(
    pipeline,
) -> None:
    """The log names the RTX 5090 (Blackwell, sm_120); the H100 the prose mentions worked."""
    a = pipeline.answer(
        "`NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current "
        "PyTorch installation. The current PyTorch install supports CUDA capabilities sm_50 sm_60 "
        "sm_70 sm_75 sm_80 sm_86 sm_90.`\nобраз с torch 2.3 + cuda 12.1, на h100 это работало"
    )
    lead = first_sentence(a)
    assert "RTX 5090" in lead and "Blackwell" in lead and "H100" not in lead
    assert re.search(r"свеж\w* сборк", a.answer) and "blackwell" in cited(a)


def test_a_driver_too_old_says_to_update_it_and_that_the_driver_is_yours(pipeline) -> None:
    a = pipeline.answer(
        "тариф с одной H100, поставил torch cu128:\n```\nUserWarning: CUDA initialization: The "
        "NVIDIA driver on your system is too old (found version 12020).\n```\nчто делать?"
    )
    assert "драйвер" in first_sentence(a) and re.search(r"обновите\s+драйвер", a.answer)
    assert "gpu-passthrough" in cited(a) and "собственный драйвер" in a.answer


def test_a_pasted_nccl_timeout_says_what_the_log_shows_then_why(pipeline) -> None:
    a = pipeline.answer(
        "2 сервера по 8×H100, DDP через torchrun, через пару часов всё встаёт:\n\n"
        "[rank12]:[E1021 03:14:55.118273 ProcessGroupNCCL.cpp:616] [Rank 12] Watchdog caught "
        "collective operation timeout: WorkNCCL(SeqNum=48211, OpType=ALLREDUCE, "
        "Timeout(ms)=600000) ran for 600042 milliseconds before timing out."
    )
    lead = first_sentence(a).replace("\u00a0", " ")
    assert "all-reduce" in lead and "600 000 мс" in lead and "таймаут" in lead
    assert {"all-reduce", "nccl"} <= set(cited(a)[:2])
    assert "InfiniBand" in a.answer  # between servers the interconnect decides


def test_code_that_loads_a_model_is_read_as_its_setup_not_as_training(pipeline) -> None:
    a = pipeline.answer(
        "на одной L40S не грузится:\n```\n"
        'model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-32B-Instruct", '
        "torch_dtype=torch.bfloat16)\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 270.00 MiB.\n```"
    )
    text = a.answer.replace("\u00a0", " ")
    lead = first_sentence(a).replace("\u00a0", " ")
    assert "L40S" in lead and "не поместится" in lead and "дообучени" not in lead
    assert "65,52 ГБ" in text and "FP8" in text  # the BF16 weights, and what would fit


def test_a_why_of_a_named_setup_is_computed(pipeline) -> None:
    a = pipeline.answer(
        "8×H100:\n```\n$ vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB.\n```\n"
        "активных же всего 37B, почему не лезет?"
    )
    text = a.answer.replace("\u00a0", " ")
    # the argument from active parameters is what the customer got wrong: every expert is
    # held, said first; the setup's figures follow in the same paragraph
    assert "все эксперты должны помещаться" in first_sentence(a).replace("\u00a0", " ")
    lead = text.split("\n")[0]
    assert "не поместится" in lead and "671" in lead


def test_a_pasted_fp16_overflow_is_read_as_its_cause_not_a_memory_estimate(pipeline) -> None:
    a = pipeline.answer(
        "учим 7b в fp16 на 4 картах, через час:\n```\n"
        "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 1\n"
        "Exception: Current loss scale already at minimum - cannot decrease scale anymore.\n```"
    )
    lead = first_sentence(a)
    assert "FP16" in lead and "диапазон" in lead
    assert "bf16" in cited(a) and "BF16" in a.answer and "ГБ" not in a.answer


def test_fp4_on_a_hopper_card_is_said_to_be_unsupported_by_its_sheet(pipeline) -> None:
    a = pipeline.answer(
        "запускаю fp4 чекпоинт на H200:\n```\nValueError: The quantization method modelopt_fp4 "
        "is not supported for the current GPU. Minimum capability: 100. "
        "Current capability: 90.\n```"
    )
    lead = first_sentence(a)
    assert "H200" in lead and "нет аппаратной поддержки FP4" in lead and "Hopper" in lead
    assert "fp4" in cited(a) and "Blackwell" in a.answer
    # what the card does run fast, from its sheet: FP8
    assert "H200 поддерживает FP8" in a.answer.split("\n")[0]


def test_when_both_cards_fit_the_faster_one_for_generation_is_named(pipeline) -> None:
    a = pipeline.answer("под быстрый чат-бот на llama 3.1 8b в bf16: L40S или H100?")
    lead = a.answer.split("\n")[0].replace("\u00a0", " ")
    assert "L40S" in lead and "H100" in lead and "пропускная способность" in lead
    assert "864 ГБ/с" in lead and "3,35 ТБ/с" in lead and "быстрее будет H100 SXM" in lead
    assert "memory-bandwidth" in cited(a)


def test_a_lower_precision_both_fit_in_says_which_the_card_computes_faster(pipeline) -> None:
    a = pipeline.answer("держим qwen 2.5 32b на H200 в bf16 — переходить на fp8 есть смысл?")
    lead = first_sentence(a).replace("\u00a0", " ")
    assert "FP8 на H200 быстрее" in lead and "1 979 TFLOPS" in lead


def test_fp4_weights_on_a_card_without_fp4_are_said_to_gain_no_fp4_compute(pipeline) -> None:
    a = pipeline.answer("qwen 2.5 72b в fp4 на одной карте: B200 или H200?")
    assert "У H200 нет аппаратной поддержки FP4" in a.answer.replace("\u00a0", " ")


def test_which_cards_are_rented_out_lists_every_offered_sheet(pipeline, catalog) -> None:
    a = pipeline.answer("а какие вообще гпу у вас можно арендовать? дайте список")
    offered = {f"gpu-{g.id}" for g in catalog.gpus.values() if g.offered}
    assert set(cited(a)) == offered and not a.refused
    assert "L40S" in a.answer and "MI355X" in a.answer and "A100" not in a.answer


def test_a_long_question_about_a_rented_card_gets_fullgpus_sentence(pipeline) -> None:
    a = pipeline.answer(
        "беру у вас одну B200 — на ней же не будут параллельно гонять задачи других клиентов?"
    )
    assert "time-slicing" in cited(a)[:2] or "mig" in cited(a)[:2]
    assert "ваши задачи" in a.answer or "целый" in a.answer


def test_a_spec_of_a_card_not_rented_out_offers_the_one_that_is(pipeline) -> None:
    a = pipeline.answer("можно у вас взять A100 на 80 гб? у нас всё под неё заточено")
    lead = a.answer.replace("\u00a0", " ")
    assert lead.startswith("Нет: FullGPU не предлагает NVIDIA A100 80GB")
    assert "H100 SXM" in lead and "gpu-h100-sxm" in cited(a)


def test_a_problem_opens_with_the_sentence_that_says_why(pipeline) -> None:
    a = pipeline.answer("перевёл модель в int4, влезла, но отвечает заметно тупее — это нормально?")
    lead = first_sentence(a)
    assert cited(a)[0] == "quantization" and "качеств" in lead  # the cost, not the definition
    assert not lead.startswith("Квантование —")


def test_a_why_of_slow_generation_is_not_a_memory_estimate(pipeline) -> None:
    a = pipeline.answer(
        "модель 8b на rtx 5090 генерит ~150 ток/с, на h100 почти столько же. почему не быстрее?"
    )
    assert a.route != "numeric" and "не поместится" not in a.answer and not a.tool_calls


def test_a_memory_problem_cites_the_entry_that_explains_the_calculation(pipeline) -> None:
    a = pipeline.answer("почему 70B в bf16 не лезет в одну H100 на 80 гб, хотя вроде почти?")
    assert "не поместится" in first_sentence(a) and cited(a)[0] == "vram"
    assert "quantization" in cited(a)  # and what helps


def test_slow_generation_on_a_named_setup_is_explained_not_computed(pipeline) -> None:
    a = pipeline.answer(
        "гоняем qwen 2.5 7b на одной L40S, батч 1 — генерит заметно медленнее, чем ждали"
    )
    assert not a.tool_calls and "поместится" not in a.answer
    assert "memory-bandwidth" in cited(a)[:2]


def test_a_slow_chat_against_a_benchmark_figure_opens_with_the_cause(pipeline) -> None:
    a = pipeline.answer(
        "в бенчмарке на этой карте 4000 tok/s, а у нас в чате ответ ползёт. обманули?"
    )
    assert not first_sentence(a).startswith("В глоссарии нет цифры")
    assert "tokens-per-second" in cited(a)


def test_many_concurrent_users_make_the_kv_cache_the_named_cause(pipeline) -> None:
    a = pipeline.answer(
        "держим mistral 7b на одной карте, пришло ~50 чел одновременно — и память кончилась. "
        "почему, модель же маленькая?"
    )
    text = a.answer.replace("\u00a0", " ")
    assert "на 50 одновременных запросов" in text and "kv-cache" in cited(a)
    assert "одновременных запросов" in text.split("[")[0] or "растёт" in text


def test_cards_with_the_same_bandwidth_are_not_called_faster(pipeline) -> None:
    # RTX 5090 and RTX PRO 6000 Blackwell read memory at the same 1 792 ГБ/с by their sheets
    a = pipeline.answer("шустрый чат на qwen3 8b в bf16: rtx 5090 или rtx pro 6000 — что быстрее?")
    lead = a.answer.split("\n")[0].replace("\u00a0", " ")
    assert "1 792 ГБ/с" in lead and "быстрее будет" not in lead
    assert "разницы не будет" in lead


def test_a_choice_computes_each_card_with_its_own_count(pipeline) -> None:
    a = pipeline.answer("llama 3.3 70b в bf16: одна h200 или две h100 — что брать?")
    runs = {(c.arguments.get("gpu"), c.arguments.get("gpus")) for c in a.tool_calls}
    assert ("h200", 1) in runs and ("h100-sxm", 2) in runs
    lead = a.answer.split("\n")[0].replace("\u00a0", " ")
    assert "2 × NVIDIA H100 SXM" in lead


def test_a_trouble_naming_oom_and_speed_gets_no_note_about_missing_figures(pipeline) -> None:
    # it asks why the speed jumps, not for a tokens-per-second figure of some setup
    a = pipeline.answer(
        "на одной карте у нас крутятся инференс и дообучение, скорость генерации скачет, "
        "а пару раз сервис упал с OOM — почему они мешают друг другу?"
    )
    assert not a.refused and "нет цифры" not in first_sentence(a)


@pytest.mark.parametrize(
    "question",
    [
        "Llama 4 Maverick — сколько там всего параметров?",
        "сколько экспертов у Kimi K2 и какой контекст?",
    ],
)
def test_a_model_the_catalogue_has_no_record_of_is_declined(pipeline, question: str) -> None:
    a = pipeline.answer(question)
    assert a.refused and a.route == "not_found"


def test_an_unlisted_model_with_its_size_is_still_computed(pipeline) -> None:
    a = pipeline.answer("сколько памяти нужно gemma 2 27b в bf16?")
    assert not a.refused and a.route == "numeric" and "54" in a.answer


def test_two_models_caches_are_computed_and_their_kv_heads_say_why(pipeline) -> None:
    a = pipeline.answer("почему у llama 2 7b кэш на 4к контекста больше, чем у llama 3 8b?")
    assert a.route == "numeric" and {c.arguments.get("model") for c in a.tool_calls} >= {
        "llama-2-7b",
        "llama-3-8b",
    }
    lead = first_sentence(a).replace("\u00a0", " ")
    assert "2,15 ГБ" in lead and "0,54 ГБ" in lead  # 2 × 32 layers × KV heads × 128 × 2 × 4 096
    assert "32 KV-головы" in lead and "8 KV-голов" in lead


def test_options_compared_to_avoid_oom_are_a_choice_not_one_diagnosis(pipeline) -> None:
    a = pipeline.answer(
        "дообучить mistral small 24b на одной l40s — лора поверх обычных bf16 весов или сразу "
        "qlora? хочу без OOM"
    )
    lead = first_sentence(a)
    assert a.route == "numeric" and "QLoRA" in lead and "LoRA не поместится" in lead
    assert {c.arguments.get("method") for c in a.tool_calls} >= {"lora", "qlora"}


def test_renting_by_the_month_or_the_hour_is_computed_both_ways(pipeline) -> None:
    a = pipeline.answer(
        "берём 8×H100 помесячно по 2190$ за карту, а гоняем часов 10 в сутки. почасовая по "
        "3.5$/ч за гпу вышла бы дешевле?"
    )
    lead = first_sentence(a).replace("\u00a0", " ")
    assert a.route == "numeric" and "почасовая" in lead
    assert "17 520 $" in lead and "8 518 $" in lead  # 8 × 2 190; 8 × 10 × 730 / 24 × 3,50


def test_a_bill_beside_an_hourly_price_is_no_monthly_option(pipeline) -> None:
    # «а счёт 17520$» is the total of 8 × 730 h × 3 $, not a price by the month to compare
    a = pipeline.answer("взяли 8×H100 на месяц, думал 3 бакса в час, а счёт 17520$. почему так?")
    assert "Дешевле выйдет" not in a.answer


def test_running_out_of_memory_on_long_prompts_is_not_put_on_the_bandwidth(pipeline) -> None:
    a = pipeline.answer(
        "на коротких промптах всё ок, а как юзеры начинают кидать длинные доки — падает по "
        "памяти. модель та же, карта та же. что за фигня?"
    )
    lead = first_sentence(a).lower()
    assert "кэш" in lead and "пропускная способность" not in lead


def test_traffic_between_cards_compares_their_interconnect_and_says_no_nvlink(pipeline) -> None:
    a = pipeline.answer(
        "раскидали модель по экспертам на 4 rtx pro 6000 — огромные пересылки между картами, "
        "всё ждёт. на h100 у друзей такого нет. в чём разница?"
    )
    lead = first_sentence(a).replace("\u00a0", " ")
    assert "связь между GPU" in lead and "NVLink нет" in lead and "900 ГБ/с" in lead


def test_slow_generation_on_one_card_opens_with_the_bandwidth_and_states_the_card(
    pipeline,
) -> None:
    a = pipeline.answer(
        "крутим llama 3.1 8b на L40S, один юзер, батч 1 — генерит сильно медленнее, чем ждали. "
        "в nvidia-smi загрузка ядер так себе. ей компьюта не хватает или чего?"
    )
    lead = first_sentence(a).lower()
    assert "пропускн" in lead and "токен" in lead  # the cause: weights read for every token
    assert cited(a)[:2] == ["memory-bandwidth", "gpu-l40s"]
    assert re.search(r"L40S — 864\s?ГБ/с", a.answer)  # the card's own figure, from its sheet


def test_an_either_or_about_the_providers_vm_opens_with_what_fullgpu_does(pipeline) -> None:
    a = pipeline.answer(
        "в вашей виртуалке с одной H100 nvidia-smi покажет все 80 гигов или урезанный "
        "vgpu-профиль, как у некоторых?"
    )
    lead = first_sentence(a).replace("\u00a0", " ")
    assert "FullGPU не использует vGPU" in lead and "весь физический GPU" in lead


def test_the_shape_of_a_model_the_catalogue_lacks_is_declined_not_borrowed(pipeline) -> None:
    # no record of Gemma: no layers or heads borrowed from a model of the same size
    a = pipeline.answer("сколько слоёв и kv-голов у gemma 2 27b, надо для конфига")
    assert a.refused and not a.tool_calls and "Mistral" not in a.answer


def test_the_shape_of_a_listed_model_comes_from_the_catalogue(pipeline) -> None:
    a = pipeline.answer("сколько слоёв и kv-голов у llama 3 70b?")
    text = a.answer.replace("\u00a0", " ")
    assert "80 слоёв" in text and "8 KV-голов" in text and not a.refused
    assert "Какая точность" not in text  # the shape does not depend on the weights' precision


def test_a_card_with_no_sheet_gets_no_figures_of_a_neighbour(pipeline) -> None:
    # GB200 is not GB300: the NVL72 rack name must not bring the GB300 sheet's figures
    a = pipeline.answer("GB200 NVL72 — сколько HBM на один GPU и какая пропускная способность?")
    assert a.refused and "gpu-gb300-nvl72" not in cited(a) and "288" not in a.answer
    assert cited(a)  # the nearest entries are offered


def test_a_card_slower_elsewhere_is_answered_with_its_versions_figures(pipeline) -> None:
    a = pipeline.answer(
        "у другого провайдера брали H100 — там она была заметно медленнее вашей на том же "
        "коде. это одна и та же карта?"
    )
    text = a.answer.replace("\u00a0", " ")
    assert "H100 PCIe" in first_sentence(a)  # the other version, named first
    assert {"gpu-h100-sxm", "gpu-h100-pcie"} <= set(cited(a))
    assert "756 TFLOPS" in text and "989 TFLOPS" in text and "350 Вт" in text  # its sheets


def test_a_disputed_peak_figure_opens_with_how_peaks_are_stated(pipeline) -> None:
    a = pipeline.answer(
        "в презе у b200 fp8 написано 9 PFLOPS, а у вас 4500 TFLOPS. вдвое меньше — кто ошибся?"
    )
    assert "разреженност" in first_sentence(a) and cited(a)[:2] == ["tflops", "gpu-b200"]
    assert "4\u00a0500\u00a0TFLOPS" in a.answer or "4 500 TFLOPS" in a.answer


@pytest.mark.parametrize(
    ("question", "lacking", "having"),
    [
        (
            "можно у вас собрать сервак из 4 rtx pro 6000 с nvlink-мостами? нужно tp=4",
            "NVLink",
            "gpu-h100-sxm",
        ),
        ("у 5090 есть nvlink?", "NVLink", "gpu-h100-sxm"),
        ("можно у вас взять h100 под fp4?", "FP4", "gpu-b200"),
    ],
)
def test_a_feature_the_cards_sheet_denies_is_a_no_with_the_cards_that_have_it(
    pipeline, question: str, lacking: str, having: str
) -> None:
    a = pipeline.answer(question)
    lead = first_sentence(a)
    assert lead.startswith("Нет") and lacking in lead and having in cited(a)
    rest = cited(a)[1:]  # the glossary's entries before the other cards' sheets
    assert rest == sorted(rest, key=lambda slug: slug.startswith("gpu-"))


def test_a_feature_said_to_be_missing_is_not_answered_with_no(pipeline) -> None:
    a = pipeline.answer("у MI355X какая скорость связи между картами? там же не nvlink")
    assert not first_sentence(a).startswith("Нет") and "153,6" in first_sentence(a)


def test_how_a_service_applies_opens_with_what_fullgpu_does(pipeline) -> None:
    a = pipeline.answer(
        "на сервере будет несколько публичных ip — защита от ddos работает на всех или только "
        "на одном?"
    )
    assert first_sentence(a).startswith("FullGPU") and "всем публичным" in first_sentence(a)


def test_a_general_question_keeps_its_definition_first(pipeline) -> None:
    a = pipeline.answer("vllm это чё за зверь?")
    assert first_sentence(a).startswith("vLLM — движок")


def test_a_problem_on_a_named_card_is_not_caused_by_its_architecture(pipeline) -> None:
    a = pipeline.answer("обучаю на h100 в fp32 — медленно и батч маленький, что не так?")
    assert "hopper" not in cited(a)[:1] and "точност" in first_sentence(a)


def test_nccl_through_host_memory_on_a_card_without_nvlink_says_so_first(pipeline) -> None:
    log = (
        "NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct\nNCCL INFO Connected all rings"
    )
    a = pipeline.answer(f"2× rtx pro 6000, обучение медленное, в логе nccl:\n```\n{log}\n```")
    lead = first_sentence(a).replace("\u00a0", " ")
    assert "via SHM" in lead and "нет NVLink" in lead and "RTX PRO 6000" in lead
    b = pipeline.answer(f"8× h100, в логе nccl:\n```\n{log}\n```\nпочему так?")
    assert not b.refused and "via SHM" in first_sentence(b)
    assert "нет NVLink" not in first_sentence(b)  # its sheet has NVLink: no such claim


def test_whether_a_card_computes_in_fp8_is_answered_from_its_sheet(pipeline) -> None:
    a = pipeline.answer("l40s умеет в fp8? сколько там выходит тфлопс")
    lead = first_sentence(a).replace("\u00a0", " ")
    assert "поддерживает FP8" in lead and "733 TFLOPS" in lead
    b = pipeline.answer("у a100 есть fp8?")
    lead = first_sentence(b)
    assert lead.startswith("Нет") and "FP8" in lead and "gpu-h100-sxm" in cited(b)


@pytest.mark.parametrize(
    ("question", "entry"),
    [
        ("полбайта на параметр в формате с плавающей точкой — какая тут точность вообще?", "fp4"),
        ("какая библиотека у торча гоняет градиенты между картами нвидиа?", "nccl"),
    ],
)
def test_a_fact_is_answered_from_the_entry_asked_about(pipeline, question: str, entry: str) -> None:
    assert cited(pipeline.answer(question))[:1] == [entry]


def test_whether_a_card_is_rented_is_answered_though_a_reason_follows(pipeline) -> None:
    a = pipeline.answer(
        "а l4 у вас можно арендовать? нам под небольшой инференс, ничего серьёзного"
    )
    assert first_sentence(a).startswith("Нет: FullGPU не предлагает")


def test_tensor_parallel_scaling_badly_on_cards_without_nvlink_says_so_first(pipeline) -> None:
    a = pipeline.answer(
        "гоняем tensor parallel на 4× rtx 5090, масштабируется плохо — в чём причина?"
    )
    assert "нет NVLink" in first_sentence(a) and "RTX 5090" in first_sentence(a)
    b = pipeline.answer("tp=2 на двух h100 масштабируется плохо, в чём причина?")
    assert "нет NVLink" not in b.answer  # its sheet has NVLink


def test_reasoning_from_an_moes_active_parameters_leads_with_every_expert_held(pipeline) -> None:
    """No card named, so nothing is computed; what the customer got wrong is the cause."""
    a = pipeline.answer(
        "дипсик v3 же всего 37b активных параметров, думал влезет на пару карт как обычная "
        "70b. а оно не лезет даже на 8 штук по 80. почему??"
    )
    assert "все эксперты" in first_sentence(a) and "moe" in cited(a)
    assert a.answer.count("все эксперты должны помещаться") == 1
