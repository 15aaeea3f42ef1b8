"""What a pasted log says went wrong (understanding/failures.py)."""

from __future__ import annotations

from assistant.understanding.failures import FailureKind, failure
from tests.helpers import CATALOG, read

TIMEOUT_LOG = (
    "[rank3]:[E1021 03:14:55 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective "
    "operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
    "Timeout(ms)=600000) ran for 600042 milliseconds before timing out."
)


def test_a_collective_timeout_names_its_operation_and_limit() -> None:
    f = read("обучение на двух серверах падает:\n\n" + TIMEOUT_LOG).failure
    assert f is not None and f.kind is FailureKind.collective_timeout
    assert f.op == "all-reduce" and f.timeout_ms == 600000


def test_pytorch_without_a_gpu_is_a_rocm_matter_only_on_amd() -> None:
    log = ">>> import torch; torch.cuda.is_available()\nFalse"
    amd = failure(log, "взяли сервер с MI355X, а он:\n" + log)
    assert amd is not None and amd.kind is FailureKind.no_gpu_on_amd
    assert failure(log, "взяли H100, а он:\n" + log) is None  # not a ROCm question on NVIDIA


def test_other_logs_and_plain_questions_name_no_failure() -> None:
    assert read("что такое NCCL?").failure is None
    oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
    assert read("падает:\n" + oom).failure is None  # the memory diagnosis reads it


def test_nccl_without_infiniband_falls_back_to_sockets() -> None:
    log = (
        "node1:881:902 [0] NCCL INFO NET/IB : No device found.\n"
        "node1:881:902 [0] NCCL INFO NET/Socket : Using [0]ens5:172.16.0.4<0>"
    )
    f = failure(log, "между двумя серверами шаг очень долгий:\n" + log)
    assert f is not None and f.kind is FailureKind.socket_fallback
    using_ib = "node1:881:902 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ens5"
    assert failure(using_ib, "лог:\n" + using_ib) is None  # InfiniBand found: nothing wrong


def test_a_timeout_after_a_fall_back_to_sockets_is_read_as_the_sockets() -> None:
    # the watchdog's timeout is the consequence; NCCL on TCP between servers is the cause
    log = (
        "NCCL INFO NET/IB : No device found.\nNCCL INFO NET/Socket : Using [0]eth0:10.0.0.12<0>\n"
        + TIMEOUT_LOG
    )
    f = failure(log, "2 ноды по 8 GPU, через полчаса падает:\n" + log)
    assert f is not None and f.kind is FailureKind.socket_fallback
    assert f.op == "all-reduce" and f.timeout_ms == 600000


def test_a_precision_the_card_lacks_is_named() -> None:
    fp4 = "ValueError: The quantization method nvfp4 is not supported for the current GPU."
    f = failure(fp4, "на H100 не стартует:\n" + fp4)
    assert f is not None and f.kind is FailureKind.precision_unsupported and f.precision == "fp4"
    fp8 = "ValueError: type fp8e4nv not supported in this architecture."
    g = failure(fp8, "на A100:\n" + fp8)
    assert g is not None and g.precision == "fp8"


def test_fp16_overflow_ecc_and_a_context_too_long_for_the_cache() -> None:
    overflow = "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1"
    assert (f := failure(overflow, overflow)) is not None and f.kind is FailureKind.fp16_overflow
    assert not f.memory  # no memory calculation explains it
    ecc = "RuntimeError: CUDA error: uncorrectable ECC error encountered"
    assert (e := failure(ecc, ecc)) is not None and e.kind is FailureKind.memory_error
    kv = (
        "ValueError: The model's max seq len (65536) is larger than the maximum number of "
        "tokens that can be stored in KV cache (40960)."
    )
    k = failure(kv, kv)
    assert k is not None and k.kind is FailureKind.kv_context and k.memory
    assert (k.tokens, k.room) == (65536, 40960)


def test_a_container_asking_for_a_newer_cuda_is_a_driver_too_old() -> None:
    log = (
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please "
        "update your driver to a newer version, or use an earlier cuda container: unknown."
    )
    f = failure(log, "контейнер не стартует:\n" + log)
    assert f is not None and f.kind is FailureKind.driver_too_old


def test_a_build_without_kernels_for_the_card_names_its_architecture() -> None:
    log = (
        "UserWarning: NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible "
        "with the current PyTorch installation.\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device"
    )
    f = failure(log, "арендовал 5090:\n" + log)
    assert f is not None and f.kind is FailureKind.no_kernel_image and f.arch == "sm_120"
    card = CATALOG.find_gpu(f.card)  # the card that failed, whatever else the prose names
    assert card is not None and card.id == "rtx-5090"


def test_nccl_through_the_hosts_memory_is_named_only_without_a_direct_path() -> None:
    shm = "NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct"
    f = failure(shm, "all-reduce тормозит:\n" + shm)
    assert f is not None and f.kind is FailureKind.host_memory_path
    mixed = shm + "\nNCCL INFO Channel 01/0 : 1[1] -> 2[2] via P2P/IPC"
    assert failure(mixed, "лог:\n" + mixed) is None  # the cards also talk directly


def test_cards_without_a_direct_link_are_named() -> None:
    log = (
        "WARNING [custom_all_reduce.py:133] Custom allreduce is disabled because your platform "
        "lacks GPU P2P capability or P2P test failed."
    )
    f = failure(log, "2x rtx 5090, tp 2:\n" + log)
    assert f is not None and f.kind is FailureKind.no_peer_link


def test_an_nvlink_xid_beside_a_collective_timeout_is_the_link_error() -> None:
    xid = (
        "NVRM: Xid (PCI:0000:9d:00): 74, pid=18830, name=python, NVLink: fatal error detected "
        "on link 5(0x0, 0x0, 0x10000, 0x0)"
    )
    f = failure(TIMEOUT_LOG + "\n" + xid, "трейн висит и валится:\n" + TIMEOUT_LOG + "\n" + xid)
    assert f is not None and f.kind is FailureKind.link_error
    assert f.op == "all-reduce" and f.timeout_ms == 600000


def test_a_gpu_fallen_off_the_bus_beside_a_timeout_is_the_lost_card() -> None:
    xid = "NVRM: Xid (PCI:0000:9b:00): 79, pid=48211, name=python3, GPU has fallen off the bus."
    f = failure(xid + "\n" + TIMEOUT_LOG, "8xH100, DDP, всё встало:\n" + xid + "\n" + TIMEOUT_LOG)
    assert f is not None and f.kind is FailureKind.card_lost and f.timeout_ms == 600000
