"""Guard.verify_draft on drafts over fixed sources: what an LLM draft states must be what its
cited sources state — names, numbers, comparisons, sentences."""

from __future__ import annotations

import pytest

from assistant.answer.generation import AnswerContext, EmbeddedGenerator
from assistant.answer.guard import Guard
from assistant.answer.specs import spec_entries
from assistant.corpus.catalog import Catalog
from assistant.corpus.glossary import Entry, Glossary
from assistant.schema import Route
from assistant.settings import Settings


@pytest.fixture(scope="module")
def guard(settings: Settings, glossary: Glossary, catalog: Catalog) -> Guard:
    return Guard(settings, glossary, catalog, EmbeddedGenerator(settings.prompts_dir), None)


@pytest.fixture(scope="module")
def sources(glossary: Glossary, catalog: Catalog) -> dict[str, Entry]:
    return {**glossary.by_slug(), **spec_entries(catalog)}


def problems(guard: Guard, sources: dict[str, Entry], draft: str, *slugs: str) -> list[str]:
    entries = tuple(sources[s] for s in slugs)
    route: Route = "comparison" if len(entries) > 1 else "term"
    ctx = AnswerContext(route=route, message="вопрос", question="вопрос", entries=entries)
    _, _, found = guard.verify_draft(draft, ctx, set())
    return [p.detail for p in found]


def test_a_generation_after_nvlink_is_a_name_not_a_number(
    guard: Guard, sources: dict[str, Entry]
) -> None:
    draft = "У H100 SXM TDP — 700 Вт [1]. Это Hopper в форм-факторе SXM с NVLink 4 [1]."
    assert problems(guard, sources, draft, "gpu-h100-sxm") == []
    assert problems(guard, sources, draft.replace("700", "900"), "gpu-h100-sxm")


@pytest.mark.parametrize(
    ("draft", "slugs"),
    [
        (
            "У H200 141 ГБ HBM3e [1], почти вдвое больше, чем 80 ГБ у H100 SXM [2].",
            ("gpu-h200", "gpu-h100-sxm"),
        ),
        ("У H200 почти вдвое больше памяти, чем у H100 SXM [1][2].", ("gpu-h200", "gpu-h100-sxm")),
        (
            "Пропускная способность памяти у B200 более чем вдвое выше, чем у H100 SXM [1][2].",
            ("gpu-b200", "gpu-h100-sxm"),
        ),
        (
            "У MI355X памяти в полтора раза больше, чем у MI300X [1][2].",
            ("gpu-mi355x", "gpu-mi300x"),
        ),
        ("NVLink передаёт данные намного быстрее, чем PCIe [1].", ("nvlink",)),  # stated
        ("Канал PCIe Gen5 x16 вдвое быстрее Gen4 [1].", ("pcie-gen5",)),  # stated
        (
            "Да, вдвое: NVLink пятого поколения в Blackwell даёт 1,8 ТБ/с, а NVLink четвёртого "
            "поколения в Hopper — 900 ГБ/с на GPU [1].",
            ("nvlink",),
        ),
        (
            "Веса в FP4 занимают около половины байта на параметр [1]. В BF16 — около 2 байт "
            "[2]. Под веса в FP4 нужно примерно вчетверо меньше памяти [1][2].",
            ("fp4", "bf16"),
        ),
    ],
)
def test_a_comparison_stated_or_implied_by_the_sources_stands(
    guard: Guard, sources: dict[str, Entry], draft: str, slugs: tuple[str, ...]
) -> None:
    assert [p for p in problems(guard, sources, draft, *slugs) if "сравнение" in p] == []


@pytest.mark.parametrize(
    ("draft", "slugs"),
    [
        ("У H200 вдвое больше памяти, чем у B300 [1][2].", ("gpu-h200", "gpu-b300")),  # 141 < 288
        (
            "У H200 вдвое больше памяти, чем у H100 SXM [1][2].",
            ("gpu-h200", "gpu-h100-sxm"),
        ),  # 1,76
        (
            "У L40S пропускная способность памяти выше, чем у H100 SXM [1][2].",
            ("gpu-l40s", "gpu-h100-sxm"),
        ),
        ("Канал PCIe Gen5 вдвое медленнее Gen4 [1].", ("pcie-gen5",)),  # the source, reversed
        ("QLoRA работает быстрее, чем LoRA на весах в BF16 [1].", ("qlora",)),  # nothing says so
        ("NCCL ускоряет all-reduce в 8 раз по сравнению с PCIe [1].", ("nccl",)),
        ("FP8 точнее BF16 [1][2].", ("fp8", "bf16")),
    ],
)
def test_a_comparison_nothing_backs_is_rejected(
    guard: Guard, sources: dict[str, Entry], draft: str, slugs: tuple[str, ...]
) -> None:
    assert any("сравнение" in p for p in problems(guard, sources, draft, *slugs))


@pytest.mark.parametrize(
    ("draft", "slugs", "problem"),
    [
        (  # the uncited provider fact
            "NVLink — высокоскоростной интерконнект NVIDIA для связи между GPU [1]. Аренда "
            "серверов с NVLink бесплатна для всех клиентов FullGPU.",
            ("nvlink",),
            "без ссылки о FullGPU",
        ),
        (
            "В FullGPU серверы с одним GPU — это выделенная ВМ [1]. Сменить карту на более "
            "мощную можно на лету, без перезагрузки ВМ.",
            ("gpu-passthrough",),
            "источник не подтверждает",
        ),
        (
            "vLLM хранит KV-кэш блоками фиксированного размера с помощью FlashAttention [1].",
            ("vllm",),
            "название не из цитируемого источника: flashattention",
        ),
        ("У L40S 48 ГБ GDDR7 [1].", ("gpu-l40s",), "название не из цитируемого источника"),
        ("L40S поддерживает FP4 аппаратно [1].", ("gpu-l40s",), "отрицание"),
        (
            "RDMA позволяет одной машине читать и записывать память другой по сети, но каждая "
            "передача задействует удалённый CPU [1].",
            ("rdma",),
            "отрицание",
        ),
        (
            "NVLink передаёт данные быстрее, чем PCIe [1]. Он есть и у карт PCIe, таких как "
            "RTX PRO 6000 Blackwell и RTX 5090 [1].",
            ("nvlink",),
            "отрицание",
        ),
        (
            "На любых GPU пиковая скорость в FP8 вдвое выше, чем в BF16 [1].",
            ("fp8",),
            "обобщение",
        ),
        (
            "Канал PCIe Gen5 x16 передаёт около 64 ГБ/с суммарно в обоих направлениях [1].",
            ("pcie-gen5",),
            "к числу «64»",
        ),
        (
            "Современные поколения InfiniBand работают на 400 или 800 Гбит/с на сервер [1].",
            ("infiniband",),
            "к числу «800»",
        ),
        (
            "По данным AMD, HBM3e даёт H200 141 ГБ с пропускной способностью 4,8 ТБ/с [1].",
            ("hbm3e",),
            "приписаны не тому",
        ),
        (  # the right sentence cited to the wrong entry
            "8-GPU-серверы FullGPU — это bare-metal-машины [1]. Серверы с одним GPU — выделенная "
            "ВМ, за которой закреплён весь GPU [1].",
            ("bare-metal", "gpu-passthrough"),
            "",  # whichever check finds it first; cited [2] it stands (below)
        ),
    ],
)
def test_a_sentence_its_cited_source_does_not_back_is_rejected(
    guard: Guard, sources: dict[str, Entry], draft: str, slugs: tuple[str, ...], problem: str
) -> None:
    assert any(problem in p for p in problems(guard, sources, draft, *slugs))


@pytest.mark.parametrize(
    ("draft", "slugs"),
    [
        (
            "L40S не поддерживает FP4 аппаратно [1]. Это GPU на архитектуре Ada Lovelace [1].",
            ("gpu-l40s",),
        ),
        (
            "RDMA — удалённый прямой доступ к памяти: одна машина читает и записывает память "
            "другой по сети, не задействуя удалённый CPU и сетевой стек ОС [1]. RDMA "
            "поддерживают и InfiniBand, и RoCE [1].",
            ("rdma",),
        ),
        (
            "У карт PCIe, например RTX PRO 6000 Blackwell и RTX 5090, NVLink нет [1]. Важнее "
            "всего он для тензорного параллелизма [1].",
            ("nvlink",),
        ),
        (
            "По опубликованным спецификациям NVIDIA, у GPU Hopper и Blackwell пиковая скорость "
            "матричных вычислений в FP8 вдвое выше, чем в BF16 [1].",
            ("fp8",),
        ),
        (
            "Канал PCIe Gen5 x16 передаёт около 64 ГБ/с в каждом направлении [1].",
            ("pcie-gen5",),
        ),
        (
            "8-GPU-серверы FullGPU — это bare-metal-машины [1]. Серверы с одним GPU — выделенная "
            "ВМ, за которой закреплён весь GPU [2].",
            ("bare-metal", "gpu-passthrough"),
        ),
        (
            "Нет: FullGPU не делит GPU на разделы — каждый арендуемый GPU целый, и вся его "
            "память и вычислительная мощность ваши [1].",
            ("mig",),
        ),
        (
            "Для FP4 подходит B200: у него аппаратная поддержка FP4 и 9 000 TFLOPS в FP4 без "
            "разреженности [1].",
            ("gpu-b200",),
        ),
    ],
)
def test_a_sentence_its_cited_source_backs_stands(
    guard: Guard, sources: dict[str, Entry], draft: str, slugs: tuple[str, ...]
) -> None:
    assert problems(guard, sources, draft, *slugs) == []
