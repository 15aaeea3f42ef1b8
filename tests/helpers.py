"""The real corpus's catalogue, read once per test run, for tests that read or calculate.

read("а в FP8?") -> ParsedMessage        (catalogue names; no glossary terms)
TOOLBOX.solve("сколько памяти нужно 70B в FP8") / TOOLBOX.run(name, arguments)
"""

from __future__ import annotations

from assistant.corpus.catalog import load_catalog
from assistant.parsing.message import ParsedMessage
from assistant.settings import ROOT
from assistant.tools.toolbox import Toolbox

CATALOG = load_catalog(ROOT / "corpus")
TOOLBOX = Toolbox(CATALOG)


def read(text: str) -> ParsedMessage:
    return TOOLBOX.reader.read(text)
