"""GPU sheets → the sentences that compare them: what differs most leads, memory always said."""

from __future__ import annotations

import pytest

from assistant.answer.specs import comparison_lead
from assistant.text.sentences import split_sentences
from tests.helpers import CATALOG


def lead(*ids: str, fields: tuple[str, ...] = ()) -> str:
    gpus = [CATALOG.gpus[i] for i in ids]
    return comparison_lead(gpus, list(range(1, len(gpus) + 1)), fields).replace("\u00a0", " ")


def test_the_same_memory_is_no_main_difference() -> None:
    """A100 80GB and H100 both hold 80 ГБ; 312 against 989 TFLOPS in BF16 is what differs."""
    text = lead("a100-80gb", "h100-sxm")
    assert text.startswith("Главное различие — производительность")
    assert "312" in text and "989" in text
    assert text.count("80 ГБ") == 2 and len(split_sentences(text)) == 1  # the memory too


@pytest.mark.parametrize(
    ("ids", "focus"),
    [
        (("h100-sxm", "h200"), "память"),  # 80 against 141 ГБ
        (("b200", "mi355x"), "память"),  # 180 against 288 ГБ, the same 8 ТБ/с
        (("rtx-5090", "l40s"), "пропускная способность памяти"),  # 1 792 against 864 ГБ/с
    ],
)
def test_the_widest_difference_leads(ids: tuple[str, str], focus: str) -> None:
    assert lead(*ids).startswith(f"Главное различие — {focus}:")


def test_a_spec_asked_for_leads_whatever_differs_most() -> None:
    assert lead("a100-80gb", "h100-sxm", fields=("tdp",)).startswith(
        "Главное различие — энергопотребление"
    )
