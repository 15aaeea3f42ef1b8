"""understanding/pasted.py: a pasted log is told apart from the person's own lines, so a
traceback's units and file names never become calculator parameters."""

from __future__ import annotations

from assistant.corpus.catalog import Catalog
from assistant.understanding.pasted import pasted
from assistant.understanding.reader import Reader

TRACEBACK = """делаем полный sft llama 3.1 8b (AdamW, bf16 mixed precision), одна L40S. падает:

Traceback (most recent call last):
  File "/home/ubuntu/sft/train.py", line 142, in <module>
    trainer.train()
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 224.00 MiB. GPU 0 has a total \
capacity of 44.42 GiB of which 118.25 MiB is free.
что делать?"""

VLLM = """qwen 2.5 32b в bf16, одна h100, хотим 32k контекста, vllm не стартует:

INFO 03-14 10:22:41 [gpu_model_runner.py:1595] Model loading took 61.0365 GiB and 24.51 seconds
(VllmWorker rank=0 pid=8812) ERROR 03-14 10:22:58 No available memory for the cache blocks."""

NCCL = """2 узла, обучение падает раз в несколько часов:
gpu-node-03:51211:51398 [3] NCCL WARN NET/IB : Got completion from peer with status=12
[rank12]:[E1021 03:14:55.118273 ProcessGroupNCCL.cpp:616] Watchdog caught collective timeout"""


def test_the_persons_lines_are_kept_in_order_and_the_log_apart() -> None:
    p = pasted(TRACEBACK)
    assert p.prose.splitlines() == [TRACEBACK.splitlines()[0], "что делать?"]
    assert "Traceback" in p.log and "OutOfMemoryError" in p.log and "train.py" in p.log


def test_logger_lines_worker_prefixes_and_nccl_lines_are_log() -> None:
    assert pasted(VLLM).prose == VLLM.splitlines()[0]
    assert pasted(NCCL).prose == NCCL.splitlines()[0]
    assert pasted(NCCL).log.count("\n") == 1


def test_a_message_without_a_log_is_all_prose() -> None:
    for text in ("CUDA out of memory что делать", "сколько памяти нужно 70B?\nв FP8"):
        assert pasted(text).log == ""
        assert pasted(text).prose == text


def test_a_logs_units_are_not_the_customers(catalog: Catalog) -> None:
    """«44.42 GiB» in the traceback is not a request to answer in GiB, and «одна L40S.» with
    its full stop is the card."""
    parsed = Reader(catalog).read(TRACEBACK)
    assert parsed.log
    params = parsed.quantities.params
    assert params.gib is None
    assert params.model == "llama-3-8b" and params.gpu == "l40s"
    assert Reader(catalog).read(VLLM).quantities.params.gib is None


FENCED = """контейнер не стартует:
```
nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update
```
что делать?"""

TABLE = """в nvidia-smi вот так:
```
| MIG devices:                                  |
|   0   3   0   0  |  19MiB / 19968MiB | 28   0 |
```
у вас тоже так режут?"""


def test_a_fenced_failure_is_log_though_no_line_looks_like_one() -> None:
    p = pasted(FENCED)
    assert "requirement error" in p.log and "```" not in p.log
    assert p.prose.splitlines() == ["контейнер не стартует:", "что делать?"]


def test_a_fenced_table_without_a_failure_stays_the_persons() -> None:
    assert pasted(TABLE).log == ""


def test_a_whole_line_in_backticks_that_reports_a_failure_is_log() -> None:
    text = (
        "`NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the "
        "current PyTorch installation.`\nобраз с torch 2.3 + cuda 12.1, на h100 это работало"
    )
    p = pasted(text)
    assert "sm_120" in p.log and p.prose == "образ с torch 2.3 + cuda 12.1, на h100 это работало"
    # a command in backticks reports nothing: it stays the person's
    assert pasted("`vllm serve Qwen/Qwen2.5-32B-Instruct --tp 2`\nпочему медленно?").log == ""


def test_a_fenced_overflow_with_a_nan_loss_is_log() -> None:
    text = (
        "обучаю в fp16 через amp на h100, в логе такое:\n```\n[deepspeed] OVERFLOW! Rank 0 "
        "Skipping step. Attempted loss scale: 2, reducing to 1\n...\nstep 412 | loss: nan\n```\n"
        "как лечить?"
    )
    p = pasted(text)
    assert "OVERFLOW" in p.log and "loss: nan" in p.log
    assert p.prose.splitlines() == ["обучаю в fp16 через amp на h100, в логе такое:", "как лечить?"]
