"""What kind of answer a question wants (understanding/asks.py)."""

from __future__ import annotations

import pytest

from assistant.corpus.glossary import Glossary
from assistant.search.retrieval import AliasMatcher
from assistant.understanding.asks import Ask, classify
from assistant.understanding.reader import Reader
from tests.helpers import CATALOG, read


@pytest.mark.parametrize(
    "text",
    [
        "а можно пол-карты подешевле? нам столько памяти не надо",  # the reason negates, not
        "на моей гпушке будут крутиться чужие задачи, пока она простаивает?",  # the question
        "у вас можно взять L4?",
        "хотим вашу карту поделить на несколько рабочих мест через vGPU. настроите такое?",
    ],
)
def test_a_yes_or_no_about_the_provider(text: str) -> None:
    reading = classify(read(text))
    assert reading.ask is Ask.provider and reading.yes_no


@pytest.mark.parametrize(
    "text",
    [
        "вы делите карты через mig или time-slicing? хочу пол-карты подешевле взять",
        "на ваших серверах с mi355x какая сеть между нодами, сколько интерфейсов?",
        "за исходящий трафик чё-нибудь берёте? мы будем отдавать модельки наружу",
        "а vGPU профили есть? мне бы четверть карты подешевле для тестов",
    ],
)
def test_a_question_put_to_the_provider_or_about_its_servers_asks_the_provider(
    glossary: Glossary, text: str
) -> None:
    """«вы делите … через A или B» is no comparison of A and B; «на ваших серверах … какая
    сеть» is no general fact: FullGPU's own sentences answer both."""
    reader = Reader(CATALOG, terms=AliasMatcher(glossary))  # MIG, time-slicing named
    assert classify(reader.read(text)).ask is Ask.provider
    both = "mig или time-slicing — что изолирует задачи лучше?"  # nobody is asked
    assert classify(reader.read(both)).ask is Ask.term_comparison


@pytest.mark.parametrize(
    "text",
    [
        "тариф с одной картой — это виртуалка?",
        "50 тб egress на 8-гпу сервере — это на весь сервак или по 50 на каждую карту?",
        "можно ли на 8-гпу сервере самим ставить какие хотим драйвера?",
        "арендую h200 — все 141 гиг будут мои?",
    ],
)
def test_a_question_about_a_plan_asks_the_provider_without_saying_you(text: str) -> None:
    assert classify(read(text)).ask is Ask.provider


def test_an_either_or_put_to_the_provider_asks_what_it_gives(glossary: Glossary) -> None:
    reader = Reader(CATALOG, terms=AliasMatcher(glossary))  # vGPU, MIG named as entries
    text = (
        "в вашей вмке с H100 nvidia-smi покажет все 80 гигов или урезанный vgpu-профиль, "
        "как у некоторых?"
    )
    assert classify(reader.read(text)).ask is Ask.provider
    # the same pair, no provider addressed: two terms told apart
    assert classify(reader.read("vgpu-профиль или MIG-срез?")).ask is Ask.term_comparison


def test_what_a_server_is_made_of_is_not_a_provider_question() -> None:
    ask = classify(read("что за чипы стоят на базовой плате 8-гпу сервера?")).ask
    assert ask is not Ask.provider


def test_a_negated_question_gets_no_yes_or_no() -> None:
    reading = classify(read("раз у вас анти-ддос, свой фаервол можно не настраивать?"))
    assert reading.ask is Ask.provider and not reading.yes_no


@pytest.mark.parametrize(
    "text",
    [
        "перевёл модель в int4, влезла, но отвечает заметно тупее — это нормально?",
        "на четырёх серверах обучение масштабируется отвратно, шаг дольше в разы",
        "в бенчмарке обещали 4000 tok/s, а у нас ответ ползёт. нас обманули?",
        "процесс на карте завис, nvidia-smi его не убивает",
    ],
)
def test_a_symptom_in_other_words_is_a_problem(text: str) -> None:
    assert classify(read(text)).ask is Ask.problem


@pytest.mark.parametrize(
    "text",
    [
        # two entries either side of «чем» (FP64, TFLOPS): against what was expected, not each
        # other
        "считаем в двойной точности на rtx 5090 — медленнее, чем ждали по терафлопсам",
        "fp8 на h100 оказался не быстрее bf16, хотя по спеке должен быть вдвое быстрее",
        "инференс ускорился процентов на 30, хотя ai tops выросли вдвое. наврали?",
    ],
)
def test_worse_than_expected_is_a_problem_not_a_comparison(text: str, glossary: Glossary) -> None:
    reader = Reader(CATALOG, terms=AliasMatcher(glossary))  # FP64, TFLOPS… named as entries
    assert classify(reader.read(text)).ask is Ask.problem


def test_two_terms_set_against_each_other_stay_a_comparison(glossary: Glossary) -> None:
    reader = Reader(CATALOG, terms=AliasMatcher(glossary))
    assert classify(reader.read("fp8 медленнее, чем bf16? насколько")).ask is Ask.term_comparison


def test_what_a_size_depends_on_is_no_hang() -> None:
    # «зависит» (depends) is not «завис» (hung)
    assert classify(read("от чего зависит размер KV-кэша?")).ask is not Ask.problem


def test_traffic_between_cards_compared_asks_of_their_interconnect() -> None:
    text = "на rtx pro 6000 огромные пересылки между картами, на h100 такого нет. в чём разница?"
    assert classify(read(text)).fields[:1] == ("interconnect",)
    one = classify(read("две rtx pro 6000: tensor parallel еле ворочается, всё на пересылки"))
    assert one.ask is not Ask.gpu_fact  # one card's trouble: the entries explain it


@pytest.mark.parametrize(
    ("text", "bandwidth"),
    [
        ("крутим llama 3.1 8b на L40S, батч 1 — генерит сильно медленнее, чем ждали", True),
        ("почему инференс на 5090 такой медленный?", True),
        ("qwen 7b на одной 4090 генерит как-то вяло, в чём дело?", True),
        # many cards talking, a batch shared by many, a card shared: other causes
        ("70b на 4 картах генерит медленно", False),
        ("в бенчмарке огромная скорость генерации, а каждый юзер ждёт ответ медленно", False),
        ("на инференсе задержка скачет, будто кто-то ещё гоняет на нашей карте", False),
        ("vllm падает по памяти, генерация медленная", False),
    ],
)
def test_slow_generation_on_one_card_is_read_as_a_bandwidth_problem(
    text: str, bandwidth: bool
) -> None:
    reading = classify(read(text))
    assert reading.ask is Ask.problem and reading.generation is bandwidth


@pytest.mark.parametrize(
    ("text", "variants"),
    [
        ("у другого провайдера H100 была заметно медленнее вашей. это одна и та же карта?", True),
        ("на прошлом облаке h100 работала хуже, чем у вас — почему?", True),
        # a slice of the card, memory that ran out: not a question of versions
        ("на прошлом облаке дали кусок H100 (mig), 13b туда не влезла", False),
        ("сколько памяти у H100?", False),
    ],
)
def test_one_card_found_different_elsewhere_compares_its_versions(
    text: str, variants: bool
) -> None:
    assert classify(read(text)).variants is variants


@pytest.mark.parametrize(
    "text",
    [
        "какую скорость даёт nvlink пятого поколения?",
        "на каких скоростях сейчас работает roce?",
        "в каком поколении тензорных ядер появился fp4?",
        "каким объёмом hbm оснащают gpu для дата-центров?",
        "чему равен один pflops?",
        "скорость roce v2 на порт?",  # a figure asked by its name alone
    ],
)
def test_a_fact_asked_with_any_form_of_which_is_a_fact(text: str) -> None:
    assert classify(read(text)).ask is Ask.fact


def test_fp4_beside_a_tflops_figure_is_its_precision_not_a_support_question() -> None:
    assert "fp4" not in classify(read("сколько у b300 в fp4 без sparsity? в тфлопсах")).fields
    assert "fp4" in classify(read("b300 поддерживает fp4? и сколько там тфлопс")).fields


@pytest.mark.parametrize(
    "text",
    [
        "если беру одну карту h100, это будет целая карта со всеми 80 гб или кусок через MIG?",
        "возьму h200 — все 141 гб мои или её через vgpu делят?",
    ],
)
def test_what_a_rented_card_is_sliced_into_asks_the_provider(text: str, glossary: Glossary) -> None:
    reader = Reader(CATALOG, terms=AliasMatcher(glossary))  # MIG, vGPU named as entries
    assert classify(reader.read(text)).ask is Ask.provider
    assert classify(reader.read("чем MIG отличается от vgpu?")).ask is Ask.term_comparison


def test_an_either_or_question_asks_neither_yes_nor_no() -> None:
    assert not classify(read("у вас карта будет целиком или кусок через mig?")).yes_no
    assert classify(read("у вас можно взять целую карту?")).yes_no


@pytest.mark.parametrize(
    "text",
    [
        "vllm это чё за зверь?",
        "all-reduce что это такое, постоянно в логах nccl вижу",
        "OAM — чо за зверь? увидел в описании амд карт",
        "nvswitch это вообще что и зачем он в серверах нужен",
    ],
)
def test_a_definition_asked_as_people_write_it(text: str) -> None:
    """Read as a definition, its answer opens with what the entry is, not another sentence."""
    assert classify(read(text)).ask is Ask.definition


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("какая суммарная пропускная способность nvlink в стойке gb300 nvl72?", ("interconnect",)),
        (
            "какая пропускная способность памяти и nvlink у h200?",
            ("bandwidth", "memory", "interconnect"),
        ),
    ],
)
def test_the_bandwidth_of_a_link_is_the_links_not_the_memorys(
    text: str, fields: tuple[str, ...]
) -> None:
    assert classify(read(text)).fields == fields


def test_where_the_memory_went_is_a_memory_problem() -> None:
    reading = classify(read("гпу же 80 гиг, модель 16, куда память делась?"))
    assert reading.ask is Ask.problem and reading.memory
    assert classify(read("через qlora 65B дообучали на одной карте? на какой по памяти")).ask in (
        Ask.fact,
        Ask.other,
    )


def test_how_a_cards_gpus_are_linked_asks_its_interconnect() -> None:
    r = classify(read("как у MI355X карты между собой связаны внутри сервера и с какой скоростью?"))
    assert r.ask is Ask.gpu_fact and r.fields == ("interconnect",)


def test_ai_tops_in_a_precision_is_the_entrys_figure_not_the_sheets() -> None:
    r = classify(read("rtx 5090 сколько ai tops в fp4 нвидия заявляет?"))
    assert r.ask is not Ask.gpu_fact  # the AI TOPS entry states 3 352, no sheet does


def test_whether_a_rented_cards_memory_is_all_mine_asks_the_provider() -> None:
    r = classify(read("арендую h200 — все 141 гиг будут мои или часть откусывается?"))
    assert r.ask is Ask.provider
    assert classify(read("сколько памяти у H200?")).ask is Ask.gpu_fact


def test_a_symptom_between_two_named_things_is_a_problem_not_a_comparison(
    glossary: Glossary,
) -> None:
    reader = Reader(CATALOG, terms=AliasMatcher(glossary))  # RoCE, InfiniBand named as entries
    roce = "на RoCE all-reduce между нодами в разы медленнее, чем на InfiniBand — почему?"
    assert classify(reader.read(roce)).ask is Ask.problem
    plain = "tensor parallel vs pipeline parallel — в чём разница и что юзать между серверами?"
    assert classify(reader.read(plain)).ask is Ask.term_comparison  # no symptom
    cores = "выбирали по числу CUDA-ядер: у 5090 больше, чем у H100, а H100 в разы быстрее"
    assert classify(reader.read(cores)).ask is Ask.problem
