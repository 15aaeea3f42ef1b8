"""Russian free-text extraction: numbers, precisions, sizes, GPUs, money, durations, typos."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.text.numbers import normalise
from assistant.understanding.quantities import Extraction
from assistant.understanding.quantities import extract as extract_with
from tests.helpers import CATALOG, read


def extract(text: str) -> Extraction:
    return extract_with(text, CATALOG)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("восемь H100", "8 h100"),
        ("на двух картах", "на 2 картах"),
        ("семьдесят пять", "75"),
        ("четыреста пять", "405"),
        ("2 190 $", "2190 $"),
        ("2\u00a0190\u00a0$", "2190 $"),
        ("$2,190", "$2190"),
        ("7,5 млрд", "7.5 млрд"),
        ("Н100", "h100"),  # Cyrillic Н
        ("контекст 32К", "контекст 32k"),
        ("трое суток", "3 суток"),
        ("llama 3 405b", "llama 3 405b"),  # not joined into 3405
    ],
)
def test_normalise(text: str, expected: str) -> None:
    assert normalise(text) == expected


@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("70B", {"params_b": 70}),
        ("70b", {"params_b": 70}),
        ("70 млрд", {"params_b": 70}),
        ("7,5 млрд", {"params_b": 7.5}),
        ("восемь миллиардов параметров", {"params_b": 8}),
        ("405B", {"params_b": 405}),
        ("350M", {"params_b": 0.35}),
        ("70В", {"params_b": 70}),  # Cyrillic В
        ("Llama 3 70B", {"model": "llama-3-70b"}),
        ("лама 3 70b", {"model": "llama-3-70b"}),
        ("лламу 70б", {"model": "llama-3-70b"}),
        ("70б", {"params_b": 70}),
        ("qwen2.5-72b-instruct", {"model": "qwen2.5-72b"}),
        ("DeepSeek V3", {"model": "deepseek-v3"}),
        ("mixtral 8x7b", {"model": "mixtral-8x7b"}),
    ],
)
def test_sizes_and_models(text: str, params: dict[str, Any]) -> None:
    got = extract(text).params.stored()
    assert {k: got.get(k) for k in params} == params
    assert ("model" in got) == ("model" in params)


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("bf16", "bf16"),
        ("бф16", "bf16"),
        ("BF 16", "bf16"),
        ("FP8", "fp8"),
        ("фп8", "fp8"),
        ("fр8", "fp8"),  # Cyrillic р
        ("int4", "int4"),
        ("4 бита", "int4"),
        ("в половинной точности", "fp16"),
        ("nvfp4", "fp4"),
        ("NF4", "nf4"),
        ("fp32", "fp32"),
        ("8 бит", "int8"),
        ("4-битный float", "fp4"),  # a 4-bit float is FP4, not INT4
        ("4 бита с плавающей точкой", "fp4"),
        ("8-битный флоат", "fp8"),
        ("в 4bit", "int4"),  # the English word, as chat writes it
        ("8-bit", "int8"),
        ("in 16 bit", "fp16"),
        ("with 4-bit float weights", "fp4"),
        ("8-bit floating point", "fp8"),
        ("32-bit", "fp32"),
    ],
)
def test_precisions(text: str, precision: str) -> None:
    assert extract(f"70B {text}").params.stored()["precision"] == precision


def test_kv_precision_is_separate() -> None:
    p = extract("70B в bf16, KV-кэш в FP8").params.stored()
    assert (p["precision"], p["kv_precision"]) == ("bf16", "fp8")


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("ну а если квантануть в 4 бита?", "int4"),
        ("70B при квантовании в int8", "int8"),
        ("квантизация в fp8", "fp8"),
    ],
)
def test_quantising_words_are_not_the_kv_cache(text: str, precision: str) -> None:
    """«кв» starts «квантовать» too: only the word KV / кэш makes a precision the cache's."""
    p = extract(text).params.stored()
    assert p["precision"] == precision and "kv_precision" not in p


def test_kv_abbreviation_still_names_the_cache() -> None:
    p = extract("70B в bf16, кв кэш в int8").params.stored()
    assert (p["precision"], p["kv_precision"]) == ("bf16", "int8")


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("контекст 32k", 32768),
        ("контекст 32 тыс. токенов", 32000),
        ("контекст 32768", 32768),
        ("32768 токенов", 32768),
        ("контекстом 128К", 131072),
        ("контекст 100k", 100000),
        ("1 млн токенов контекста", 1_000_000),
    ],
)
def test_context(text: str, tokens: int) -> None:
    assert extract(f"70B bf16 {text}").params.stored()["context_tokens"] == tokens


@pytest.mark.parametrize("text", ["неделю не могу запустить модель", "а неделька была тяжёлая"])
def test_a_week_opening_a_complaint_is_no_duration(text: str) -> None:
    assert "duration" not in extract(text).params.stored()


@pytest.mark.parametrize(
    "text",
    ["нарезать одну карту на 7 частей для курса", "H100 на 2 части", "2 частично занятые карты"],
)
def test_parts_are_no_hours(text: str) -> None:
    """«на 7 частей» once read as 7 hours and sent a MIG question to the cost calculator."""
    assert "duration" not in extract(text).params.stored()


@pytest.mark.parametrize(("text", "hours"), [("на 36 часов", 36), ("на 5 ч", 5), ("на 3 часа", 3)])
def test_hours_in_every_form(text: str, hours: int) -> None:
    params = extract(f"8 H100 {text}").params.stored()
    assert (params["duration"], params["duration_unit"]) == (hours, "hours")


@pytest.mark.parametrize(("text", "context"), [("а если без контекста?", 0), ("без kv-кэша", 0)])
def test_without_the_context(text: str, context: int) -> None:
    assert extract(text).params.stored()["context_tokens"] == context


def test_without_quantisation_is_no_context() -> None:
    assert "context_tokens" not in extract("а без квантования качество лучше?").params.stored()


@pytest.mark.parametrize(
    ("text", "duration"),
    [
        ("what about a month?", (1, "months")),
        ("for a week", (1, "weeks")),
        ("one day", (1, "days")),
    ],
)
def test_english_durations_in_words(text: str, duration: tuple[int, str]) -> None:
    p = extract(text).params.stored()
    assert (p["duration"], p["duration_unit"]) == duration


def test_a_million_tokens_in_words_is_a_context() -> None:
    assert extract("а на миллион токенов?").params.stored()["context_tokens"] == 1_000_000


def test_tokens_per_second_is_not_context() -> None:
    assert "context_tokens" not in extract("70B выдаёт 50 токенов в секунду").params.stored()


@pytest.mark.parametrize(
    ("text", "batch"),
    [
        ("батч 8", 8),
        ("8 пользователей одновременно", 8),
        ("batch size 16", 16),
        ("4 запроса", 4),
        ("если 10 человек одновременно", 10),
        ("контекст 32к, юзеров человек 8", 8),
        ("пользователей до 20, контекст 8k", 20),
        ("запросов 4 одновременно", 4),
    ],
)
def test_batch(text: str, batch: int) -> None:
    assert extract(f"70B {text}").params.stored()["batch"] == batch


@pytest.mark.parametrize("text", ["сессии 2 часа", "клиентов 100 в месяц", "чат 2.0"])
def test_a_number_after_users_with_a_unit_is_no_batch(text: str) -> None:
    assert "batch" not in extract(text).params.stored()


@pytest.mark.parametrize(
    ("text", "gpu", "gpus"),
    [
        ("8×H100", "h100-sxm", 8),
        ("8xH100", "h100-sxm", 8),
        ("восемь H100", "h100-sxm", 8),
        ("на двух картах", None, 2),
        ("H200 x4", "h200", 4),
        ("на одной RTX 5090", "rtx-5090", 1),
        ("на н100", "h100-sxm", None),
        ("RTX PRO 6000 Blackwell", "rtx-pro-6000", None),
        ("8-GPU сервер", None, 8),
        # the setup written as «N × card» wins over a count said of the card before it
        ("в одну h100 влезает, а обучение на 8×h100 падает по OOM", "h100-sxm", 8),
    ],
)
def test_gpus(text: str, gpu: str | None, gpus: int | None) -> None:
    p = extract(text).params.stored()
    assert (p.get("gpu"), p.get("gpus")) == (gpu, gpus)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("2 190 $ в месяц", "price_month", 2190),
        ("2190 долларов в месяц", "price_month", 2190),
        ("$2,190 per month", "price_month", 2190),
        ("1,8 $ в час", "price_hour", 1.8),
        ("3 $/ч", "price_hour", 3),
        ("2,5 доллара за час", "price_hour", 2.5),
    ],
)
def test_money(text: str, key: str, value: float) -> None:
    assert extract(text).params.stored()[key] == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("H100 на 5 дней за 2190 в месяц", "price_month", 2190),
        ("по 1.8 в час 4 карты на неделю", "price_hour", 1.8),
        ("L40S, цена 1 000 в месяц", "price_month", 1000),
    ],
)
def test_a_price_with_its_period_needs_no_currency(text: str, key: str, value: float) -> None:
    p = extract(text).params.stored()
    assert p[key] == pytest.approx(value)
    assert p.get("duration") != value  # the price is not read as a duration as well


@pytest.mark.parametrize(
    "text", ["100 запросов в час", "по 8 часов в день", "за 2 часа", "70B на 2 месяца"]
)
def test_other_numbers_before_a_period_are_no_price(text: str) -> None:
    p = extract(text).params.stored()
    assert "price_hour" not in p and "price_month" not in p


@pytest.mark.parametrize(
    ("text", "duration"),
    [
        ("10 часов", (10, "hours")),
        ("3 суток", (3, "days")),
        ("за неделю", (1, "weeks")),
        ("на месяц", (1, "months")),
        ("две недели", (2, "weeks")),
        ("полгода", (6, "months")),
        ("5 дней", (5, "days")),
    ],
)
def test_durations(text: str, duration: tuple[float, str]) -> None:
    p = extract(f"8 GPU {text}").params.stored()
    assert (p["duration"], p["duration_unit"]) == duration


def test_monthly_price_is_not_a_duration() -> None:
    p = extract("2 190 $ в месяц — сколько за час?").params.stored()
    assert "duration" not in p and p["price_month"] == 2190


def test_training_words() -> None:
    assert extract("QLoRA 65B").params.stored()["method"] == "qlora"
    assert extract("LoRA 8B").params.stored()["method"] == "lora"
    assert extract("ZeRO-3 на 8 GPU").params.stored()["sharding"] == "zero3"
    assert extract("FSDP").params.stored()["sharding"] == "fsdp"


def test_a_full_stop_ends_a_cards_name() -> None:
    """«одна L40S.» names the L40S; «Llama 3.1» keeps its dot."""
    ex = extract_with("полный sft llama 3.1 8b, одна L40S. падает на первом шаге", CATALOG)
    assert ex.params.gpu == "l40s" and ex.params.model == "llama-3-8b"


def test_both_versions_of_a_family_named_by_their_sizes_are_read() -> None:
    from tests.helpers import read

    both = read("есть у вас a100 на 40 или на 80 гб? чем отличаются").gpus
    assert set(both) == {"a100-40gb", "a100-80gb"}
    assert read("a100 на 80 гб, контекст 40 тысяч токенов").gpus == ("a100-80gb",)


def test_each_card_of_a_choice_keeps_the_count_written_before_it() -> None:
    q = extract("llama 3.3 70b в bf16: одна h200 или две h100 — что брать?")
    assert dict(q.gpu_counts) == {"h200": 1, "h100-sxm": 2}
    q = extract("8×h100 или 4×b200 под 405b в fp8?")
    assert dict(q.gpu_counts) == {"h100-sxm": 8, "b200": 4}
    assert extract("на 8 h100 влезет 405b?").gpu_counts == ()  # one card: its count is gpus


def test_a_price_by_the_month_and_one_by_the_hour_are_both_read() -> None:
    p = extract("у вас H100 2190$/мес, у другого 3.20$ за час — кто дешевле?").params
    assert p.price_month == 2190 and p.price_hour == 3.2


def test_hours_a_day_are_the_use_not_a_days_rental() -> None:
    p = extract("8 H100 по 3.5$/ч, гоняем часов 10 в сутки — сколько в месяц?").params
    assert p.hours_per_day == 10 and p.duration_unit != "days"


@pytest.mark.parametrize(
    ("text", "gpus", "hours"),
    [
        ("джобу на 8 карт часов на 10", 8, 10),  # the unit before the number: «about»
        ("дня на 3 восемь h100", 8, 72),
        ("на 8 картах 10 часов", 8, 10),
    ],
)
def test_a_count_and_an_approximate_duration_are_read(text: str, gpus: int, hours: int) -> None:
    p = extract(text).params
    per = {"hours": 1, "days": 24}[str(p.duration_unit)]
    assert p.gpus == gpus and float(p.duration or 0) * per == hours


def test_gpu_hours_and_minutes_are_no_approximate_duration() -> None:
    assert extract("100 гпу часов").params.gpus is None
    assert extract("8 часов 10 минут").params.duration == 8


def test_usages_joined_by_or_are_read_each_with_its_own_count() -> None:
    q = extract("что дешевле: 8 карт часов на 10 или одна карта на 80 часов?")
    assert [(s.gpus, s.duration, s.unit) for s in q.setups] == [(8, 10, "hours"), (1, 80, "hours")]
    assert extract("неделю или месяц?").setups == ()  # no duration read: nothing weighed
    assert extract("8 H100 на неделю: NVLink или PCIe?").setups == ()  # one usage


@pytest.mark.parametrize(
    ("text", "precision", "compared"),
    [
        ("Qwen2.5-32B через transformers, torch_dtype=bfloat16, одна L40S: OOM", "bf16", None),
        ("в 64 битах 5090 дохлая?", None, None),
        ("у 8-битного float два варианта — какой для чего?", "fp8", None),
    ],
)
def test_a_precision_is_read_from_a_whole_word_only(
    text: str, precision: str | None, compared: tuple[str, ...] | None
) -> None:
    """«bfloat16» holds no «float16» (FP16), «64 битах» no «4 бит» (INT4)."""
    params = read(text).quantities.params
    assert params.precision == precision and params.compare_precisions == compared


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("qwen3 30b-a3b в bf16 не лезет даже в 24 гига. почему?", 24),
        ("можно модельку ужать в int4 чтоб влезла в 24 гига?", 24),
        ("влезет ли на 80 гб llama 70b в fp8?", 80),
        ("модели нужно 24 гига, а у нас L40S", None),
    ],
)
def test_the_memory_a_model_is_fitted_into_is_the_cards(text: str, memory: int | None) -> None:
    assert read(text).quantities.params.gpu_memory_gb == memory


@pytest.mark.parametrize(
    ("text", "batch"),
    [
        ("пока 2-3 юзера всё ок, а как набегает человек 40 — память кончается", 40),
        ("пока юзеров 5-10 всё ок, а когда пошло 50+ одновременно — всё висит", 50),
        ("8 запросов по 8k контекста, llama 8b", 8),
        ("батч 4, а пользователей 100", 4),  # a batch named is the batch
    ],
)
def test_of_several_loads_the_largest_is_served(text: str, batch: int) -> None:
    assert read(text).quantities.params.batch == batch


def test_a_precisions_digits_are_no_count_of_the_card_after_it() -> None:
    """«в bf16 — ртх 5090 или ртх про 6000»: the catalogue form reads «bf 16 ртх 5090»."""
    q = extract("qwen3-32b в bf16 — ртх 5090 или ртх про 6000 брать?")
    assert q.gpu_counts == ()
    assert dict(extract("в fp8 4 h100 или 2 h200?").gpu_counts) == {"h100-sxm": 4, "h200": 2}


def test_hours_times_days_is_a_daily_use_over_those_days() -> None:
    p = extract("H100 по 4$/ч, примерно 8 часов × 22 дня в месяц").params
    assert (p.hours_per_day, p.duration, p.duration_unit) == (8, 22, "days")


def test_the_memory_of_all_the_named_cards_is_not_each_cards() -> None:
    """«qwen3-235b на 4×H100, почему не лезет в 320 гигов?»: 4 × 80 ГБ, the H100s' total."""
    p = read("qwen3-235b-a22b bf16 на 4×H100, почему не лезет в 320 гигов?").quantities.params
    assert p.gpu == "h100-sxm" and p.gpus == 4 and p.gpu_memory_gb is None
    # a memory that is not the cards' total is still the customer's card («4 A100 по 40 ГБ»)
    assert read("4 карты A100 по 40 гб").quantities.params.gpu == "a100-40gb"


def test_ddp_weighed_against_sharding_computes_both_in_order() -> None:
    p = read("full fine-tune 13B на 8×H100: обычный DDP или FSDP?").quantities.params
    assert p.sharding == "fsdp" and p.compare_sharding == ("none", "fsdp")
    q = read("7b на 8 a100 — zero-3 или ddp?").quantities.params
    assert q.compare_sharding == ("zero3", "none")
    assert read("full fine-tune 13B на 8×H100 с FSDP").quantities.params.compare_sharding is None
