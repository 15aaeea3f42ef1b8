"""Russian retrieval checks on the real glossary, real model, real FAISS and pymorphy3."""

from __future__ import annotations

import pytest

from assistant.corpus.glossary import load_glossary
from assistant.search.retrieval import AliasMatcher, HybridRetriever
from assistant.settings import ROOT

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    ("question", "slug"),
    [
        ("что такое nvlink", "nvlink"),
        ("почему при длинном контексте кончается видеопамять", "kv-cache"),
        ("как карты усредняют градиенты после каждого шага", "all-reduce"),
        ("можно ли арендовать сервер без гипервизора", "bare-metal"),
        ("чё за инфинибенд", "infiniband"),
        ("what is tensor parallelism", "tensor-parallelism"),
        ("сколько стоит час одного GPU если платить помесячно", "gpu-hour"),
    ],
)
def test_top1(retriever: HybridRetriever, question: str, slug: str) -> None:
    assert retriever.search(question, 3)[0].slug == slug


def test_comparison_finds_both_terms(retriever: HybridRetriever) -> None:
    top3 = {h.slug for h in retriever.search("чем NVLink отличается от PCIe", 3)}
    assert {"nvlink", "pcie-gen5"} <= top3


def test_hybrid_beats_a_wrong_single_leg(retriever: HybridRetriever) -> None:
    result = retriever.retrieve("нвлинк", 3)
    assert "nvlink" in result.alias and result.hits[0].slug == "nvlink"
    assert result.hits[0].title == "NVLink"


def test_scores_are_sorted_and_titles_russian(retriever: HybridRetriever) -> None:
    hits = retriever.search("кэш ключей и значений", 5)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert hits[0].title == "KV-кэш"


def test_alias_matcher_tolerates_one_typo_but_not_two() -> None:
    matcher = AliasMatcher(load_glossary(ROOT / "corpus"))
    assert "infiniband" in matcher.match("инфинибэнд")
    assert "nvlink" in matcher.match("что за nvlnk")
    assert matcher.match("рецепт борща") == {}


@pytest.mark.parametrize(
    ("question", "slug"),
    [("хбм3е это сильно быстрее?", "hbm3e"), ("рдма по изернету", "rdma"), ("вллм умеет", "vllm")],
)
def test_alias_matcher_reads_names_spelled_in_cyrillic(question: str, slug: str) -> None:
    assert AliasMatcher(load_glossary(ROOT / "corpus")).match(question).get(slug) == 1.0


@pytest.mark.parametrize(
    ("question", "slug"),
    [
        ("тенсорные ядра что это", "tensor-cores"),
        ("что такое cuda cors", "cuda-cores"),
        ("смешанная точнсть", "mixed-precision"),
    ],
)
def test_a_name_of_two_or_three_words_takes_one_typo(question: str, slug: str) -> None:
    assert AliasMatcher(load_glossary(ROOT / "corpus")).match(question).get(slug) == 1.5


def test_names_with_digits_take_no_typo() -> None:
    """H100 and H200 differ by one character and are different cards."""
    matcher = AliasMatcher(load_glossary(ROOT / "corpus"))
    assert all(not any(c.isdigit() for c in "".join(key)) for key in matcher.fuzzy_phrases)
    assert matcher.match("h100 smx") == {}  # «smx» is three letters: no typo taken


def test_cyrillic_spelling_needs_four_letters() -> None:
    """«моё» spelled in Latin is «moe», the MoE entry's name: short words stay Russian."""
    matcher = AliasMatcher(load_glossary(ROOT / "corpus"))
    assert "moe" not in matcher.match("это моё мнение")
    assert "moe" in matcher.match("что такое MoE")


def test_every_entry_is_scored_densely(fast_retriever: HybridRetriever) -> None:
    """A glossary-sized index is scored in full: no entry is fused with a "not returned" guess,
    and every entry with customer questions has a question cosine."""
    result = fast_retriever.retrieve("счёт за выкачку чекпоинтов больше, чем за GPU", 5)
    slugs = {e.slug for e in fast_retriever.glossary.entries}
    assert set(result.dense) == slugs
    assert set(result.questions) == {e.slug for e in fast_retriever.glossary.entries if e.questions}


def test_aliases_found_by_the_reader_are_reused(fast_retriever: HybridRetriever) -> None:
    """The engine passes the parsed message's names; retrieval fuses those, not a re-match."""
    own = fast_retriever.retrieve("что такое LoRA", 3)
    given = fast_retriever.retrieve("что такое LoRA", 3, named={"qlora": 2.0})
    assert own.alias == {"lora": 1.0}
    assert given.alias == {"qlora": 2.0}


def test_the_defined_term_read_by_the_reader_is_reused(fast_retriever: HybridRetriever) -> None:
    """The definition lead follows the names it is given: {} means no definition was read."""
    own = fast_retriever.retrieve("что такое NCCL", 3)
    none = fast_retriever.retrieve("что такое NCCL", 3, defined={})
    other = fast_retriever.retrieve("что такое NCCL", 3, defined={"rocm": 1.0})
    assert own.hits[0].slug == "nccl" and own.hits[0].score > none.hits[0].score + 5
    assert other.hits[0].slug == "rocm"


@pytest.mark.parametrize(
    ("question", "answers"),
    [  # issue 11: problem-phrased questions used to cite CUDA, GPU-hour, Hopper…
        (
            "У меня при дообучении всё время кончается память видеокарты, что делать?",
            {"vram", "mixed-precision", "zero", "fsdp", "lora", "qlora"},
        ),
        (
            "Нам нужно, чтобы пять стажёров работали на одном GPU одновременно — так можно?",
            {"mig", "time-slicing", "vgpu"},
        ),
        (  # p083's gold: the speed and what bounds it
            "Сколько токенов в секунду выдаст H100 на Llama 70B?",
            {"tokens-per-second", "memory-bandwidth"},
        ),
    ],
)
def test_problem_phrasing_finds_the_entries_that_answer_it(
    retriever: HybridRetriever, question: str, answers: set[str]
) -> None:
    top3 = [h.slug for h in retriever.search(question, 3)]
    assert answers & set(top3), top3
    assert not {"cuda", "cuda-cores", "gpu-hour"} & set(top3[:1]), top3


def test_question_chunks_are_their_own_evidence(retriever: HybridRetriever) -> None:
    """A customer question reaches its entry through the entry's `questions:` chunks."""
    result = retriever.retrieve("где посмотреть ошибки памяти и состояние nvlink у видеокарт", 3)
    assert max(result.questions, key=lambda s: result.questions[s]) == "dcgm"
    assert result.hits[0].slug == "dcgm"
    # question chunks never stand in for the entry's sentences (answers quote sentences only)
    kinds = {c.kind for c in retriever.index.chunks if c.slug == "dcgm"}
    assert kinds == {"entry", "sentence", "question"}


@pytest.mark.parametrize(
    ("question", "slug"),
    [
        ("что такое InfiniBand", "infiniband"),
        ("тенсорные ядра что это", "tensor-cores"),
        ("что такое cuda cors и на что они влияют", "cuda-cores"),  # the longer name leads
    ],
)
def test_a_definition_leads_with_the_entry_it_names(
    fast_retriever: HybridRetriever, question: str, slug: str
) -> None:
    """Whatever the other legs say (here a hash embedder's noise), a definition is answered by
    the entry it names first: RoCE explains itself through InfiniBand and used to outrank it."""
    assert fast_retriever.retrieve(question, 3).hits[0].slug == slug


@pytest.mark.parametrize(
    "question",
    [
        "у нас кластер на InfiniBand, всё тормозит",  # not a definition
        "что за роутер в моэ моделях и куда он токены шлёт",  # «куда» is not the defined term
    ],
)
def test_no_entry_is_pushed_first_without_being_defined(
    fast_retriever: HybridRetriever, question: str
) -> None:
    hits = fast_retriever.retrieve(question, 5).hits
    assert all(h.score < fast_retriever.weights.lead for h in hits)


def test_everyday_words_are_weak_names_unless_defined() -> None:
    """«куда» is where, «миг» a moment: alone they are weak evidence of CUDA and MIG; as the
    term of a definition, or inside a longer name, they are names."""
    matcher = AliasMatcher(load_glossary(ROOT / "corpus"))
    assert matcher.match("куда девается память при обучении?") == {"cuda": 0.5}
    assert matcher.match("в один миг всё упало").get("mig") == 0.5
    assert matcher.match("куда", everyday=1.0) == {"cuda": 1.0}
    assert matcher.match("поставил куда тулкит")["cuda"] == 2.0
    assert matcher.match("какую куду ставить под драйвер 550") == {"cuda": 1.0}  # CUDA's form
    assert matcher.match("MIG на H100")["mig"] == 1.0


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("чем NVSwitch отличается от NVLink", {"nvswitch", "nvlink"}),
        ("h100 sxm или pcie — что брать", {"sxm", "pcie-gen5"}),
    ],
)
def test_entries_named_outright_stay_in_the_top3(
    retriever: HybridRetriever, question: str, named: set[str]
) -> None:
    hits = retriever.retrieve(question, 5).hits
    assert named <= {h.slug for h in hits[:3]}
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_a_named_entry_takes_third_place_not_first(fast_retriever: HybridRetriever) -> None:
    """The floor moves a named entry to third place at most: it does not jump the leaders."""
    every = fast_retriever.retrieve("вопрос про аренду", 60, named={}).hits
    leaders, far = [h.slug for h in every[:2]], every[-1].slug  # the last of all the entries
    named = fast_retriever.retrieve("вопрос про аренду", 5, named={far: 1.0})
    assert [h.slug for h in named.hits[:4]] == [*leaders, far, every[2].slug]


def test_numpy_blas_runs_on_one_thread_once_a_retriever_exists(fast_retriever) -> None:
    """Two BLAS threads wait for a core the embedding runtime spins on (docs/benchmarks.md)."""
    from threadpoolctl import ThreadpoolController

    numpy_blas = [
        lib
        for lib in ThreadpoolController().lib_controllers
        if lib.internal_api == "openblas" and "numpy" in lib.filepath
    ]
    assert numpy_blas and all(lib.num_threads == 1 for lib in numpy_blas)
