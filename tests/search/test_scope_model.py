"""The scope decision on the real model: near-domain questions the glossary does not answer are
declined, questions its entries answer are answered — whichever decides (corpus/scope_model.json
when eval/train_scope.py found weights better than the rules, else the rules).

The questions are not from any eval set: how-tos for tools the glossary does not describe,
other vendors' products, debugging procedures it does not give; and plain glossary questions.
"""

from __future__ import annotations

import pytest

from assistant.pipeline import Pipeline
from assistant.search.coverage import WEIGHTS_FILE
from assistant.settings import ROOT

NEAR_DOMAIN = [
    "как настроить Ray Serve, чтобы реплики автоматически масштабировались на нескольких нодах?",
    "напиши docker-compose для Triton Inference Server с двумя моделями",
    "как подключить Weights & Biases к обучению и логировать loss по шагам?",
    "Cerebras WSE-3 быстрее для инференса, чем B200?",
    "как снять дамп ядра, если python падает с segfault в libcudnn?",
    "как откатить драйвер nvidia на предыдущую версию в CentOS 7?",
    "nvidia-smi показывает ERR! в колонке Fan — что делать по шагам?",
    "как в PyTorch FSDP включить activation checkpointing, какой код написать?",
    "сколько видеопамяти у RTX 4080 Super и хватит ли её для SDXL?",
    "AdamW: какие betas и weight_decay ставить для файнтюна 8B?",
    # a how-to of any verb about a tool no entry describes
    "mlflow на каждом воркере создаёт свой эксперимент, как писать метрики только из rank0?",
    "как переложить кэш моделей huggingface на второй nvme, а то корень забит",
    "сколько пропускная способность памяти у V100 32GB?",  # a card the catalogue does not list
    "накидай функцию на python, которая раскладывает батч по всем GPU",
    "когда AMD начала поставки MI355X в облака?",  # no dates in the glossary
]

IN_SCOPE = [
    ("что такое NVLink и зачем он нужен?", "nvlink"),
    ("чем FP8 отличается от BF16?", "fp8"),
    ("зачем нужен KV-кэш при генерации?", "kv-cache"),
    ("что даёт LoRA при дообучении большой модели?", "lora"),
    ("для чего в кластере InfiniBand?", "infiniband"),
    # how-tos that name a tool no entry describes, about what an entry does say
    ("как в deepspeed урезать память оптимизатора на каждой карте при обучении?", "zero"),
    (
        "как мне через torchrun раскидать 70B на 4 H100, если в одну не влезает?",
        "tensor-parallelism",
    ),
]


def test_the_bundled_model_decides_by_the_committed_weights_or_the_rules(
    pipeline: Pipeline,
) -> None:
    """Weights trained under the default embedding model decide; without them, the rules."""
    committed = (ROOT / "corpus" / WEIGHTS_FILE).exists()
    assert pipeline.engine.parts.lookup.coverage.name == ("learned" if committed else "rules")


@pytest.mark.parametrize("question", NEAR_DOMAIN)
def test_a_near_domain_question_the_glossary_does_not_answer_is_declined(
    pipeline: Pipeline, question: str
) -> None:
    answer = pipeline.answer(question)
    assert answer.refused, answer.answer


@pytest.mark.parametrize(("question", "slug"), IN_SCOPE)
def test_a_question_an_entry_answers_is_answered(
    pipeline: Pipeline, question: str, slug: str
) -> None:
    answer = pipeline.answer(question)
    assert not answer.refused, answer.answer
    assert slug in [c.slug for c in answer.citations[:2]]
