"""A pasted log (+ the message around it) → Failure: what went wrong, as the program said it.

    failure("[Rank 12] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=48211,
             OpType=ALLREDUCE, …, Timeout(ms)=600000) ran for 600042 milliseconds …", text)
        → Failure(FailureKind.collective_timeout, op="all-reduce", timeout_ms=600000)

Only the failures the glossary can explain: a collective operation that timed out (NCCL and
all-reduce, the interconnect), a network error of NCCL between servers (InfiniBand, RoCE), a
driver older than the CUDA a framework was built for (CUDA), and PyTorch that sees no GPU on an
AMD server (ROCm). Memory failures are the diagnosis's (diagnosis.py); anything else is None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class FailureKind(StrEnum):
    collective_timeout = "collective_timeout"  # NCCL watchdog: an all-reduce never finished
    network = "network"  # NCCL WARN NET/IB …: the link between servers failed
    driver_too_old = "driver_too_old"  # the driver is older than the framework's CUDA
    no_gpu_on_amd = "no_gpu_on_amd"  # torch.cuda.is_available() False on AMD Instinct


@dataclass(frozen=True)
class Failure:
    kind: FailureKind
    op: str = ""  # the collective operation named («all-reduce»)
    timeout_ms: int = 0  # the watchdog's limit, as the log gives it


_TIMEOUT = re.compile(
    r"collective operation timeout|watchdog caught collective|ncclTimeout|"
    r"nccl[^\n]{0,80}tim(?:ed|e) ?out",
    re.IGNORECASE,
)
_OP = re.compile(r"OpType=(\w+)")
_LIMIT = re.compile(r"Timeout\(ms\)=(\d+)")
_NETWORK = re.compile(
    r"NET/IB|NET/Socket|ibv_\w+|IBV_WC_\w+|Got completion from peer|NCCL[^\n]{0,40}(?:WARN|ERROR)"
    r"[^\n]{0,80}(?:IB|RoCE|RDMA|socket)",
)
_DRIVER = re.compile(
    r"driver version is insufficient|NVIDIA driver on your system is too old|"
    r"CUDA driver version is insufficient",
    re.IGNORECASE,
)
_NO_GPU = re.compile(
    r"is_available\(\)\s*\n\s*False|no CUDA GPUs are available|Found no NVIDIA driver|"
    r"Torch not compiled with CUDA",
    re.IGNORECASE,
)
_AMD = re.compile(r"(?<![\w])(?:mi\s?\d{3}x?|amd|instinct|rocm|радеон|амд)(?![\w])", re.IGNORECASE)
_OPS = {"ALLREDUCE": "all-reduce", "ALLGATHER": "all-gather", "BROADCAST": "broadcast"}


def failure(log: str, text: str) -> Failure | None:
    """`log`: the pasted lines (pasted.py); `text`: the whole message, for the setup beside it."""
    if not log:
        return None
    if _TIMEOUT.search(log):
        op = _OP.search(log)
        limit = _LIMIT.search(log)
        return Failure(
            FailureKind.collective_timeout,
            op=_OPS.get(op.group(1).upper(), op.group(1).lower()) if op else "",
            timeout_ms=int(limit.group(1)) if limit else 0,
        )
    if _NETWORK.search(log):
        return Failure(FailureKind.network)
    if _DRIVER.search(log):
        return Failure(FailureKind.driver_too_old)
    if _NO_GPU.search(log) and _AMD.search(text):
        return Failure(FailureKind.no_gpu_on_amd)
    return None
