"""Russian number and unit formatting shared by the calculators and the answer."""

from __future__ import annotations

from assistant.calculators.units import bandwidth


def test_bandwidth_keeps_the_figure_its_source_gives() -> None:
    assert bandwidth(3.35) == "3,35\u00a0ТБ/с" and bandwidth(8) == "8\u00a0ТБ/с"
    assert bandwidth(0.864) == "864\u00a0ГБ/с"  # L40S: not «0,86 ТБ/с»
    assert bandwidth(1.792) == "1\u00a0792\u00a0ГБ/с" and bandwidth(0.3) == "300\u00a0ГБ/с"
