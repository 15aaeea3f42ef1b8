"""Issue 11's examples, through the whole engine (the fast fixtures): years are not rental
durations, absurd values get a friendly answer, date ranges and durations in words become
hours, follow-ups reuse the calculation — also from a text-only thread — and problems that are
calculations reach the calculator."""

from __future__ import annotations

import re
from typing import Any, cast

import pytest

from assistant.corpus.catalog import Catalog
from assistant.pipeline import Pipeline, build_engine
from assistant.schema import Answer, Turn
from assistant.search.retrieval import HybridRetriever
from assistant.settings import Settings
from tests.helpers import conversation


def tools(a: Answer) -> list[str]:
    return [c.name for c in a.tool_calls]


def values(a: Answer) -> dict[str, Any]:
    return a.tool_calls[0].result["values"] if a.tool_calls else {}


@pytest.mark.parametrize(
    "text",
    [
        "Какая память была у H100 на старте продаж в 2023 году?",
        "NVLink образца 2024 года быстрее прошлого?",
        "Кто стал чемпионом мира по хоккею в 2019 году?",
        "что изменилось в CUDA с 2020 по 2024 год?",
        "15 марта 2024 года после обновления перестал работать драйвер CUDA, что делать?",
    ],
)
def test_a_year_is_never_a_rental_duration(fast_pipeline: Pipeline, text: str) -> None:
    a = fast_pipeline.answer(text)
    assert "gpu_cost" not in tools(a)  # was ToolInputError «больше 10 лет», HTTP 422, exit 2


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("сколько будет стоить H100 на 500 лет?", "до десяти лет"),
        ("сколько памяти нужно модели на " + "1" * 400 + "B в BF16?", "двадцати триллионов"),
        ("сколько памяти нужно модели на 999999999999B в FP8?", "двадцати триллионов"),
        ("сколько памяти нужно -13B в FP16?", "минус"),
        ("H100 на 0 часов — сколько?", "не за что"),
        ("70B fp8, контекст 128k, батч 10000000 запросов — сколько памяти?", "ста тысяч"),
        ("с 10 по 9 июня 8 H100 — сколько?", "раньше даты начала"),
        ("с 1 января 2020 по 31 декабря 2099 года нужна H100 — сколько это стоит?", "десяти лет"),
    ],
)
def test_out_of_range_values_get_a_friendly_answer(
    fast_pipeline: Pipeline, text: str, says: str
) -> None:
    a = fast_pipeline.answer(text)
    assert a.route == "clarify" and a.tool_calls == [] and not a.refused
    assert a.answer.startswith("Посчитать не получится") and says in a.answer
    assert "weights_gb" not in values(a)  # «-13B» is never computed as 13B


@pytest.mark.parametrize(
    ("text", "hours", "cost"),
    [
        ("16 карт H100 в течение 5 дней — какая сумма?", 120, 5760),
        ("с 10 по 24 июня нужны 8 H100 — сколько это будет стоить?", 360, 8640),
        ("с 20 декабря по 10 января на 4 H100 — какой счёт?", 528, 6336),
        ("8 H100 на неделю и два дня — сколько?", 216, 5184),
        ("в 2025 году нужно 8 H100 на две недели — сколько?", 336, 8064),
    ],
)
def test_durations_in_words_and_ranges_always_show_the_total(
    fast_pipeline: Pipeline, text: str, hours: float, cost: float
) -> None:
    a = fast_pipeline.answer(text)
    assert tools(a) == ["gpu_cost"]
    assert values(a)["hours"] == hours and values(a)["job_cost"] == pytest.approx(cost)
    assert "обойдётся примерно в" in a.answer  # the total is in the text, not only the rate


def test_follow_up_asks_where_the_model_fits(fast_pipeline: Pipeline) -> None:
    first, second = conversation(
        fast_pipeline,
        "Сколько памяти нужно Qwen 2.5 72B в FP8 с контекстом 16k?",
        "а какие карты подойдут?",
    )
    assert tools(first) == ["vram_inference"] and tools(second) == ["gpu_fit"]
    args = second.tool_calls[0].arguments
    assert (args["model"], args["precision"], args["context_tokens"]) == (
        "qwen2.5-72b",
        "fp8",
        16384,
    )


def test_follow_up_whether_a_gpu_is_enough_uses_everything_said(fast_pipeline: Pipeline) -> None:
    _, second = conversation(
        fast_pipeline,
        "Планируем Mistral 7B в FP16, контекст 8k, 10 пользователей",
        "одной L40S хватит?",
    )
    args = second.tool_calls[0].arguments
    assert tools(second) == ["gpu_fit"] and args["gpu"] == "l40s" and args["batch"] == 10
    assert args["context_tokens"] == 8192 and values(second)["verdict"] == "fits"


def test_follow_up_for_another_duration_and_the_advised_count(fast_pipeline: Pipeline) -> None:
    _, cost, month = conversation(
        fast_pipeline,
        "Сколько H100 нужно для Llama 3 70B в BF16?",
        "сколько будет стоить столько карт на неделю?",
        "а на месяц?",
    )
    assert values(cost)["gpus"] == 4 and values(cost)["hours"] == 168  # the fit advised 4
    assert values(month)["hours"] == 730 and values(month)["gpus"] == 4


@pytest.mark.parametrize(
    "follow_up", ["на какой карте?", "а на какой карте это крутить?", "ок а на чем это крутить?"]
)
def test_follow_up_which_card_is_a_fit(fast_pipeline: Pipeline, follow_up: str) -> None:
    _, second = conversation(
        fast_pipeline,
        "Хочу запустить Qwen 2.5 32B в FP8, контекст 8k, 4 параллельных запроса",
        follow_up,
    )
    args = second.tool_calls[0].arguments if second.tool_calls else {}
    assert tools(second) == ["gpu_fit"] and (args["model"], args["batch"]) == ("qwen2.5-32b", 4)


def test_slang_for_cards_asks_a_fit(fast_pipeline: Pipeline) -> None:
    (a,) = conversation(fast_pipeline, "Нужно крутить Mixtral 8x7B в FP16, какие видюхи брать?")
    assert tools(a) == ["gpu_fit"] and a.tool_calls[0].arguments["precision"] == "fp16"


@pytest.mark.parametrize(
    "first",
    ["Хочу запустить Qwen 2.5 32B в FP8", "Сколько стоит H200 в час?"],
)
def test_a_cost_follow_up_without_a_price_asks_for_it(fast_pipeline: Pipeline, first: str) -> None:
    """Not the glossary's text about VRAM: the price is the one thing missing, so it is asked."""
    follow_up = "а сколько будет стоить месяц?" if "Qwen" in first else "а за 10 дней?"
    _, second = conversation(fast_pipeline, first, follow_up)
    assert second.route == "clarify" and not second.tool_calls
    assert "цене" in second.answer


def test_yes_to_the_glossary_example_price_computes_the_total(fast_pipeline: Pipeline) -> None:
    *_, asked, total = conversation(
        fast_pipeline,
        "Хочу запустить Qwen 2.5 32B в FP8",
        "а сколько будет стоить месяц?",
        "возьми пример из глоссария",
    )
    assert asked.route == "clarify" and "пример из глоссария" in asked.answer
    args = total.tool_calls[0].arguments if total.tool_calls else {}
    assert tools(total) == ["gpu_cost"] and args["gpu"] == "h100-sxm"
    assert values(total)["hours"] == 730  # the month asked before the question back


def test_yes_never_swaps_the_named_card_for_the_example(fast_pipeline: Pipeline) -> None:
    *_, asked, answer = conversation(
        fast_pipeline, "Сколько стоит H200 в час?", "а за 10 дней?", "да"
    )
    assert "H200" in asked.answer and not any(
        c.arguments.get("gpu") == "h100-sxm" for c in answer.tool_calls
    )


def test_text_only_thread_is_read_for_parameters(fast_pipeline: Pipeline) -> None:
    """/v1/suggest and OpenAI-style clients send text only: no params on the turns."""
    thread = [
        Turn(role="user", content="Добрый день! Хотим поднять Llama 2 13B, FP16, контекст 4k."),
        Turn(role="assistant", content="Здравствуйте! На каких картах планируете запускать?"),
    ]
    [a] = conversation(fast_pipeline, "L40S или H100 — что взять?", history=thread)
    assert tools(a)[:1] == ["gpu_fit"] and {c.arguments["gpu"] for c in a.tool_calls} == {
        "l40s",
        "h100-sxm",
    }
    args = a.tool_calls[0].arguments
    assert (args["model"], args["precision"], args["context_tokens"]) == (
        "llama-2-13b",
        "fp16",
        4096,
    )
    # Llama 2 13B has a KV head per attention head: 2 × 40 layers × 40 × 128 × 4 096 × 2 bytes
    assert values(a)["kv_cache_gb"] == pytest.approx(2 * 40 * 40 * 128 * 4096 * 2 / 1e9)


def test_a_thread_ending_with_the_operator_answers_the_last_customer_message(
    fast_pipeline: Pipeline,
) -> None:
    """Issue 11's thread, pasted as the agent sees it: the operator's «уточняю» comes last."""
    pasted = (
        "Иван Петров, 10:31\nДобрый день! Хотим развернуть Llama 2 13B, FP16, контекст 4k. "
        "Что лучше взять — L40S или H100?\nОператор Мария, 10:35\nУточняю у коллег."
    )
    a = fast_pipeline.answer(pasted)
    assert tools(a)[:1] == ["gpu_fit"]
    assert {c.arguments["gpu"] for c in a.tool_calls} == {"l40s", "h100-sxm"}
    assert a.tool_calls[0].arguments["context_tokens"] == 4096


def test_a_pasted_helpdesk_thread_is_one_conversation(fast_pipeline: Pipeline) -> None:
    pasted = (
        "Иван Петров, 10:31\nДобрый день! Планируем Qwen 2.5 32B в FP8, контекст 32k, до 4 "
        "пользователей одновременно.\nАнна (поддержка), 10:35\nЗдравствуйте! Сейчас посчитаем."
        "\nИван Петров, 10:40\nХватит одной H100?"
    )
    a = fast_pipeline.answer(pasted)
    args = a.tool_calls[0].arguments
    assert tools(a)[0] == "gpu_fit" and args["gpu"] == "h100-sxm" and args["batch"] == 4
    assert (args["model"], args["context_tokens"]) == ("qwen2.5-32b", 32768)
    assert values(a)["verdict"] == "tight"
    # «впритык»: what would help is computed too, on the same card in a lighter precision,
    # and on the next larger card as it is
    helps = [(c.arguments["precision"], c.arguments["gpu"]) for c in a.tool_calls[1:]]
    assert helps == [("int4", "h100-sxm"), ("fp8", "h200")]  # the asked card stays first


def test_unknown_gpu_is_never_replaced(fast_pipeline: Pipeline) -> None:
    ask, told = conversation(
        fast_pipeline, "Влезет ли Llama 3 8B в FP16 на RTX A5000?", "у неё 24 ГБ"
    )
    assert ask.route == "clarify" and "памят" in ask.answer.lower() and ask.tool_calls == []
    assert tools(told) == ["gpu_fit"] and values(told)["gpu_memory_gb"] == 24
    assert "gpu" not in told.tool_calls[0].result["values"]  # no catalogue GPU substituted


def test_stated_memory_per_card_weights_and_architecture_kv(fast_pipeline: Pipeline) -> None:
    a6000 = fast_pipeline.answer("A6000 на 48 ГБ — влезет Llama 3 8B в FP16?")
    assert values(a6000)["gpu_memory_gb"] == 48 and values(a6000)["verdict"] == "fits"
    split = fast_pipeline.answer(
        "405B в FP8 на 8 картах с тензорным параллелизмом — сколько весов на каждую?"
    )
    assert split.route == "numeric" and values(split)["weights_per_gpu_gb"] == 50.625
    kv = fast_pipeline.answer(
        "KV-кэш: 80 слоёв, 8 KV-голов, размерность головы 128, контекст 8192, батч 16, FP16 — "
        "сколько ГБ?"
    )
    assert values(kv)["kv_cache_gb"] == pytest.approx(42.95, abs=0.01)


def test_breakdown_in_a_fit_and_a_compared_gpu_not_offered(fast_pipeline: Pipeline) -> None:
    a = fast_pipeline.answer("Влезет ли Llama 3 70B в FP8 с контекстом 16k на H200? Распишите")
    v = values(a)
    assert v["weights_gb"] == 70.6 and v["kv_cache_gb"] > 5
    assert v["overhead_low_gb"] < v["overhead_high_gb"]
    rtx = fast_pipeline.answer("Сколько памяти нужно Mistral 7B в FP16? Влезет ли в RTX 4090?")
    assert values(rtx)["gpu_memory_gb"] == 24 and "не предлагает" in rtx.answer
    display = rtx.tool_calls[0].display
    assert display is not None and display.table is not None
    assert any("не предлагаем" in row[0] for row in display.table.rows)


def test_problem_phrased_questions(fast_pipeline: Pipeline) -> None:
    choose = fast_pipeline.answer("Какую видеокарту выбрать для инференса 70B?")
    assert choose.route == "clarify" and set(tools(choose)) == {"gpu_fit"}  # BF16/FP8/FP4
    speed = fast_pipeline.answer("Сколько токенов в секунду выдаст H100 на Llama 70B?")
    assert speed.tool_calls == [] and "нет цифры пропускной способности" in speed.answer


class BrokenNames:
    """A TermMatcher (parsing/message.py's seam) whose index is corrupt: it always raises."""

    def match(self, query: str) -> dict[str, float]:
        raise RuntimeError("alias index corrupted")


class WithBrokenNames:
    """The real retriever, except that its glossary-name matcher fails."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.aliases = BrokenNames()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def test_a_bug_while_understanding_is_a_safe_answer(
    settings: Settings, catalog: Catalog, fast_retriever: Any, caplog: pytest.LogCaptureFixture
) -> None:
    engine = build_engine(
        settings,
        cast(HybridRetriever, WithBrokenNames(fast_retriever)),  # one part failing
        catalog,
    )
    a = Pipeline(engine, settings).answer("сколько памяти нужно 70B в FP8?")
    assert a.route == "clarify" and a.answer.startswith("Не получилось разобрать вопрос")
    assert "could not understand a message" in caplog.text  # logged, with the traceback


def test_a_question_about_a_cards_memory_answers_from_its_architecture(pipeline: Pipeline) -> None:
    """Issue 11's «Какая память была у H100 на старте продаж в 2023 году?» was refused as
    «нет в глоссарии» and led with HBM4. The card's catalogue sheet and the glossary's Hopper
    entry both say HBM3; the sheet's figure leads (issue 21), the entry stays cited."""
    a = pipeline.answer("Какая память была у H100 на старте продаж в 2023 году?")
    assert not a.refused and a.route == "term"
    assert a.citations[0].slug == "gpu-h100-sxm"
    first = a.answer.split("\n")[0]
    assert re.search(r"80\s?ГБ (?:памяти )?HBM3(?!e)", first.replace("\u00a0", " ")), a.answer


def test_a_cache_question_needs_no_precision_and_leads_with_the_cache(
    fast_pipeline: Pipeline,
) -> None:
    """«Сколько займёт KV-кэш …?»: the weights' precision does not change the cache, so there
    is no question back, and the first sentence is the cache's size."""
    a = fast_pipeline.answer("Сколько займёт KV-кэш у Qwen3 30B-A3B при контексте 32k?")
    assert a.route == "numeric" and tools(a) == ["vram_inference"]
    kv = str(values(a)["kv_cache_gb"])[:4].replace(".", ",")  # 3.221… → «3,22»
    first = a.answer.split(". ")[0]
    assert first.startswith("KV-кэш") and kv in first
    assert "Какая точность" not in a.answer


def test_two_fine_tuning_methods_are_both_computed_and_the_one_that_fits_leads(
    fast_pipeline: Pipeline,
) -> None:
    a = fast_pipeline.answer(
        "хотим дообучить llama 3.1 8b, арендуем одну L40S. фулл файнтюн или LoRA? что влезет?"
    )
    fits = {c.arguments["method"]: c.result["values"]["fits"] for c in a.tool_calls}
    assert fits == {"full": False, "lora": True}
    assert a.answer.startswith("Подойдёт только LoRA; полное дообучение не поместится")


def test_a_method_chosen_for_memory_says_what_it_costs_beyond_memory(
    fast_pipeline: Pipeline,
) -> None:
    a = fast_pipeline.answer("дообучить llama 3.3 70b на одной h100. lora или qlora? бюджет мал")
    assert tools(a) == ["vram_training", "vram_training"]  # the budget is no cost question
    lead = a.answer.split("\n\n")[0]
    assert lead.startswith("Подойдёт только QLoRA") and "скорост" in lead  # the QLoRA entry's price
    assert "qlora" in [c.slug for c in a.citations]


def test_methods_weighed_with_no_card_lead_with_the_lighter_and_what_it_gives(
    fast_pipeline: Pipeline,
) -> None:
    q = "каждому клиенту свою донастройку llama 3 8b: full fine-tune или lora?"
    a = fast_pipeline.answer(q)
    lead = a.answer.split("\n\n")[0].replace("\u00a0", " ")
    assert lead.startswith("Меньше всего памяти нужно с LoRA: около 17,3 ГБ против 128 ГБ")
    assert "подменять" in lead and "lora" in [c.slug for c in a.citations]


def test_a_price_word_beside_a_model_to_fit_is_a_reason_not_a_sum(fast_pipeline: Pipeline) -> None:
    q = "запустить qwen3 32b в bf16 на одной карте: l40s или h100? l40s дешевле"
    a = fast_pipeline.answer(q)
    assert tools(a) == ["gpu_fit", "gpu_fit"] and a.route == "numeric"


def test_a_traffic_fee_question_is_the_allowance_not_a_price_to_ask_for(
    fast_pipeline: Pipeline,
) -> None:
    q = "у прошлого облака пришёл счёт за исходящий трафик. у вас доплачивать?"
    a = fast_pipeline.answer(q)
    assert a.route == "numeric" and values(a)["egress_fee"] == 0
    assert "20 ТБ" in a.answer.replace("\u00a0", " ") and "цен" not in a.answer.split(".")[0]


def test_two_cards_for_a_fine_tune_are_both_computed(fast_pipeline: Pipeline) -> None:
    a = fast_pipeline.answer("фулл файнтюн Llama 3 70B: 8×H100 с FSDP хватит или брать 8×B200?")
    by_gpu = {c.arguments["gpu"]: c.result["values"] for c in a.tool_calls}
    assert set(by_gpu) == {"h100-sxm", "b200"}
    assert (by_gpu["h100-sxm"]["fits"], by_gpu["b200"]["fits"]) == (False, True)
    assert a.answer.startswith("Подойдёт только NVIDIA B200")


def test_a_server_called_a_machine_is_still_a_choice_of_cards(fast_pipeline: Pipeline) -> None:
    a = fast_pipeline.answer("Mixtral 8x22B fp8: одна h200 или одна b300? какую тачку брать")
    assert {c.arguments["gpu"] for c in a.tool_calls} == {"h200", "b300"}
    assert a.answer.startswith("Подойдёт только NVIDIA B300")
    assert "все эксперты" in a.answer.replace("\u00a0", " ")  # a MoE: every expert is held


def test_which_card_is_better_for_a_model_is_a_fit_of_both(fast_pipeline: Pipeline) -> None:
    """Issue 21: «Что лучше для Qwen 2.5 32B в BF16: одна L40S или RTX PRO 6000?» got the PCIe
    Gen5 and BF16 definitions, no fit and no verdict."""
    a = fast_pipeline.answer("Что лучше для Qwen 2.5 32B в BF16: одна L40S или RTX PRO 6000?")
    verdicts = {c.arguments["gpu"]: c.result["values"]["verdict"] for c in a.tool_calls}
    assert verdicts == {"l40s": "no", "rtx-pro-6000": "fits"}
    assert a.answer.startswith("Подойдёт только NVIDIA RTX PRO 6000 Blackwell (96")


def test_when_both_options_fit_the_first_sentence_says_which_is_wiser(
    fast_pipeline: Pipeline,
) -> None:
    a = fast_pipeline.answer("Llama 3.3 70B в fp8 под чат-бот: одна H200 или две L40S? что лучше")
    assert {c.result["values"]["verdict"] for c in a.tool_calls} == {"fits"}
    first = a.answer.split(". ")[0]
    assert "разумнее 1 × H200" in first and "KV-кэш" in first


def test_when_no_card_fits_the_verdict_says_neither(fast_pipeline: Pipeline) -> None:
    a = fast_pipeline.answer("Mixtral 8x7B в fp8 — хватит одной L40S или лучше одну 5090 взять?")
    assert {c.result["values"]["verdict"] for c in a.tool_calls} == {"no"}
    assert a.answer.startswith("Ни одна из карт не подходит")


def test_cards_compared_for_a_model_are_compared_by_their_sheets(fast_pipeline: Pipeline) -> None:
    """«h100 или h200 под инференс 70b, в чем разница по железу?» asks about the hardware: the
    catalogue's figures for both, not the Hopper entry alone."""
    a = fast_pipeline.answer("h100 или h200 под инференс 70b, в чем разница по железу?")
    cited = [c.slug for c in a.citations]
    assert cited[:2] == ["gpu-h100-sxm", "gpu-h200"]
    first = a.answer.replace("\u00a0", " ").split(". ")[0]
    assert "80 ГБ" in first and "141 ГБ" in first


def test_usages_weighed_by_money_are_each_priced_and_compared(fast_pipeline) -> None:
    a = fast_pipeline.answer(
        "что выгоднее по деньгам: джобу на 8 карт часов на 10 или на одной карте ~80 часов "
        "гонять? цена за гпу-час одна"
    )
    hours = [c.result["values"]["gpu_hours"] for c in a.tool_calls]
    assert [c.name for c in a.tool_calls] == ["gpu_cost", "gpu_cost"] and hours == [80, 80]
    assert a.answer.startswith("По деньгам одинаково") and "80\u00a0GPU-часов" in a.answer
    sooner = a.answer.split("\n")[0].replace("\u00a0", " ")
    assert "Раньше закончится 8 GPU × 10 ч — за 10 ч вместо 80 ч" in sooner  # same money
    b = fast_pipeline.answer("что выгоднее: 8 H100 на 10 часов или одна H100 на 60 часов?")
    costs = sorted(c.result["values"]["job_cost"] for c in b.tool_calls)
    lead = b.answer.split("\n")[0].replace("\u00a0", " ")
    assert (
        lead.startswith("Дешевле выйдет 1 GPU × 60 ч")
        and f"{costs[0]:.2f}".replace(".", ",") in lead
    )


def test_cards_for_tensor_parallelism_are_told_apart_by_their_link(
    fast_pipeline: Pipeline,
) -> None:
    a = fast_pipeline.answer(
        "для обучения на 8 картах с tensor parallel что брать: rtx pro 6000 (памяти ж больше, "
        "96 гб) или h100 sxm?"
    )
    lead = a.answer.split("\n")[0].replace("\u00a0", " ")
    # «что брать»: the pick first, by the link, then how the links differ
    assert lead.startswith("Для этой задачи разумнее NVIDIA H100 SXM: связь между GPU — NVLink")
    assert "Главное различие — связь между GPU" in lead
    assert "на каждом слое" in lead and "64 ГБ/с" in lead and "900 ГБ/с" in lead
    assert {"tensor-parallelism", "pcie-gen5", "nvlink"} <= {c.slug for c in a.citations}


def test_speed_asked_of_a_choice_where_one_card_fits_says_each_cards_pace(
    fast_pipeline: Pipeline,
) -> None:
    a = fast_pipeline.answer(
        "под qwen 2.5 32b в bf16 что брать — 5090 или rtx pro 6000? скорость генерации тоже важна"
    )
    first = a.answer.split("\n")[0].replace("\u00a0", " ")
    assert first.startswith("Подойдёт только NVIDIA RTX PRO 6000")
    assert "1 792 ГБ/с" in first  # the same bandwidth for both, from their sheets
    assert {"memory-bandwidth", "gpu-rtx-5090", "gpu-rtx-pro-6000"} <= {c.slug for c in a.citations}


def test_all_of_a_rented_cards_memory_is_said_with_its_figure(fast_pipeline: Pipeline) -> None:
    a = fast_pipeline.answer(
        "в вашей вмке с одной h100 nvidia-smi покажет все 80 гигов или урезанный vgpu-профиль?"
    )
    lead = a.answer.split("\n")[0].replace("\u00a0", " ")
    assert lead.startswith("FullGPU не использует vGPU") and "80 ГБ" in lead
    assert "gpu-h100-sxm" in {c.slug for c in a.citations}


def test_a_working_days_use_is_priced_by_its_own_hours(fast_pipeline: Pipeline) -> None:
    a = fast_pipeline.answer(
        "H100: помесячно 2190$ или почасово по 4$/ч? карта нужна только в рабочее время, "
        "примерно 8 часов × 22 дня в месяц"
    )
    hourly = next(c for c in a.tool_calls if c.arguments.get("price_hour"))
    assert hourly.arguments["duration"] == 176  # 8 × 22, not 22 days of a 730-hour month
    assert a.answer.startswith("Дешевле выйдет почасовая аренда")
