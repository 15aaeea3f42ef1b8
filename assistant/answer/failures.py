"""Failure (understanding/failures.py) → the sentence that says what the pasted log shows, and
the entries that explain it.

    reading(Failure(collective_timeout, op="all-reduce", timeout_ms=600000))
        → «По логу операция all-reduce между GPU не завершилась за 600 000 мс: сработал
           таймаут NCCL, и процесс остановлен.»
    explaining(Failure(collective_timeout)) → ("all-reduce", "nccl")

The sentence restates the customer's own log (its figures are theirs); what it means comes from
the entries cited after it.
"""

from __future__ import annotations

from assistant.calculators.units import NBSP, num
from assistant.understanding.failures import Failure, FailureKind

_EXPLAINING: dict[FailureKind, tuple[str, ...]] = {
    FailureKind.collective_timeout: ("all-reduce", "nccl"),
    FailureKind.network: ("nccl", "infiniband", "roce"),
    FailureKind.driver_too_old: ("cuda",),
    FailureKind.no_gpu_on_amd: ("rocm",),
}


def explaining(f: Failure) -> tuple[str, ...]:
    return _EXPLAINING[f.kind]


def reading(f: Failure) -> str:
    if f.kind is FailureKind.collective_timeout:
        op = f"операция {f.op}" if f.op else "коллективная операция"
        limit = f" за {_limit(f.timeout_ms)}" if f.timeout_ms else " вовремя"
        return (
            f"По логу {op} между GPU не завершилась{limit}: сработал таймаут NCCL, "
            "и процесс остановлен."
        )
    if f.kind is FailureKind.network:
        return "По логу NCCL получил ошибку сети при обмене данными между серверами."
    if f.kind is FailureKind.driver_too_old:
        return "По логу драйвер NVIDIA старее версии CUDA, под которую собран фреймворк."
    return (
        "PyTorch не видит GPU: на сервере AMD Instinct нужна сборка PyTorch под ROCm, не под CUDA."
    )


def _limit(ms: int) -> str:
    return f"{num(ms)}{NBSP}мс"  # as the log says it: a figure of ours would need a source
