"""Russian number and unit formatting shared by the calculators and the answer."""

from __future__ import annotations

from assistant.calculators.units import bandwidth, exact_gb_text, gb_text


def test_bandwidth_keeps_the_figure_its_source_gives() -> None:
    assert bandwidth(3.35) == "3,35\u00a0ТБ/с" and bandwidth(8) == "8\u00a0ТБ/с"
    assert bandwidth(0.864) == "864\u00a0ГБ/с"  # L40S: not «0,86 ТБ/с»
    assert bandwidth(1.792) == "1\u00a0792\u00a0ГБ/с" and bandwidth(0.3) == "300\u00a0ГБ/с"


def test_weights_of_a_large_model_keep_the_catalogues_decimal() -> None:
    assert exact_gb_text(140.6) == "140,6\u00a0ГБ" and gb_text(140.6) == "141\u00a0ГБ"
    assert exact_gb_text(812.0) == "812\u00a0ГБ" and exact_gb_text(16.06) == "16,06\u00a0ГБ"


def test_figures_a_person_reads_are_rounded_to_what_matters() -> None:
    assert gb_text(34.36) == "34,4\u00a0ГБ" and gb_text(10.74) == "10,7\u00a0ГБ"
    assert gb_text(35.0) == "35\u00a0ГБ" and gb_text(1.07) == "1,07\u00a0ГБ"
    assert gb_text(99.96) == "100\u00a0ГБ" and gb_text(140.6) == "141\u00a0ГБ"
