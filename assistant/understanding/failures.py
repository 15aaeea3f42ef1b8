"""A pasted log (+ the message around it) → Failure: what went wrong, as the program said it.

    failure("[Rank 12] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=48211,
             OpType=ALLREDUCE, …, Timeout(ms)=600000) ran for 600042 milliseconds …", text)
        → Failure(FailureKind.collective_timeout, op="all-reduce", timeout_ms=600000)

Only the failures the glossary can explain: a collective operation that timed out (NCCL and
all-reduce, the interconnect), a network error of NCCL between servers (InfiniBand, RoCE), NCCL
falling back to TCP sockets when it finds no InfiniBand (RDMA), a driver older than the CUDA a
framework was built for (CUDA), PyTorch that sees no GPU on an AMD server (ROCm), FP4 or FP8
kernels on a card without them (FP4, FP8, tensor cores), FP16's loss scale at its floor (BF16),
an uncorrectable ECC error (DCGM), a context too long for the KV cache left (KV cache), a
framework built without kernels for the card's architecture (CUDA, Blackwell), and NCCL passing
data between the cards through the host's memory or cards with no direct link (NVLink, PCIe),
and an NVLink error or a GPU fallen off the bus a hung collective follows (NVLink, DCGM).
Whether a model fits is the diagnosis's (diagnosis.py); anything else is None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class FailureKind(StrEnum):
    collective_timeout = "collective_timeout"  # NCCL watchdog: an all-reduce never finished
    network = "network"  # NCCL WARN NET/IB …: the link between servers failed
    socket_fallback = "socket_fallback"  # NET/IB : No device found → NET/Socket: TCP, no RDMA
    driver_too_old = "driver_too_old"  # the driver is older than the framework's CUDA
    no_gpu_on_amd = "no_gpu_on_amd"  # torch.cuda.is_available() False on AMD Instinct
    precision_unsupported = "precision_unsupported"  # FP4 / FP8 kernels on a card without them
    fp16_overflow = "fp16_overflow"  # the loss scale fell to its floor: FP16's narrow range
    memory_error = "memory_error"  # an uncorrectable ECC error: the GPU's memory is failing
    kv_context = "kv_context"  # the model's context does not fit the KV cache left
    no_kernel_image = "no_kernel_image"  # the build has no kernels for the card's architecture
    host_memory_path = "host_memory_path"  # NCCL between the cards via SHM: no NVLink, no P2P
    no_peer_link = "no_peer_link"  # the cards cannot reach each other directly (no P2P)
    link_error = "link_error"  # an NVLink hardware error (Xid 74): a collective hangs on it
    card_lost = "card_lost"  # a GPU fell off the bus (Xid 79): the others wait for it


@dataclass(frozen=True)
class Failure:
    kind: FailureKind
    op: str = ""  # the collective operation named («all-reduce»)
    timeout_ms: int = 0  # the watchdog's limit, as the log gives it
    precision: str = ""  # the precision a card lacks («fp4», «fp8»)
    tokens: int = 0  # the context the model asks for («max seq len (131072)»)
    room: int = 0  # the tokens the KV cache can hold, as the log says
    arch: str = ""  # the card's compute capability the build lacks («sm_120»)
    card: str = ""  # the card the log names («GeForce RTX 5090»): the one that failed

    @property
    def memory(self) -> bool:
        """The setup's memory is the cause: the calculation of it says by how much."""
        return self.kind is FailureKind.kv_context


_TIMEOUT = re.compile(
    r"collective operation timeout|watchdog caught collective|ncclTimeout|"
    r"nccl[^\n]{0,80}tim(?:ed|e) ?out",
    re.IGNORECASE,
)
_OP = re.compile(r"OpType=(\w+)")
# «NVRM: Xid (PCI:…): 74, … NVLink: fatal error detected on link 5»
# «NVRM: Xid (PCI:…): 79, … GPU has fallen off the bus»
_CARD_LOST = re.compile(r"fallen off the bus|Xid \([^)]*\): 79\b", re.I)
_LINK_ERROR = re.compile(r"NVLink: fatal error|Xid \([^)]*\): 74\b|nvlink[^\n]{0,40}fatal", re.I)
_LIMIT = re.compile(r"Timeout\(ms\)=(\d+)")
_NETWORK = re.compile(
    r"NET/IB|NET/Socket|ibv_\w+|IBV_WC_\w+|Got completion from peer|NCCL[^\n]{0,40}(?:WARN|ERROR)"
    r"[^\n]{0,80}(?:IB|RoCE|RDMA|socket)",
)
_TROUBLE = re.compile(r"WARN|ERROR|error|fail|status=|timeout|refused|reset", re.IGNORECASE)
_SOCKET = re.compile(r"NET/IB\s*:\s*No device found|NET/Socket\s*:\s*Using", re.IGNORECASE)
_UNSUPPORTED = re.compile(
    r"not supported for the current GPU|Minimum capability: \d+|"
    r"fp8\w* not supported in this architecture|(?:fp8|fp4)\w*[^\n]{0,60}not supported",
    re.IGNORECASE,
)
_FP4 = re.compile(r"fp4|nvfp4|mxfp4", re.IGNORECASE)
_OVERFLOW = re.compile(
    r"OVERFLOW!|loss scale already at minimum|Gradient overflow|Attempted loss scale", re.I
)
_ECC = re.compile(r"uncorrectable ECC|double bit error|\bDBE\b|ECC error", re.IGNORECASE)
_KV_CONTEXT = re.compile(
    r"max seq len \((\d+)\) is larger than the maximum number of tokens that can be stored in "
    r"KV cache \((\d+)\)",
    re.IGNORECASE,
)
_DRIVER = re.compile(
    r"driver version is insufficient|NVIDIA driver on your system is too old|"
    r"CUDA driver version is insufficient|unsatisfied condition: cuda\s*>=|"
    r"please update your driver",
    re.IGNORECASE,
)
_NO_KERNEL = re.compile(
    r"no kernel image is available|(?:capability|архитектур\w*) (sm_\d+) is not compatible",
    re.IGNORECASE,
)
_ARCH = re.compile(r"capability (sm_\d+) is not compatible", re.IGNORECASE)
# the card the log itself names: «NVIDIA GeForce RTX 5090 with CUDA capability sm_120 …»
_CARD = re.compile(r"(?:NVIDIA\s+)?([\w .-]{2,40}?) with CUDA capability", re.IGNORECASE)
# «NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct»: through the host's memory
_SHM = re.compile(r"NCCL INFO[^\n]*\bvia SHM\b", re.IGNORECASE)
_DIRECT = re.compile(r"NCCL INFO[^\n]*\bvia (?:P2P|NVLS)\b", re.IGNORECASE)
# «Custom allreduce is disabled because your platform lacks GPU P2P capability»: no direct link
_NO_PEER = re.compile(
    r"lacks GPU P2P|P2P (?:test failed|is not supported|access is not supported)|"
    r"peer access is not supported|P2P is disabled",
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
    op = _OP.search(log)
    limit = _LIMIT.search(log)
    name = _OPS.get(op.group(1).upper(), op.group(1).lower()) if op else ""
    ms = int(limit.group(1)) if limit else 0
    timed = bool(_TIMEOUT.search(log))
    if _CARD_LOST.search(log):  # the hardware fault is why the collective never finished
        return Failure(FailureKind.card_lost, op=name, timeout_ms=ms if timed else 0)
    if _LINK_ERROR.search(log):
        return Failure(FailureKind.link_error, op=name, timeout_ms=ms if timed else 0)
    # NCCL on TCP sockets is why a collective times out between servers: the cause comes first
    if _SOCKET.search(log) and not re.search(r"NET/IB\s*:\s*Using", log):
        if not timed:
            return Failure(FailureKind.socket_fallback)
        return Failure(FailureKind.socket_fallback, op=name, timeout_ms=ms)
    if timed:
        return Failure(FailureKind.collective_timeout, op=name, timeout_ms=ms)
    if _NETWORK.search(log) and _TROUBLE.search(log):  # «NET/IB : Using mlx5_0» is no error
        return Failure(FailureKind.network)
    if _UNSUPPORTED.search(log):
        return Failure(FailureKind.precision_unsupported, precision=_precision(log))
    if _OVERFLOW.search(log):
        return Failure(FailureKind.fp16_overflow)
    if _ECC.search(log):
        return Failure(FailureKind.memory_error)
    if kv := _KV_CONTEXT.search(log):
        return Failure(FailureKind.kv_context, tokens=int(kv.group(1)), room=int(kv.group(2)))
    if _DRIVER.search(log):
        return Failure(FailureKind.driver_too_old)
    if _NO_KERNEL.search(log):
        arch, card = _ARCH.search(log), _CARD.search(log)
        return Failure(
            FailureKind.no_kernel_image,
            arch=arch.group(1).lower() if arch else "",
            card=re.sub(r"^NVIDIA\s+", "", card.group(1).strip()) if card else "",
        )
    if _SHM.search(log) and not _DIRECT.search(log):
        return Failure(FailureKind.host_memory_path)
    if _NO_PEER.search(log):
        return Failure(FailureKind.no_peer_link)
    if _NO_GPU.search(log) and _AMD.search(text):
        return Failure(FailureKind.no_gpu_on_amd)
    return None


def _precision(log: str) -> str:
    return "fp4" if _FP4.search(log) else "fp8"
