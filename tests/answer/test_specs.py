"""GPU sheets → the sentences that compare them: what differs most leads, memory always said."""

from __future__ import annotations

import pytest

from assistant.answer.specs import comparison_lead, same_specs, sheet_sentences, use_verdict
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


def test_what_the_cards_share_is_said_with_the_figures() -> None:
    """«h100 vs h200 — считать одинаково будут?»: the same Hopper compute, power and link."""
    gpus = [CATALOG.gpus[i] for i in ("h100-sxm", "h200")]
    text = same_specs(gpus, [1, 2]).replace("\u00a0", " ")
    assert "989 TFLOPS" in text and "1 979 TFLOPS" in text and "700 Вт" in text
    assert "900 ГБ/с" in text and text.endswith("[1], [2].")
    # A100 and H100 share neither compute, power nor link
    assert same_specs([CATALOG.gpus[i] for i in ("a100-80gb", "h100-sxm")], [1, 2]) == ""


def test_a_pcie_card_overview_says_it_has_no_nvlink() -> None:
    assert "без NVLink" in sheet_sentences(CATALOG.gpus["rtx-5090"])["overview"]
    assert "без NVLink" not in sheet_sentences(CATALOG.gpus["mi355x"])["overview"]


def test_a_spec_asked_for_that_the_cards_share_gives_way_to_what_differs() -> None:
    """«h100 vs h200 — по tflops вроде одно и то же»: the memory differs, not the compute."""
    assert lead("h100-sxm", "h200", fields=("compute",)).startswith("Главное различие — память")


def test_an_asked_difference_still_says_the_memory() -> None:
    """«mi355x vs mi300x под FP4»: FP4 leads, and 288 against 192 ГБ is still said."""
    text = lead("mi355x", "mi300x", fields=("fp4",))
    assert text.startswith("Главное различие — поддержка FP4")
    assert "288 ГБ" in text and "192 ГБ" in text


def test_a_card_not_rented_out_says_so_first_in_its_line() -> None:
    line = sheet_sentences(CATALOG.gpus["a100-80gb"])["overview"]
    assert line.startswith("NVIDIA A100 80GB (FullGPU её не предлагает):")
    assert "есть в аренде" in sheet_sentences(CATALOG.gpus["h100-sxm"])["overview"]


def verdict(*ids: str, terms: set[str]) -> str:
    gpus = [CATALOG.gpus[i] for i in ids]
    return use_verdict(gpus, [1, 2], terms).replace("\u00a0", " ")


def test_the_work_named_picks_the_card_by_its_figures() -> None:
    moe_fp4 = verdict("b200", "b300", terms={"fp4", "moe"})
    assert moe_fp4.startswith("Для этой задачи разумнее NVIDIA B300")
    assert (
        "13 500 TFLOPS [2] против 9 000 TFLOPS" in moe_fp4 and "288 ГБ [2] против 180 ГБ" in moe_fp4
    )
    assert "только она [2]" in verdict("h200", "b200", terms={"fp4"})
    assert verdict("b200", "b300", terms=set()) == ""  # no work named: the table stands
    # FP4 on one card, more memory on the other (96 against 141 ГБ): no single pick
    assert verdict("rtx-pro-6000", "h200", terms={"fp4", "moe"}) == ""


def test_parallel_work_picks_the_card_with_nvlink() -> None:
    tp = verdict("h200", "rtx-pro-6000", terms={"tensor-parallelism"})
    assert tp.startswith("Для этой задачи разумнее NVIDIA H200: связь между GPU — NVLink 4")
    assert "PCIe Gen5 x16 у NVIDIA RTX PRO 6000 Blackwell [2]" in tp
    assert verdict("h100-sxm", "h200", terms={"tensor-parallelism"}) == ""  # both have it
