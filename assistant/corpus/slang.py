"""corpus/slang.yaml + the glossary → `Slang`: customer chat words mapped to glossary words.

«гпушка», «видюха», «сервак» never occur in the glossary, so BM25 cannot match them; the query
side adds the glossary's own word next to each one. The map is checked against the glossary: a
key the glossary already uses would only double its weight, a value it never uses finds nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.corpus.glossary import Glossary
from assistant.errors import CorpusError, CorpusProblem
from assistant.text.tokens import lemma, words

FILE = "slang.yaml"


@dataclass(frozen=True)
class Slang:
    """Lemma of a customer word → lemma of the glossary word for it."""

    to_glossary: dict[str, str] = field(default_factory=dict)

    def expand(self, query_lemmas: Sequence[str]) -> list[str]:
        """The query's lemmas, then the glossary word for each slang one (BM25 query terms)."""
        extra = [self.to_glossary[t] for t in query_lemmas if t in self.to_glossary]
        return [*query_lemmas, *extra]


def load_slang(corpus_dir: Path, glossary: Glossary) -> Slang:
    """No file: no slang. A malformed file or a pair the glossary contradicts: CorpusError."""
    path = corpus_dir / FILE
    if not path.exists():
        return Slang()
    problems: list[CorpusProblem] = []
    pairs = _read_pairs(path, problems)
    known = glossary.lemmas
    out: dict[str, str] = {}
    for key, value in pairs.items():
        k, v = _one_word(key), _one_word(value)
        if k is None or v is None:
            problems.append(_problem(key, "ключ и значение — по одному слову"))
        elif k in known:
            problems.append(_problem(key, "это слово уже есть в глоссарии"))
        elif v not in known:
            problems.append(_problem(key, f"слова «{value}» нет в глоссарии"))
        else:  # the dictionary lemma and the word itself: unknown words lemmatise unevenly
            out[k] = out[_fold(key)] = v
    if problems:
        raise CorpusError(problems)
    return Slang(out)


def _read_pairs(path: Path, problems: list[CorpusProblem]) -> dict[str, str]:
    import yaml

    try:
        data: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError) as e:
        raise CorpusError([_problem("-", f"файл не читается: {e}")]) from e
    pairs = data.get("words") if isinstance(data, dict) else None
    if not isinstance(pairs, dict):
        raise CorpusError([_problem("-", "ожидался словарь words: {слово: слово глоссария}")])
    good = {str(k): str(v) for k, v in pairs.items() if isinstance(v, str)}
    for k in pairs.keys() - good.keys():
        problems.append(_problem(str(k), "значение — строка"))
    return good


def _fold(text: str) -> str:
    return words(text)[0]


def _one_word(text: str) -> str | None:
    tokens = words(text)
    return lemma(tokens[0]) if len(tokens) == 1 else None


def _problem(record: str, message: str) -> CorpusProblem:
    return CorpusProblem(file=FILE, record=record, field="words", message=message)
