"""Fine-tuning methods computed side by side → the chosen method's own sentence about the other.

    method_reason([LoRA on H100: no, QLoRA on H100: fits], entries)
        → (qlora entry, «QLoRA сокращает расход памяти … ценой некоторого снижения скорости по
           сравнению с LoRA на весах в BF16.»)
    method_reason([full, LoRA], entries)   no card named: the lighter method
        → (lora entry, «Поскольку градиенты … LoRA требует гораздо меньше видеопамяти, чем
           полное дообучение, а сами адаптеры — небольшие файлы, которые можно подменять …»)

The figures say which fits; what the choice costs or gives beyond memory (speed, adapters to
swap) is in the entries, in the sentence that weighs the method against the other one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from assistant.calculators.base import ToolResult
from assistant.corpus.glossary import Entry
from assistant.text.sentences import split_sentences

# how an entry names the other method («по сравнению с LoRA», «чем полное дообучение»)
_NAMED = {
    "full": re.compile(r"полн\w* дообучени\w*|full fine-?tun", re.IGNORECASE),
    "lora": re.compile(r"(?<![\w])lora(?![\w])", re.IGNORECASE),
    "qlora": re.compile(r"(?<![\w])qlora(?![\w])", re.IGNORECASE),
}


def method_reason(
    results: Sequence[ToolResult], entries: Mapping[str, Entry]
) -> tuple[Entry, str] | None:
    """The entry of the method to take and its sentence naming the other; None unless the
    results are training estimates that differ by method only."""
    methods = [str(r.inputs.get("method") or "full") for r in results]
    if len(results) != 2 or any(r.tool != "vram_training" for r in results):
        return None
    if len(set(methods)) != 2:
        return None
    chosen = _chosen(results, methods)
    other = next(m for m in methods if m != chosen)
    entry = entries.get(chosen)
    if entry is None:
        return None
    sentences = split_sentences(entry.text)[1:]  # past the definition: what it weighs
    found = next((s for s in sentences if _NAMED[other].search(s)), None)
    return (entry, found) if found else None


def _chosen(results: Sequence[ToolResult], methods: list[str]) -> str:
    """The one that fits when only one does; else the lighter (it fits wherever the other
    does, and the sentence says what it costs)."""
    fits = [m for r, m in zip(results, methods, strict=True) if r.values.get("fits") is True]
    if len(fits) == 1:
        return fits[0]
    need = [_need(r) for r in results]
    return methods[need.index(min(need))]


def _need(r: ToolResult) -> float:
    value = r.values.get("per_gpu_gb", r.values.get("total_gb"))
    return float(value) if isinstance(value, int | float) else float("inf")
