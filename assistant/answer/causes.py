"""Cause (understanding/causes.py) → the entries' sentences that state it, cause first, then
what helps.

    told(Cause.copy_on_each, entries)
        → [(data-parallelism, «…каждый GPU хранит полную копию модели…»),
           (data-parallelism, «…каждый GPU должен вмещать всю модель, её градиенты…»),
           (fsdp, «Вместо того чтобы хранить полную копию модели на каждом GPU, FSDP…»)]

Each sentence is found in its entry by words it must contain, so an edited entry that no
longer says it drops the sentence rather than a wrong one being said.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from assistant.corpus.glossary import Entry
from assistant.text.sentences import split_sentences
from assistant.understanding.causes import Cause
from assistant.understanding.failures import Failure, FailureKind

# per cause: (entry, words its sentence says), the cause first, then what helps
_SAID: dict[Cause, tuple[tuple[str, str], ...]] = {
    Cause.copy_on_each: (
        ("data-parallelism", r"полную копию"),
        ("data-parallelism", r"вмещать всю модель"),
        ("fsdp", r"Вместо того чтобы хранить полную копию"),
    ),
    Cause.batch_against_user: (("tokens-per-second", r"тянут в разные стороны"),),
    Cause.load_on_cache: (
        ("kv-cache", r"сколько пользователей"),
        ("tokens-per-second", r"тянут в разные стороны"),
    ),
    Cause.tensor_across_servers: (
        ("tensor-parallelism", r"в пределах одного сервера"),
        ("pipeline-parallelism", r"между серверами"),
    ),
    Cause.sync_between_servers: (
        ("all-reduce", r"зависит от интерконнекта"),
        ("infiniband", r"нативно поддерживает RDMA"),
        ("infiniband", r"Гбит/с на порт"),
    ),
    Cause.roce_untuned: (
        ("roce", r"без потерь"),
        ("all-reduce", r"зависит от интерконнекта"),
    ),
    Cause.pipeline_bubble: (
        ("pipeline-parallelism", r"пузырь"),
        ("pipeline-parallelism", r"Микробатчи проходят"),
    ),
    Cause.expert_traffic: (
        ("expert-parallelism", r"all-to-all"),
        ("expert-parallelism", r"быстрым интерконнектом"),
    ),
    # what FullGPU does answers «у вас так же будет?» first; why it swung elsewhere follows
    Cause.shared_by_time: (
        ("time-slicing", r"FullGPU не разделяет"),
        ("time-slicing", r"зависит от того, что ещё выполняется"),
    ),
    Cause.shared_by_vgpu: (
        ("vgpu", r"FullGPU не использует vGPU"),
        ("vgpu", r"фиксированную долю"),
    ),
    Cause.quantized_quality: (("quantization", r"потеря качества"),),
    Cause.fp8_range: (("fp8", r"E4M3"), ("quantization", r"потеря качества")),
    Cause.one_at_a_time: (("vllm", r"continuous batching"),),
    Cause.peaks_apart: (
        ("ai-tops", r"можно сравнивать, только когда"),
        ("ai-tops", r"3 352 AI TOPS"),
        ("tflops", r"Реальные задачи"),
    ),
    Cause.sharding_traffic: (
        ("fsdp", r"ценой дополнительного обмена"),
        ("fsdp", r"собирает параметры каждого слоя"),
        ("all-reduce", r"зависит от интерконнекта"),
    ),
    Cause.failing_card: (
        ("dcgm", r"выходящее из строя"),
        ("dcgm", r"запускает диагностику"),
    ),
    Cause.full_precision: (
        ("mixed-precision", r"ускоряет вычисления на тензорных ядрах"),
        ("mixed-precision", r"мастер-копия весов"),
        ("tensor-cores", r"относятся именно к этим блокам"),
    ),
    Cause.copies_of_one: (
        ("lora", r"можно подменять"),
        ("lora", r"замораживает исходные веса"),
    ),
    Cause.offload_left: (
        ("zero", r"ZeRO-Offload"),
        ("zero", r"на третьей — сами параметры"),
        ("lora", r"гораздо меньше видеопамяти"),
    ),
    Cause.double_on_consumer: (
        ("fp64", r"малую долю"),
        ("fp64", r"вычислительной гидродинамики"),
    ),
    Cause.cores_counted: (
        ("cuda-cores", r"одной архитектуры"),
        ("cuda-cores", r"на тензорных ядрах"),
        ("tensor-cores", r"относятся именно к этим блокам"),
    ),
}


# per failure a pasted log shows: the entries' sentences that explain it and say what helps,
# cited right after what the log says (answer/failures.py)
_LOGGED: dict[FailureKind, tuple[tuple[str, str], ...]] = {
    FailureKind.collective_timeout: (
        ("all-reduce", r"зависит от интерконнекта"),
        ("dcgm", r"состояние NVLink"),
    ),
    FailureKind.socket_fallback: (
        ("infiniband", r"нативно поддерживает RDMA"),
        ("rdma", r"RDMA поддерживают и InfiniBand, и RoCE"),
    ),
    FailureKind.driver_too_old: (("cuda", r"достаточно свежий драйвер"),),
    FailureKind.no_kernel_image: (
        ("blackwell", r"на ней построены"),
        ("cuda", r"достаточно свежий драйвер"),
    ),
    FailureKind.fp16_overflow: (("bf16", r"сохраняет диапазон"),),
    FailureKind.memory_error: (("dcgm", r"выходящее из строя"),),
    FailureKind.link_error: (("dcgm", r"состояние NVLink"), ("dcgm", r"выходящее из строя")),
    FailureKind.card_lost: (("dcgm", r"выходящее из строя"), ("dcgm", r"состояние NVLink")),
    FailureKind.kv_context: (("kv-cache", r"растёт с длиной контекста"),),
}


def for_failure(failure: Failure, entries: Mapping[str, Entry]) -> list[tuple[Entry, str]]:
    """What explains the failure a log shows and what helps, as the entries write it."""
    if failure.kind is FailureKind.precision_unsupported:
        able = fp4_able(entries) if failure.precision == "fp4" else None
        return [able] if able else []
    return _sentences(_LOGGED.get(failure.kind, ()), entries)


def tensor_on_every_layer(entries: Mapping[str, Entry]) -> tuple[Entry, str] | None:
    """The tensor-parallelism entry's sentence on why it stays within one NVLink server."""
    found = _sentences((("tensor-parallelism", r"в пределах одного сервера"),), entries)
    return found[0] if found else None


def fp4_able(entries: Mapping[str, Entry]) -> tuple[Entry, str] | None:
    """The FP4 entry's sentence naming the architectures that compute in FP4 (after a card's
    sheet says it does not)."""
    entry = entries.get("fp4")
    found = _found(entry, r"поддерживают FP4 аппаратно") if entry is not None else None
    return (entry, found) if entry is not None and found else None


def _found(entry: Entry, words: str) -> str | None:
    said = re.compile(words.replace(" ", r"\s"))  # entries keep no-break spaces after «в»
    return next((s for s in split_sentences(entry.text) if said.search(s)), None)


def told(cause: Cause, entries: Mapping[str, Entry]) -> list[tuple[Entry, str]]:
    """The sentences, as their entries write them; those an entry does not hold are left out."""
    return _sentences(_SAID[cause], entries)


def _sentences(
    wanted: tuple[tuple[str, str], ...], entries: Mapping[str, Entry]
) -> list[tuple[Entry, str]]:
    out = []
    for slug, words in wanted:
        entry = entries.get(slug)
        if entry is None:
            continue
        found = _found(entry, words)
        if found:
            out.append((entry, found))
    return out
