"""The real corpus's catalogue, read once per test run, for tests that read or calculate.

read("а в FP8?") -> ParsedMessage        (catalogue names; no glossary terms)
TOOLBOX.solve("сколько памяти нужно 70B в FP8") / TOOLBOX.run(name, arguments)
conversation(pipeline, "вопрос", "уточнение", history=[]) -> [Answer, Answer]   (turns carried)
"""

from __future__ import annotations

from assistant.corpus.catalog import load_catalog
from assistant.parsing.message import ParsedMessage
from assistant.pipeline import Pipeline
from assistant.schema import Answer, Turn
from assistant.settings import ROOT
from assistant.tools.toolbox import Toolbox

CATALOG = load_catalog(ROOT / "corpus")
TOOLBOX = Toolbox(CATALOG)


def read(text: str) -> ParsedMessage:
    return TOOLBOX.reader.read(text)


def conversation(
    pipeline: Pipeline, *messages: str, history: list[Turn] | None = None
) -> list[Answer]:
    """Each message answered with the turns before it, as a chat would send them."""
    turns = list(history or [])
    answers = []
    for m in messages:
        a = pipeline.answer(m, turns)
        turns.extend(pipeline.turns_for(m, a))
        answers.append(a)
    return answers
