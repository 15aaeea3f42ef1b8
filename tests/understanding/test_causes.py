"""A problem's words → the cause they name (understanding/causes.py)."""

from __future__ import annotations

import pytest

from assistant.understanding.asks import Ask, classify
from assistant.understanding.causes import Cause
from tests.helpers import read


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        (
            "обучаем 13B через DDP на 4 картах — падает по памяти. добавили ещё 4 карты — всё "
            "равно OOM на каждой. почему?",
            Cause.copy_on_each,
        ),
        (
            "подняли батч на инференс-сервере: общая пропускная выросла, а юзеры жалуются, что "
            "ответ печатается медленнее",
            Cause.batch_against_user,
        ),
        (
            "чат-бот на vllm: днём, когда народу много, запросы висят в очереди, ночью летает",
            Cause.load_on_cache,
        ),
        (  # no «батч» said: many at once and the total up is a larger batch in effect
            "набежало человек 40 одновременно — каждый ответ печатается медленнее, хотя "
            "суммарно токенов/с по графане больше",
            Cause.batch_against_user,
        ),
        (
            "pipeline на 4 этапа, профайлер: в начале и в конце шага карты тупо стоят без дела",
            Cause.pipeline_bubble,
        ),
        (
            "перешли с infiniband на ethernet с RoCE v2 — all-reduce между нодами в разы "
            "медленнее. RoCE вообще может тягаться с IB?",
            Cause.roce_untuned,
        ),
        (
            "растянули tensor parallel на две ноды по 8 H100 — генерация упала в разы, почему?",
            Cause.tensor_across_servers,
        ),
        (
            "4 ноды, DDP, шаг больше ждёт синхронизации градиентов, чем считает; сеть 25G "
            "ethernet. куда копать?",
            Cause.sync_between_servers,
        ),
        (
            "разрезал модель pipeline parallel на 4 стадии, карты заметную часть шага "
            "простаивают — баг?",
            Cause.pipeline_bubble,
        ),
        (
            "mixtral с expert parallel на 4 картах по pcie — всё время уходит в all-to-all",
            Cause.expert_traffic,
        ),
        (
            "на прошлом облаке скорость инференса скакала в течение дня. у вас так же?",
            Cause.shared_by_time,
        ),
        ("сидели на vgpu — производительность плавала в течение дня", Cause.shared_by_vgpu),
        ("ужали модель в int4, ответы стали заметно тупее. это норм?", Cause.quantized_quality),
        ("квантанули в fp8 e5m2, качество просело сильнее, чем обещали", Cause.fp8_range),
        (
            "апи на голом transformers: запросы обрабатываются строго по одному, очередь копится",
            Cause.one_at_a_time,
        ),
        (
            "у 5090 3352 AI TOPS, а у H100 989 TFLOPS — получается 5090 в 3 раза мощнее?",
            Cause.peaks_apart,
        ),
        (
            "на 2 нодах по 8 H100 по tcp шаг почти не быстрее, чем на одной. что со скейлингом?",
            Cause.sync_between_servers,
        ),
        (
            "перевели обучение с DDP на FSDP — наконец-то влезло по памяти, но шаг стал дольше",
            Cause.sharding_traffic,
        ),
        (
            "раз в пару недель падает джоба, одна карта глючила. как такое ловить заранее?",
            Cause.failing_card,
        ),
        ("тренируем всё в чистом fp32, на h100 скорость совсем не та", Cause.full_precision),
        (
            "20 дообученных вариантов одной 8B модели под клиентов — держать 20 копий дорого",
            Cause.copies_of_one,
        ),
        (
            "уже стоит deepspeed zero-3 на 4×h100, всё пошардено — и всё равно OOM",
            Cause.offload_left,
        ),
        (
            "выбирали карты по числу cuda ядер, а новая с меньшим числом ядер обгоняет старую",
            Cause.cores_counted,
        ),
        (
            "подняли в vllm max-num-seqs с 32 до 256, а пользователи жалуются, что ответ "
            "печатается медленней",
            Cause.batch_against_user,
        ),
        (
            "гоняем CFD солвер (всё в double precision) на RTX 5090 — считает медленнее, чем "
            "старая тесла",
            Cause.double_on_consumer,
        ),
        (  # FP64 work: not the FP32 of full precision
            "квантовая химия в double: по fp32 у 5090 зверские цифры, а считает медленнее",
            Cause.double_on_consumer,
        ),
        (
            "в логах то ecc ошибки, то одна карта пропадает. как понять, что железо дохнет?",
            Cause.failing_card,
        ),
        (
            "deepseek v3 в fp4 на 8 rtx pro 6000 с expert parallel. по памяти влезает норм, но "
            "скорость грустная, всё время уходит на all-to-all",
            Cause.expert_traffic,
        ),
        (
            "vllm с tensor-parallel-size 16 на два сервера по 8 H100 — медленнее, чем на одном",
            Cause.tensor_across_servers,
        ),
    ],
)
def test_a_problem_names_its_cause(text: str, cause: Cause) -> None:
    reading = classify(read(text))
    assert reading.ask in (Ask.problem, Ask.error_log) and reading.cause is cause


@pytest.mark.parametrize(
    "text",
    [
        "llama 3 70b в bf16 не стартует на одной h100, сразу oom",  # a fit, computed
        "генерит медленно на L40S, батч 1 — почему?",  # the bandwidth's, not a cause here
        "что такое DDP?",  # no problem at all
        "tensor parallel на 8 H100 в одном сервере — сколько памяти на карту для 70B?",
        "сколько TFLOPS у H100 в операциях с плавающей запятой?",  # «плавающей» swings nothing
        "если процессы по очереди делят одну карту, упадут ли все?",  # sharing, not a queue
        "что такое AI TOPS?",
        "gradient checkpointing при FSDP — насколько медленнее становится?",  # not ours
        # scaling asked for, not scaling that disappoints
        "как настроить Ray Serve, чтобы реплики масштабировались на нескольких нодах?",
    ],
)
def test_other_messages_name_no_cause(text: str) -> None:
    assert classify(read(text)).cause is None
