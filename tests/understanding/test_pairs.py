"""A weak cue between two entries named: the same answer as reading both sides of every cue, for a
few reads of the text whatever the number of cues."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.corpus.glossary import Glossary
from assistant.search.retrieval import AliasMatcher
from assistant.understanding.pairs import _first, named_apart
from assistant.understanding.reader import Reader
from assistant.understanding.signals import PAIR_CUE
from tests.helpers import CATALOG

Match = Callable[[str], Mapping[str, float]]


def every_cue(text: str, match: Match) -> bool:
    """The definition, read the long way: both sides of each cue."""
    for cue in PAIR_CUE.finditer(text):
        before, after = set(match(text[: cue.start()])), set(match(text[cue.end() :]))
        if before and after and before != after:
            return True
    return False


class CountingMatcher:
    """The glossary's own matcher, counting how many characters it is asked to read."""

    def __init__(self, glossary: Glossary) -> None:
        self.matcher = AliasMatcher(glossary)
        self.chars = 0

    def match(self, query: str, everyday: float = 0.5) -> dict[str, float]:
        self.chars += len(query)
        return self.matcher.match(query, everyday)


@pytest.fixture(scope="module")
def aliases(glossary: Glossary) -> AliasMatcher:
    return AliasMatcher(glossary)


@pytest.mark.parametrize(
    ("text", "paired"),
    [
        ("NVLink или PCIe?", True),
        ("LoRA или QLoRA — что лучше для 70B?", True),
        ("989 TFLOPS у H100 SXM в bf16 — с разреженностью 2:4 или без?", False),
        ("NVLink или NVLink?", False),  # the same entry on both sides
        ("HBM, NVLink и PCIe: что быстрее?", False),  # nothing named after the cue
    ],
)
def test_a_cue_pairs_two_different_entries(aliases: AliasMatcher, text: str, paired: bool) -> None:
    assert named_apart(text, aliases.match) is paired
    assert every_cue(text, aliases.match) is paired


WORDS = [
    *("nvlink", "pcie", "lora", "qlora", "hbm", "gddr", "nvswitch", "тензорные ядра", "nvlnik"),
    *("или", "чем", "vs", "лучше", "против", "or", "либо"),
    *("а", "для", "модели", "что", "2:4", "5", "без", "?", ",", "—"),
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=24), st.sampled_from([" ", ", ", " или "]))
def test_the_same_answer_as_reading_both_sides_of_every_cue(
    aliases: AliasMatcher, words: list[str], glue: str
) -> None:
    text = glue.join(words)
    assert named_apart(text, aliases.match) == every_cue(text, aliases.match), text


@pytest.mark.parametrize(
    ("text", "paired"),
    [
        ("что такое nvlink и pcie " + "или " * 494, False),  # nothing named after any cue
        ("nvlink pcie или " * 124 + "nvlink pcie", False),  # the same two on both sides of each
        ("nvlink pcie или " * 124 + "nvlink", True),  # the last cue has only one after it
        ("или " * 200 + "nvlink или pcie" + " или" * 295, True),  # one cue in the middle pairs
    ],
)
def test_many_cues_cost_a_few_reads_of_the_message(
    glossary: Glossary, text: str, paired: bool
) -> None:
    counting = CountingMatcher(glossary)
    assert Reader(CATALOG, terms=counting).read(text).paired is paired
    # reading both sides of each of ~500 cues was ~500 reads of the whole message
    assert counting.chars <= 12 * len(text)


def test_the_first_true_of_a_monotone_predicate_in_few_probes() -> None:
    for n in range(40):
        for answer in range(n + 1):
            probes: list[int] = []

            def holds(i: int, answer: int = answer, probes: list[int] = probes) -> bool:
                probes.append(i)
                return i >= answer

            assert _first(n, holds) == answer
            assert all(0 <= i < n for i in probes)
            assert len(probes) <= 2 * n.bit_length() + 1
