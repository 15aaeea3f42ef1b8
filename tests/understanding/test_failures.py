"""What a pasted log says went wrong (understanding/failures.py)."""

from __future__ import annotations

from assistant.understanding.failures import FailureKind, failure
from tests.helpers import read

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
