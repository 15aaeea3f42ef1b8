"""The first stage: one message read once into an immutable ParsedMessage."""

from __future__ import annotations

import dataclasses

import pydantic
import pytest

from assistant.corpus.glossary import Glossary
from assistant.search.retrieval import AliasMatcher
from assistant.understanding.reader import IMPLIED, Reader
from tests.helpers import CATALOG, read


def test_everything_later_stages_need_is_read_once() -> None:
    m = read("Сколько памяти нужно Llama 3 70B в FP8 с контекстом 32k на двух H100?")
    assert m.words[:3] == ("сколько", "памяти", "нужно")
    assert "память" in m.lemmas and "сколько" not in m.lemmas  # stop words dropped
    assert m.tokens.folded.startswith("сколько памяти") and not m.tokens.folded.endswith("?")
    assert "2 h100" in m.normalised  # number words as digits
    q = m.quantities.params.stored()
    assert (q["model"], q["precision"], q["context_tokens"]) == ("llama-3-70b", "fp8", 32768)
    assert (q["gpu"], q["gpus"]) == ("h100-sxm", 2)
    assert m.models == ("llama-3-70b",) and m.gpus == ("h100-sxm",)
    assert m.numbers == (3.0, 70.0, 8.0, 32.0, 100.0)
    assert "vram" in m.quantities.intents and m.quantities.request


def test_every_named_gpu_and_model_in_order() -> None:
    m = read("что лучше для Qwen 2.5 72B и Llama 3 8B: H200 или B200?")
    assert m.gpus == ("h200", "b200")
    assert m.models == ("qwen2.5-72b", "llama-3-8b")


def test_the_parsed_message_cannot_be_changed() -> None:
    m = read("сколько памяти нужно 70B в FP8")
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.text = "другой вопрос"  # type: ignore[misc]
    with pytest.raises(pydantic.ValidationError):  # the parameters are frozen too
        m.quantities.params.precision = "bf16"


def test_signals_and_the_defined_term_are_read_with_the_message() -> None:
    m = read("Что такое TPU?")
    assert m.signals.defined_term == "TPU" and m.term is not None and m.term.words == ("tpu",)
    thanks = read("Спасибо!")
    assert thanks.signals.greeting and thanks.signals.thanks
    assert read("а в FP8?").signals.continues and not read("FP8 в чём?").signals.continues


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("зачем нужен NCCL?", "NCCL"),
        ("для чего нужна квантизация", "квантизация"),
        ("что делает NVSwitch", "NVSwitch"),
        ("what does vLLM do?", "vLLM"),
        ("что делать, если OOM на обучении", ""),  # a problem, not a purpose question
        ("что делать если OOM", ""),
        ("VRAM — что это такое простыми словами", "VRAM"),  # how to explain is no part of it
        ("что такое KV-кэш простыми словами?", "KV-кэш"),
        ("объясни мне вкратце, что такое MoE", "MoE"),
        # the term ends where a second question or an aside begins
        ("что такое DoRA — это какая-то разновидность лоры?", "DoRA"),
        ("что такое CDNA у AMD и чем она отличается от RDNA?", "CDNA у AMD"),
        ("кубфлоу что такое и нужен ли он для обучения", "кубфлоу"),
        ("что такое sequence parallelism (context parallelism)", "sequence parallelism"),
        (
            "что за операция, когда каждая карта отдаёт свои числа",
            "операция, когда каждая карта отдаёт свои числа",
        ),
        ("что такое ZeRO и FSDP", "ZeRO и FSDP"),
    ],
)
def test_purpose_questions_define_their_term(text: str, term: str) -> None:
    """«зачем нужен X» is answered by X's entry first, as «что такое X» is."""
    assert read(text).signals.defined_term == term


def test_the_entries_a_definition_names_are_read_once(glossary: Glossary) -> None:
    """The head of the term only, an everyday word as a full name; none without a definition."""
    reader = Reader(CATALOG, terms=AliasMatcher(glossary))
    assert dict(reader.read("что такое куда").defined) == {"cuda": 1.0}
    assert dict(reader.read("что такое куда").terms)["cuda"] == 1.0
    assert "nvlink" in reader.read("объясни мне вкратце, что такое NVLink").defined
    assert dict(reader.read("куда девается память?").defined) == {}


def test_a_bare_size_is_kept_for_a_memory_follow_up() -> None:
    m = read("а для 32k?")
    assert "context_tokens" not in m.quantities.params.stored()  # no «контекст», no «токенов»
    assert m.bare_context is not None and m.bare_context.params.stored()["context_tokens"] == 32768
    assert m.pieces == 3


def test_a_year_is_a_year() -> None:
    m = read("сколько стоит 8 H100 на неделю, если цены как в 2024 году")
    assert m.years == (2024,)
    assert read("контекст 2048 токенов").years == ()
    assert read("сервер за 2000 $ в месяц").years == ()


def test_glossary_terms_are_matched_when_the_reader_knows_the_glossary(glossary: Glossary) -> None:
    reader = Reader(CATALOG, terms=AliasMatcher(glossary))
    m = reader.read("чем NVLink отличается от PCIe Gen5?")
    assert {"nvlink", "pcie-gen5"} <= set(m.terms)
    assert read("чем NVLink отличается от PCIe Gen5?").terms == {}  # the calculators' reader


def test_a_card_implies_its_architecture_entry_more_weakly_than_a_name(glossary: Glossary) -> None:
    """gpus.yaml says H100 is Hopper and B200 is Blackwell; L40S (Ada) has no entry."""
    reader = Reader(CATALOG, terms=AliasMatcher(glossary))
    assert reader.read("какая память у H100?").terms == {"hopper": IMPLIED}
    assert reader.read("B200 или H200?").terms == {"blackwell": IMPLIED, "hopper": IMPLIED}
    assert reader.read("что такое Hopper и есть ли он в H100").terms["hopper"] >= 1.0
    assert reader.read("какая память у L40S?").terms == {}
    assert IMPLIED < 1.0  # not a name written out: no comparison «Hopper vs BF16» is made up


def test_a_moe_model_implies_the_moe_entry_more_weakly_than_a_name(glossary: Glossary) -> None:
    """models.yaml names Mixtral 8x7B «(MoE)»: «mixtral не влезает» is about MoE; Llama is not."""
    reader = Reader(CATALOG, terms=AliasMatcher(glossary))
    assert reader.read("mixtral 8x7b не лезет в карту на 24 гига").terms == {"moe": IMPLIED}
    assert reader.read("DeepSeek-V3 на H200?").terms == {"moe": IMPLIED, "hopper": IMPLIED}
    assert reader.read("Llama 3 70B не лезет в карту").terms == {}
    assert reader.read("что такое MoE в Mixtral 8x7B").terms["moe"] >= 1.0


def test_the_first_question_is_counted_without_the_reasons_after_it() -> None:
    message = read(
        "а a100 у вас можно взять в аренду? нужна под старый пайплайн, переписывать лень"
    )
    assert message.asked_words == 8
    assert read("h100 есть у вас").asked_words == 4  # no question mark: the whole message
