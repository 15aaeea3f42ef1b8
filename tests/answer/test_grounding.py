"""Number grounding and citation checks, including Russian number formats."""

from __future__ import annotations

import pytest

from assistant.answer.grounding import Sources, check, numbers, support_ratio, ungrounded_numbers
from assistant.schema import Citation


def _src(*texts: str, phrases: tuple[str, ...] = ()) -> Sources:
    s = Sources(phrases=phrases)
    s.add(*texts)
    return s


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("2 190 $", [2190.0]),
        ("2\u00a0190 $ и 3,00 $", [2190.0, 3.0]),
        ("4.8 ТБ/с, 10–30 %", [4.8, 10.0, 30.0]),
        ("FP8 и H100 [1]", []),
        ("1 344 GPU-часа", [1344.0]),
    ],
)
def test_numbers_are_parsed_in_russian_formats(text: str, values: list[float]) -> None:
    assert [n.value for n in numbers(text)] == values


@pytest.mark.parametrize(
    "answer", ["2190 $ в месяц", "2 190 $", "около 3 $ за час", "3,00 $ за GPU-час", "140 ГБ"]
)
def test_formatting_variants_of_source_numbers_pass(answer: str) -> None:
    sources = Sources()
    sources.add("Один H100 за 2 190 $ в месяц обходится примерно в 3,00 $ за GPU-час.")
    sources.add_json({"weights_gb": 140.0})
    assert ungrounded_numbers(answer, sources) == []


@pytest.mark.parametrize(
    ("answer", "bad"),
    [
        ("H100 стоит 1 $ в месяц", ["1"]),
        ("у H200 141 ГБ", ["141", "h200"]),
        ("веса займут 150 ГБ", ["150"]),
        ("у H300 больше памяти", ["h300"]),
        ("примерно 2,5 $ за час", ["2,5"]),
    ],
)
def test_invented_numbers_and_names_are_caught(answer: str, bad: list[str]) -> None:
    sources = _src("Один H100 за 2 190 $ в месяц обходится примерно в 3,00 $ за GPU-час. 140 ГБ")
    assert ungrounded_numbers(answer, sources) == bad


def test_cyrillic_look_alikes_in_the_users_words_are_the_same_names() -> None:
    """«контекст 8к» (Cyrillic к) grounds the answer's «8k»; «Н100» grounds «H100»."""
    sources = _src("qwen3 8b fp16 контекст 8к, на Н100")
    assert ungrounded_numbers("8k понимаем как контекст, карта H100", sources) == []


def test_product_name_digits_are_not_quantities() -> None:
    sources = _src("", phrases=("Llama 3 70B",))
    sources.names.add("70b")
    assert ungrounded_numbers("например, Llama 3 70B", sources) == []
    assert ungrounded_numbers("например, Llama 4", sources) == ["4"]


def test_phantom_and_dangling_citations() -> None:
    cites = [Citation(slug="nvlink", title="NVLink", url="/glossary/nvlink")]
    assert check("NVLink быстрее [1].", cites, ["nvlink"], Sources()) == []
    assert any("не из контекста" in p for p in check("x [1]", cites, ["nccl"], Sources()))
    assert any("[2]" in p for p in check("x [1], y [2]", cites, ["nvlink"], Sources()))


def test_links_must_come_from_sources() -> None:
    from assistant.answer.grounding import foreign_links

    sources = _src("См. https://fullgpu.example/glossary/nvlink")
    assert foreign_links("подробнее: https://fullgpu.example/glossary/nvlink", sources) == []
    assert foreign_links("официальный сайт http://evil.example", sources) == ["http://evil.example"]


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("NVLink — интерконнект NVIDIA [1]. Он быстрее PCIe [1].", False),
        ("All-reduce — — — — — — обмен", True),
        ("Статьи:\n[1] NVLink (/glossary/nvlink)\n[2] PCIe", True),
        (" ".join(["GPU"] * 3 + ["память"] * 30), True),
        # a real instruct model's answer to «какую куду ставить под драйвер 550»
        ("Куду ставить под драйвер 550:\n- Для RTX PRO 6000 Blackwell и RTX 5090: PCIe [1].", True),
        ("NVLink vs PCIe:\n1. Скорость [1].\n2. Связь [2].", True),
        ("**NVLink** быстрее PCIe [1].", True),
        ("Канал PCIe Gen5 x16 — около 64 ГБ/с [1]; 8 GPU - это сервер.", False),
        (  # written by the instruct model until the token limit cut it
            "MoE и параллелизм экспертов — это два разных подхода [1]. MoE — архитектура. "
            "MoE и параллелизм экспертов — это два разных подхода [2].",
            True,
        ),
    ],
)
def test_degenerate_drafts(text: str, bad: bool) -> None:
    from assistant.answer.grounding import degenerate

    assert degenerate(text) is bad


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        ("NVLink быстрее PCIe [1].", False),
        ("NVLink быстрее PCIe [1]", False),
        ("Это «поместится».", False),
        ("MoE и параллелизм экспертов — это два разных подхода к рас", True),
    ],
)
def test_a_draft_cut_mid_sentence_is_noticed(text: str, cut: bool) -> None:
    from assistant.answer.grounding import cut_off

    assert cut_off(text) is cut


def test_glossary_paths_in_a_draft_are_found() -> None:
    from assistant.answer.grounding import glossary_paths

    text = "Влезет. [1] Видеопамять (VRAM) (/glossary/vram) говорит, что веса …"
    assert glossary_paths(text) == ["/glossary/vram"]


def test_numbers_in_words_count_as_their_figures_in_the_support_ratio() -> None:
    sources = Sources()
    sources.add("У NVIDIA B300 288 ГБ памяти HBM3e, пропускная способность памяти — 8 ТБ/с.")
    spelled = "У B300 двести восемьдесят восемь гигабайт HBM3e и восемь терабайт в секунду [1]."
    assert support_ratio(spelled, sources) >= 0.6  # «двести», «восемь», «секунду» are figures
