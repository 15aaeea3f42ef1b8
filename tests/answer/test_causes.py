"""A problem whose words name its cause → the answer states that cause first, then what helps,
each from its entry (answer/causes.py)."""

from __future__ import annotations

from assistant.pipeline import Pipeline


def first_sentence(text: str) -> str:
    return text.split(" [")[0]


def test_more_cards_under_ddp_do_not_shrink_the_copy_on_each(fast_pipeline: Pipeline) -> None:
    a = fast_pipeline.answer(
        "обучаем 13B через DDP на 4 картах — падает по памяти. добавили ещё 4 карты, думали "
        "памяти станет больше — всё равно OOM на каждой. почему не помогает?"
    )
    assert "полную копию модели" in first_sentence(a.answer)
    assert "FSDP" in a.answer and "состояние оптимизатора" in a.answer
    assert {"data-parallelism", "fsdp"} <= {c.slug for c in a.citations}
    assert not a.tool_calls  # no card named: a fit of the model would not say why


def test_a_larger_batch_is_why_each_user_is_slower(fast_pipeline: Pipeline) -> None:
    a = fast_pipeline.answer(
        "подняли max батч на инференс-сервере: общая пропускная выросла, а юзеры жалуются "
        "что ответ печатается медленнее. это баг?"
    )
    assert "большие батчи повышают общую производительность" in first_sentence(a.answer).replace(
        "\u00a0", " "
    )


def test_tensor_parallelism_over_two_servers_is_why_generation_fell(
    fast_pipeline: Pipeline,
) -> None:
    a = fast_pipeline.answer(
        "Растянули tensor parallel на 16 GPU — две ноды по 8 H100, между нодами сеть. Скорость "
        "генерации упала в разы по сравнению с TP=8 на одной ноде. Почему так?"
    )
    first = first_sentence(a.answer).replace("\u00a0", " ")
    assert "в пределах одного сервера" in first
    assert "Конвейерному параллелизму" in a.answer.split("\n")[0]  # between servers instead


def test_gradient_sync_on_a_slow_network_points_to_infiniband(fast_pipeline: Pipeline) -> None:
    a = fast_pipeline.answer(
        "кластер из 4 нод, DDP. по профайлеру шаг больше ждёт синхронизации градиентов, чем "
        "считает. ноды между собой на обычном 25G ethernet. куда копать?"
    )
    assert "интерконнекта" in first_sentence(a.answer)
    lead = a.answer.split("\n")[0].replace("\u00a0", " ")
    assert "RDMA" in lead and "400 или 800 Гбит/с" in lead
