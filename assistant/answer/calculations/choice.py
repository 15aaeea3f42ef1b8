"""Options computed side by side → the sentence that says which fits, first.

    choice_lead([fit on L40S, fit on RTX PRO 6000], catalog)
        → «Подойдёт NVIDIA RTX PRO 6000 Blackwell (96 ГБ); на NVIDIA L40S (48 ГБ) не поместится.»

Options are cards («одна L40S или одна RTX PRO 6000?»), precisions («FP8 или FP4?») or
fine-tuning methods («фулл файнтюн или LoRA?»); each option's own figures follow in the answer.
"""

from __future__ import annotations

from collections.abc import Sequence

from assistant.answer.specs import short_name
from assistant.calculators.base import ToolResult
from assistant.calculators.units import PRECISION_LABEL, gb_text
from assistant.corpus.catalog import Catalog

_FITS = {"fits": "поместится", "tight": "поместится только впритык", "no": "не поместится"}


def choice_lead(results: Sequence[ToolResult], catalog: Catalog) -> str:
    """Options computed side by side («одна L40S или одна RTX PRO 6000?», «FP8 или FP4?»,
    «фулл файнтюн или LoRA?»): which fits, first — «Подойдёт NVIDIA RTX PRO 6000 Blackwell
    (96 ГБ); на NVIDIA L40S (48 ГБ) не поместится.» Each option's figures follow."""
    verdicts = [_verdict(r) for r in results]
    if len(results) < 2 or "" in verdicts:
        return ""
    named = [_option_name(r, catalog, results) for r in results]
    good = [n for (n, _), v in zip(named, verdicts, strict=True) if v == "fits"]
    rest = [
        f"{where} {n} {_FITS[v]}".strip()
        for (n, where), v in zip(named, verdicts, strict=True)
        if v != "fits"
    ]
    if not good:
        return "Ни один вариант не подходит с запасом: " + "; ".join(rest) + "."
    head = ("Подойдёт " if len(good) == 1 else "Подойдут ") + " и ".join(good)
    return head + ("; " + "; ".join(rest) if rest else "") + "." + _fp4_note(results, catalog)


def _fp4_note(results: Sequence[ToolResult], catalog: Catalog) -> str:
    """«FP8 или FP4?» on a named card: whether the card computes in FP4 itself, from its sheet
    (the FP4 entry: Blackwell and MI355X do, Hopper does not)."""
    precisions = {str(r.inputs.get("precision")) for r in results}
    cards = {str(r.inputs.get("gpu")) for r in results} & set(catalog.gpus)
    if "fp4" not in precisions or len(precisions) < 2 or len(cards) != 1:
        return ""
    gpu = catalog.gpus[cards.pop()]
    name = short_name(gpu)
    if gpu.fp4_support:
        return f" {name} поддерживает FP4 аппаратно ({gpu.architecture})."
    return f" Аппаратной поддержки FP4 у {name} нет ({gpu.architecture})."


def _verdict(r: ToolResult) -> str:
    """A fit's verdict; a training estimate on a named card fits or not (activations aside)."""
    if r.tool == "gpu_fit" and "verdict" in r.values:
        return str(r.values["verdict"])
    if r.tool == "vram_training" and isinstance(r.values.get("fits"), bool):
        return "fits" if r.values["fits"] else "no"
    return ""


_METHOD_NAME = {"full": "полное дообучение", "lora": "LoRA", "qlora": "QLoRA"}


def _option_name(r: ToolResult, catalog: Catalog, options: Sequence[ToolResult]) -> tuple[str, str]:
    """What differs between the options, with its preposition: the card («на», «NVIDIA L40S
    (48 ГБ)»), the method («полное дообучение») or the precision («в», «FP8»)."""
    cards = {str(o.inputs.get("gpu")) for o in options}
    if len(cards) > 1 and isinstance(r.inputs.get("gpu"), str):
        g = catalog.gpus[str(r.inputs["gpu"])]
        return f"{g.name} ({gb_text(g.memory_gb)})", "на"
    if len({str(o.inputs.get("method")) for o in options}) > 1:
        return _METHOD_NAME.get(str(r.inputs.get("method")), "этот вариант"), ""
    return PRECISION_LABEL.get(str(r.inputs.get("precision")), "этот вариант"), "в"
