"""Failure (understanding/failures.py) → the sentence that says what the pasted log shows, and
the entries that explain it.

    reading(Failure(collective_timeout, op="all-reduce", timeout_ms=600000))
        → «По логу операция all-reduce между GPU не завершилась за 600 000 мс: сработал
           таймаут NCCL, и процесс остановлен.»
    explaining(Failure(collective_timeout)) → ("all-reduce", "nccl")
    reading(Failure(precision_unsupported, precision="fp4"), gpu=H100 SXM)
        → «По логу FP4 на этом GPU не работает: у H100 SXM нет аппаратной поддержки FP4.»

The sentence restates the customer's own log (its figures are theirs) and, for a card the
message names, its catalogue sheet; what it means comes from the entries cited after it.
"""

from __future__ import annotations

from assistant.calculators.units import NBSP, num
from assistant.corpus.catalog import Gpu
from assistant.understanding.failures import Failure, FailureKind

_EXPLAINING: dict[FailureKind, tuple[str, ...]] = {
    FailureKind.collective_timeout: ("all-reduce", "nccl"),
    FailureKind.network: ("nccl", "infiniband", "roce"),
    FailureKind.socket_fallback: ("nccl", "infiniband", "rdma"),
    # the driver is the customer's to update: a single-GPU plan's guest OS loads its own, an
    # 8-GPU server is bare metal
    FailureKind.driver_too_old: ("cuda", "gpu-passthrough", "bare-metal"),
    FailureKind.no_gpu_on_amd: ("rocm",),
    FailureKind.precision_unsupported: ("fp8", "tensor-cores", "hopper"),
    FailureKind.fp16_overflow: ("bf16", "mixed-precision"),
    FailureKind.memory_error: ("dcgm",),
    FailureKind.kv_context: ("kv-cache", "vllm", "quantization"),
    FailureKind.no_kernel_image: ("cuda", "blackwell"),
    FailureKind.host_memory_path: ("nvlink", "pcie-gen5", "nccl"),
    FailureKind.no_peer_link: ("nvlink", "tensor-parallelism", "pcie-gen5"),
    FailureKind.link_error: ("dcgm", "nvlink", "nccl"),
    FailureKind.card_lost: ("dcgm", "all-reduce", "nccl"),
}
_FP4_EXPLAINING = ("fp4", "blackwell")
# the failures whose cause is that the cards talk over PCIe, not NVLink
OVER_PCIE = frozenset({FailureKind.host_memory_path, FailureKind.no_peer_link})


def explaining(f: Failure) -> tuple[str, ...]:
    if f.kind is FailureKind.precision_unsupported and f.precision == "fp4":
        return _FP4_EXPLAINING
    return _EXPLAINING[f.kind]


def reading(f: Failure, gpu: Gpu | None = None) -> str:
    """`gpu`: the card the message names (its sheet says what it lacks)."""
    if f.kind is FailureKind.collective_timeout:
        op = f"операция {f.op}" if f.op else "коллективная операция"
        limit = f" за {_count(f.timeout_ms, 'мс')}" if f.timeout_ms else " вовремя"
        return (
            f"По логу {op} между GPU не завершилась{limit}: сработал таймаут NCCL, "
            "и процесс остановлен."
        )
    if f.kind is FailureKind.card_lost:
        op = f"в операции {f.op}" if f.op else "в коллективной операции"
        hung = (
            f": остальные ждали его {op}, и через {_count(f.timeout_ms, 'мс')} сработал таймаут "
            "NCCL"
            if f.timeout_ms
            else ""
        )
        return (
            "По логу один из GPU отвалился от шины (Xid 79, GPU has fallen off the bus)"
            f"{hung} — это аппаратный сбой, а не ошибка в коде."
        )
    if f.kind is FailureKind.link_error:
        fault = "аппаратной ошибки NVLink (Xid 74) на одном из GPU — это не ошибка в коде"
        if f.timeout_ms:  # what hung and why, in one sentence
            op = f"операция {f.op}" if f.op else "коллективная операция"
            limit = _count(f.timeout_ms, "мс")
            return f"По логу {op} между GPU не завершилась за {limit} из-за {fault}."
        return "По логу это аппаратная ошибка NVLink (Xid 74) на одном из GPU, а не ошибка в коде."
    if f.kind is FailureKind.socket_fallback and f.timeout_ms:
        op = f"операция {f.op}" if f.op else "коллективная операция"
        return (
            f"{_READING[f.kind]} Поэтому {op} не уложилась в таймаут NCCL "
            f"({_count(f.timeout_ms, 'мс')}), и процесс остановлен."
        )
    if f.kind is FailureKind.precision_unsupported:
        return _unsupported(f.precision, gpu)
    if f.kind is FailureKind.no_kernel_image:
        return _no_kernel(f.arch, gpu)
    if f.kind is FailureKind.host_memory_path and gpu is not None and not gpu.nvlink:
        return (  # «у коллег на h100 там NVLS и P2P»: the named card's sheet says why not
            "По логу NCCL передаёт данные между GPU через общую память хоста (via SHM): у "
            f"{gpu.short} нет NVLink, и обмен между картами идёт по медленному пути через CPU."
        )
    if f.kind is FailureKind.no_peer_link and gpu is not None and not gpu.nvlink:
        return (
            f"По логу карты не обмениваются данными напрямую: у {gpu.short} нет NVLink, поэтому "
            "обмен между ними при тензорном параллелизме идёт через PCIe — медленнее, и так на "
            "каждом слое."
        )
    return _READING[f.kind].format(
        tokens=_count(f.tokens, "токенов"), room=_count(f.room, "токенов")
    )


_READING: dict[FailureKind, str] = {
    FailureKind.network: "По логу NCCL получил ошибку сети при обмене данными между серверами.",
    FailureKind.socket_fallback: (
        "По логу NCCL не нашёл InfiniBand (NET/IB : No device found) и передаёт данные между "
        "серверами через обычные сокеты TCP, без RDMA: обмен градиентами между серверами идёт "
        "по медленному пути."
    ),
    FailureKind.driver_too_old: (
        "По логу драйвер NVIDIA старее версии CUDA, под которую собран фреймворк: обновите "
        "драйвер или возьмите сборку фреймворка под ту версию CUDA, которую он поддерживает."
    ),
    FailureKind.no_gpu_on_amd: (
        "PyTorch не видит GPU: на сервере AMD Instinct нужна сборка PyTorch под ROCm, а сборка "
        "под CUDA работает только на GPU NVIDIA."
    ),
    FailureKind.fp16_overflow: (
        "По логу при обучении в FP16 масштаб функции потерь (loss scale) упал до минимума: "
        "значения выходят за узкий диапазон FP16, и шаги пропускаются."
    ),
    FailureKind.memory_error: (
        "По логу это аппаратная ошибка: неисправимая ошибка памяти GPU (ECC), а не ошибка в коде."
    ),
    FailureKind.host_memory_path: (
        # no «P2P»: no entry names it, and the guard rejects a name no source gives
        "По логу NCCL передаёт данные между GPU через общую память хоста (via SHM), а не "
        "напрямую по NVLink: обмен между картами идёт по медленному пути через CPU."
    ),
    FailureKind.no_peer_link: (
        "По логу карты не обмениваются данными напрямую, без NVLink: обмен между ними идёт "
        "через PCIe, медленнее."
    ),
    FailureKind.kv_context: (
        "По логу KV-кэш на полный контекст модели ({tokens}) не помещается в память, "
        "оставшуюся после весов: в неё входит {room}. Поможет уменьшить максимальную "
        "длину контекста: на неё движок резервирует кэш."
    ),
}


def _unsupported(precision: str, gpu: Gpu | None) -> str:
    """What the log says, and what the named card's sheet says of it (when it agrees)."""
    label = precision.upper()
    if gpu is not None and not supports(gpu, precision):
        return (
            f"По логу {label} на этом GPU не работает: у {gpu.short} ({gpu.architecture}) нет "
            f"аппаратной поддержки {label}."
        )
    return f"По логу ядрам {label} нужен GPU с аппаратной поддержкой {label}."


def _no_kernel(arch: str, gpu: Gpu | None) -> str:
    """What the log says, and the architecture of the named card (its sheet)."""
    own = f" ({arch})" if arch else ""
    if gpu is not None:
        return (
            f"По логу в этой сборке фреймворка нет ядер для архитектуры {gpu.short}{own}: "
            f"{gpu.short} построена на {gpu.architecture}, а сборка — под более старые GPU. "
            f"{_NEWER_BUILD}"
        )
    return (
        f"По логу в этой сборке фреймворка нет ядер для архитектуры вашего GPU{own}. {_NEWER_BUILD}"
    )


# what helps when a build predates the card: the remedy, in the customer's terms
_NEWER_BUILD = "Нужна более свежая сборка фреймворка, собранная с поддержкой этой архитектуры."


def supports(gpu: Gpu, precision: str) -> bool:
    """The card computes in FP4 / FP8 (its sheet: fp4_support, an FP8 rate)."""
    return gpu.fp4_support if precision == "fp4" else gpu.fp8_tflops is not None


def _count(n: int, unit: str) -> str:
    return f"{num(n)}{NBSP}{unit}"  # as the log says it: a figure of ours would need a source
