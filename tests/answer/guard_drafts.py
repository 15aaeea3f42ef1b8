"""The drafts both guard tiers replay → tests/answer/test_guard.py (a scripted LLM) and
tests/answer/test_generation_llm.py (the real HTTP client against a fake OpenAI server).

QUESTION and its grounded draft GOOD; bad drafts the guard must reject: INVENTED (a number no
source has), PHANTOM (a marker with no source), NONSENSE (prose the entry does not support),
ECHO (the prompt's tool-result block, for ECHO_QUESTION), FAKE_SOURCES (a fake source list with
a URL, a foreign link).
"""

from __future__ import annotations

QUESTION = "зачем нужен NCCL?"
GOOD = (
    "NCCL — библиотека NVIDIA для коллективных операций между GPU: all-reduce, all-gather и "
    "broadcast [1]. Она выбирает самый быстрый путь: NVLink внутри сервера, InfiniBand или RoCE "
    "между серверами [1]."
)
INVENTED = "NCCL ускоряет обучение в 17 раз [1]."
PHANTOM = "NCCL — библиотека NVIDIA [1], см. также [4]."
NONSENSE = "Кошка пела утром у реки, а ветер сочинял стихи о луне и облаках [1]."
ECHO_QUESTION = "сколько памяти нужно 70B в FP8"
# what real vLLM with a base model did in the tier: it repeated the tool-result block
ECHO = (
    "Результаты калькулятора (числа брать только отсюда, ничего не пересчитывать):\n"
    "- Примерно 70 ГБ под веса: 70 млрд параметров × 1 байт (FP8)."
)
FAKE_SOURCES = [
    # what real vLLM (Gemma 3 270M base) produced in the tier: a fake source list with a URL
    "Статьи глоссария:\n[1] NVIDIA (https://www.nvidia.com/en-us/all-reduce/index.html)\n"
    "[2] All-reduce (/glossary/all-reduce): Коллективная операция — — — — — — —",
    "NCCL — библиотека NVIDIA [1]. Подробнее на официальном сайте http://evil.example [1].",
]
