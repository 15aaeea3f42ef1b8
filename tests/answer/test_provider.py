"""A question about the provider → FullGPU's own sentences first (answer/plans.py, cards.py)."""

from __future__ import annotations

from assistant.pipeline import Pipeline


def first_line(text: str) -> str:
    return text.split("\n")[0].replace("\u00a0", " ")


def test_mig_or_time_slicing_gets_the_providers_word_on_each(pipeline: Pipeline) -> None:
    a = pipeline.answer("вы делите карты через mig или time-slicing? хочу пол-карты подешевле")
    lead = first_line(a.answer)
    assert "не делит GPU на разделы" in lead
    assert "работают только ваши задачи" in lead
    assert {"mig", "time-slicing"} <= {c.slug for c in a.citations}


def test_a_single_card_vm_is_whole_and_no_vgpu(pipeline: Pipeline) -> None:
    a = pipeline.answer(
        "у вас одна карта — это виртуалка? свою версию драйвера nvidia поставить смогу или "
        "только вашу сборку?"
    )
    lead = first_line(a.answer)
    assert "выделенная ВМ" in lead and "не использует vGPU" in lead
    assert {"gpu-passthrough", "vgpu"} <= {c.slug for c in a.citations}


def test_an_unrelated_provider_sentence_is_not_added(pipeline: Pipeline) -> None:
    a = pipeline.answer("ддос защита у вас есть? нас уже разок клали")
    lead = first_line(a.answer)
    assert "ко всем публичным IP-адресам" in lead
    assert "ТБ" not in lead and "vGPU" not in lead  # egress, sharing: other questions


def test_a_lead_that_points_back_names_its_term(pipeline: Pipeline) -> None:
    a = pipeline.answer("если беру одну карту — это виртуалка с куском гпу или как?")
    lead = first_line(a.answer)
    assert "выделенная ВМ" in lead
    assert not lead.startswith("В FullGPU серверы с одним GPU работают именно так")


def test_the_price_of_egress_is_the_allowance_not_a_question_back(fast_pipeline: Pipeline) -> None:
    a = fast_pipeline.answer("сколько у вас стоит исходящий трафик? тариф с одной картой")
    text = a.answer.replace("\u00a0", " ")
    assert "20 ТБ в месяц" in text and "без платы" in text
    assert "По какой цене считать" not in text
