"""Claim-level number grounding: units, entities, one claim per draft segment, headlines."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.answer.claims import Lexicon, Quantity, quantities
from assistant.answer.grounding import Sources, ungrounded_numbers
from assistant.answer.guard import name_phrases
from assistant.answer.specs import spec_entry
from assistant.answer.support import ClaimSources, missing_headline, same_value, unsupported
from assistant.answer.units import in_unit
from assistant.corpus.catalog import Catalog
from tests.helpers import TOOLBOX


@pytest.fixture(scope="module")
def lexicon(glossary: Any, catalog: Catalog) -> Lexicon:
    return Lexicon.build(glossary, catalog)


def _q(text: str, lexicon: Lexicon, **kw: Any) -> list[tuple[str, str | None, list[str]]]:
    return [(q.text, q.unit, sorted(q.entities)) for q in quantities(text, lexicon, **kw)]


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("8 GPU, работающих 10 часов, расходуют 80 GPU-часов", ["GPU", "hour", "GPU-hour"]),
        (
            "H100 за 2 190 $ в месяц — около 3,00 $ за GPU-час",
            ["USD per month", "USD per GPU-hour"],
        ),
        ("запас 10–30 % и итог 38–46 ГБ", ["%", "%", "GB", "GB"]),
        ("900 ГБ/с в Hopper и 1,8 ТБ/с в Blackwell", ["GB/s", "TB/s"]),
        ("70,6 млрд параметров × 1 байт", ["billion param", "byte"]),
        ("около 45,89 ГБ на GPU", ["GB per GPU"]),
        ("на 8 × NVIDIA H100 SXM и на 2 H200", ["GPU", "GPU"]),
        ("20 ТБ в месяц включено", ["TB per month"]),
        ("цена одной H100 за месяц составляет примерно 3,00 $", ["USD per month"]),
        ("По 3,00 $ за GPU-час это обойдётся примерно в 4 032 $", ["USD per GPU-hour", "USD"]),
    ],
)
def test_units_are_read_after_numbers(text: str, units: list[str], lexicon: Lexicon) -> None:
    assert [u for _, u, _ in _q(text, lexicon)] == units


def test_names_are_not_numbers(lexicon: Lexicon) -> None:
    text = "Llama 3 70B, Qwen3 32B, RTX 5090, ZeRO-3, PCIe Gen5 x16 и FP8 на H100"
    assert quantities(text, lexicon) == []


def test_each_number_is_about_the_entities_of_its_own_clause(lexicon: Lexicon) -> None:
    text = (
        "По данным NVIDIA, HBM3e даёт H200 141 ГБ с пропускной способностью 4,8 ТБ/с, "
        "а B300 — 288 ГБ; у AMD MI355X тоже 288 ГБ HBM3e."
    )
    gpus = [[e for e in ents if e.startswith("gpu:")] for _, _, ents in _q(text, lexicon)]
    assert gpus == [["gpu:h200"], ["gpu:h200"], ["gpu:b300"], ["gpu:mi355x"]]
    listed = _q("около 700 Вт для H100 SXM и 575 Вт для GeForce RTX 5090", lexicon, draft=True)
    assert [[e for e in ents if e.startswith("gpu:")] for *_, ents in listed] == [
        ["gpu:h100-sxm"],
        ["gpu:rtx-5090"],
    ]


def test_a_draft_number_takes_the_entity_of_the_clause_it_continues(lexicon: Lexicon) -> None:
    [(_, _, ents)] = _q("У H100, по данным NVIDIA, 141 ГБ памяти", lexicon, draft=True)
    assert "gpu:h100-sxm" in ents
    [(_, _, ents)] = _q("Допущения: KV-кэш в FP16; 1 одновременный запрос", lexicon, draft=True)
    assert ents == []  # «;» ends what a clause is about


@pytest.mark.parametrize(
    ("value", "decimals", "allowed", "ok"),
    [
        (3.0, 2, 3.0, True),
        (46, 0, 45.89, True),  # rounding to the precision shown
        (2.1, 1, 2.147, True),
        (2, 0, 2.147, False),  # «около 2 ГБ» for 2,15 ГБ: 7 % off
        (140, 0, 141, False),  # a specification rounded away
        (4000, 0, 4032, False),
        (10.7, 1, 10.737, True),
    ],
)
def test_rounding_keeps_the_figure(value: float, decimals: int, allowed: float, ok: bool) -> None:
    assert same_value(Quantity(str(value), value, decimals, "GB"), allowed) is ok


@pytest.fixture(scope="module")
def gpu_hour(glossary: Any, lexicon: Lexicon) -> ClaimSources:
    entries = glossary.by_slug()
    return ClaimSources.build(lexicon, [entries["gpu-hour"], entries["hbm3e"]], [], ["что это?"])


@pytest.mark.parametrize(
    "draft",
    [
        "8 GPU, работающих 10 часов, расходуют 80 GPU-часов [1].",
        "Один H100 за 2 190 $ в месяц обходится примерно в 3 $ за GPU-час [1].",
        "У H200 (141 ГБ) и у B300 (288 ГБ) память HBM3e [2].",
        "HBM3e даёт H200 141 ГБ [2], а 8 GPU за 10 часов расходуют 80 GPU-часов [1].",
        "Час работы одного GPU — единица расчёта [1]. 8 GPU за 10 часов — 80 GPU-часов.",
    ],
)
def test_claims_stated_as_in_their_cited_sentence_pass(draft: str, gpu_hour: ClaimSources) -> None:
    assert unsupported(draft, [0, 1], gpu_hour) == []


@pytest.mark.parametrize(
    ("draft", "why"),
    [
        # the example: every number appears in the sources, not in this claim
        ("8 GPU, работающих 730 часов, расходуют 80 GPU-часов [1].", "«730»"),
        ("Один H100 за 2 190 $ в час обходится в 3 $ за GPU-час [1].", "«2 190»"),  # unit
        ("Один H200 за 2 190 $ в месяц обходится в 3 $ за GPU-час [1].", "«2 190»"),  # GPU
        ("У B300 141 ГБ HBM3e [2].", "«141»"),  # the right number on the wrong GPU
        ("У H200 141 ГБ HBM3e [1].", "«141»"),  # cited to the wrong entry
        ("У H200 141 ТБ HBM3e [2].", "«141»"),  # swapped unit
        ("У H200 около 140 ГБ HBM3e [2].", "«140»"),  # rounded away
        ("8 GPU за 10 часов дают 288 ГБ [1][2].", "разных утверждений"),  # two claims joined
    ],
)
def test_claims_that_no_single_cited_sentence_makes_fail(
    draft: str, why: str, gpu_hour: ClaimSources
) -> None:
    problems = unsupported(draft, [0, 1], gpu_hour)
    assert problems and why in " ".join(problems)


def test_the_users_own_numbers_may_be_restated(lexicon: Lexicon) -> None:
    sources = ClaimSources.build(lexicon, [], [], ["сколько стоят 8 H100 на 190 часов?"])
    assert unsupported("Для 8 H100 на 190 часов посчитаю стоимость.", [], sources) == []
    assert unsupported("8 GPU за 190 часов — 80 GPU-часов.", [], sources) != []


def _tool(question: str, lexicon: Lexicon) -> ClaimSources:
    outcome = TOOLBOX.solve(question)
    results = [r.model_dump() for r in outcome.results]
    return ClaimSources.build(lexicon, [], results, [question], [outcome.answer_ru])


@pytest.mark.parametrize(
    ("question", "draft", "ok"),
    [
        ("сколько памяти нужно 70B в FP8", "С запасом выйдет около 77–91 ГБ.", True),
        ("сколько памяти нужно 70B в FP8", "Веса займут около 70 ГБ.", False),
        ("сколько стоит аренда восьми H100 на неделю?", "Примерно 4 032 $.", True),
        ("сколько стоит аренда восьми H100 на неделю?", "Около 1 344 GPU-часов.", False),
        ("влезет ли Llama 3 70B в FP8 на две L40S?", "Поместится: по 45,89 ГБ на GPU.", True),
        ("влезет ли Llama 3 70B в FP8 на две L40S?", "Не поместится на две L40S.", False),
        ("влезет ли Llama 3 70B в FP8 на две L40S?", "Нужно 77–92 ГБ.", False),
        ("дообучение 70B с LoRA на H100 влезет?", "Нет, не поместится: 151 ГБ.", True),
        ("дообучение 70B с LoRA на H100 влезет?", "Поместится: 151 ГБ.", False),
    ],
)
def test_a_numeric_answer_states_the_calculators_result(
    question: str, draft: str, ok: bool, lexicon: Lexicon
) -> None:
    assert (missing_headline(draft, _tool(question, lexicon)) == []) is ok


def test_tool_figures_keep_their_gpu(lexicon: Lexicon) -> None:
    sources = _tool("какие GPU подойдут для Llama 3 70B в FP8", lexicon)
    assert unsupported("У NVIDIA H200 141 ГБ — поместится.", [], sources) == []
    assert unsupported("У NVIDIA L40S 96 ГБ — поместится.", [], sources) != []


def test_several_cards_memory_together_backs_only_a_total(lexicon: Lexicon) -> None:
    sources = _tool("влезет ли Llama 3 70B в FP8 на две L40S?", lexicon)
    assert unsupported("У двух L40S по 48 ГБ, всего 96 ГБ.", [], sources) == []
    assert unsupported("У двух L40S вместе 96 ГБ памяти.", [], sources) == []
    assert unsupported("Поместится: у L40S 96 ГБ памяти.", [], sources) != []  # one card's


def test_a_training_result_backs_figures_said_of_its_method(lexicon: Lexicon) -> None:
    lora = _tool("дообучение 8B с LoRA на 8 H100 SXM влезет?", lexicon)
    assert unsupported("С LoRA на 8 GPU — около 17,28 ГБ на GPU.", [], lora) == []
    full = _tool("полное дообучение 8B на 8 H100 SXM влезет?", lexicon)
    assert unsupported("С LoRA на 8 GPU — около 128 ГБ на GPU.", [], full) != []


def test_the_context_a_result_assumed_backs_what_is_said_of_its_kv_cache(
    lexicon: Lexicon,
) -> None:
    question = "влезет ли Llama 3 70B в FP8 на H100?"  # the context is the default
    results = [r.model_dump() for r in TOOLBOX.solve(question).results]
    sources = ClaimSources.build(lexicon, [], results, [question])  # what an auditor has
    assert unsupported("KV-кэш посчитан для 4 096 токенов.", [], sources) == []
    assert unsupported("KV-кэш посчитан для 8 192 токенов.", [], sources) != []


def test_draft_quantities_are_remembered_and_bounded(catalog: Catalog, glossary: Any) -> None:
    """A glossary sentence is read once per lexicon; the memory starts over when full."""
    from assistant.answer import support

    lexicon = Lexicon.build(glossary, catalog)
    text = "У H200 141 ГБ памяти HBM3e [1]."
    first = support.draft_quantities(text, lexicon)
    assert first == tuple(quantities(text, lexicon, draft=True)) and first
    assert support.draft_quantities(text, lexicon) is first  # not read again
    for i in range(support.DRAFT_CACHE):
        support.draft_quantities(f"{i} ГБ", lexicon)
    assert len(lexicon.drafts) <= support.DRAFT_CACHE


def test_an_alias_ending_in_a_quantity_never_exempts_its_number(
    lexicon: Lexicon, catalog: Catalog
) -> None:
    # «h100 94 гб» is an alias of H100 NVL: it says which card is meant, not that 94 ГБ is true
    assert _q("У H100 94 ГБ памяти", lexicon, draft=True) == [("94", "GB", ["gpu:h100-nvl"])]
    sources = ClaimSources.build(lexicon, [spec_entry(catalog.gpus["h100-sxm"])])
    assert unsupported("У H100 94 ГБ памяти [1].", [0], sources)
    assert unsupported("У H100 SXM 80 ГБ памяти [1].", [0], sources) == []
    nvl = ClaimSources.build(lexicon, [spec_entry(catalog.gpus["h100-nvl"])])
    assert unsupported("У H100 94 ГБ памяти [1].", [0], nvl) == []
    # an answer re-checked from its public fields alone strips names, not this number
    plain = Sources(phrases=name_phrases(catalog))
    plain.add("У NVIDIA H100 SXM 80 ГБ памяти HBM3.")
    assert ungrounded_numbers("У H100 94 ГБ памяти", plain) == ["94"]


def test_a_figure_in_a_unit_a_thousand_apart_is_the_same_figure() -> None:
    assert in_unit(864, "GB/s", "TB/s") == 0.864 and in_unit(1.4, "kW", "W") == 1400
    assert in_unit(864, "GB/s", "GB") is None  # another quantity, not another scale
