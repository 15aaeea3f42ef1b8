"""Shared fixtures, built once per run.

Integration tier (`slow`): the real embedding model and its index — `embedder`, `retriever`,
`pipeline`. Fast tier: the same engine, FAISS and BM25 over tests/fakes.py's HashEmbedder —
`fast_retriever`, `fast_pipeline`, and `make_pipeline(llm)` for an engine whose LLM is a
ScriptedLLM. Use the fast ones unless the test is about retrieval or answer quality.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from assistant.answer.generation import LLMGenerator
from assistant.corpus.catalog import Catalog, load_catalog
from assistant.corpus.glossary import Glossary
from assistant.corpus.slang import load_slang
from assistant.pipeline import Pipeline, build_engine
from assistant.search.indexing import build_index
from assistant.search.retrieval import HybridRetriever
from assistant.settings import ROOT, Settings
from tests.fakes import HashEmbedder

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@pytest.fixture(scope="session")
def session_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("session")


@pytest.fixture(scope="session")
def settings(session_dir: Path) -> Settings:
    """Real corpus and model; index and database in a per-run temp folder. The index starts as
    a copy of the checkout's (scripts/setup.sh builds it): open_index rebuilds it there when
    the corpus or the model changed, so a copy saves the build (~65 s) and decides nothing."""
    built = ROOT / "index"
    if built.is_dir():
        shutil.copytree(built, session_dir / "index")
    return Settings(
        corpus_dir=ROOT / "corpus",
        index_dir=session_dir / "index",
        db_path=session_dir / "assistant.sqlite3",
        llm_base_url="",
        _env_file=None,  # type: ignore[call-arg]
    )


@pytest.fixture(scope="session")
def catalog(settings: Settings) -> Catalog:
    return load_catalog(settings.corpus_dir)


@pytest.fixture(scope="session")
def glossary(settings: Settings):
    from assistant.corpus.glossary import load_glossary

    return load_glossary(settings.corpus_dir)


@pytest.fixture(scope="session")
def embedder(settings: Settings):
    from assistant.embedding.model import load_embedder

    return load_embedder(settings)


@pytest.fixture(scope="session")
def retriever(settings: Settings, glossary, embedder):
    from assistant.search.indexing import open_index
    from assistant.search.retrieval import HybridRetriever

    index, _ = open_index(glossary, embedder, settings.index_dir)
    slang = load_slang(settings.corpus_dir, glossary)
    return HybridRetriever(glossary, index, embedder, slang=slang)


@pytest.fixture(scope="session")
def pipeline(settings: Settings, catalog: Catalog, retriever):
    """The real engine on the embedded generator (no LLM), sharing the session's index."""
    return _pipeline(settings, catalog, retriever)


def _pipeline(
    settings: Settings,
    catalog: Catalog,
    retriever: HybridRetriever,
    llm: LLMGenerator | None = None,
) -> Pipeline:
    return Pipeline(build_engine(settings, retriever, catalog, llm), settings)


@pytest.fixture(scope="session")
def fast_retriever(settings: Settings, glossary: Glossary) -> HybridRetriever:
    """Real FAISS, BM25 and alias matching over the hash embedder: no model, built in ~0.3 s."""
    embedder = HashEmbedder()
    slang = load_slang(settings.corpus_dir, glossary)
    return HybridRetriever(glossary, build_index(glossary, embedder), embedder, slang=slang)


@pytest.fixture(scope="session")
def fast_pipeline(
    settings: Settings, catalog: Catalog, fast_retriever: HybridRetriever
) -> Pipeline:
    """The real engine and embedded generator (no LLM) over the fast retriever."""
    return _pipeline(settings, catalog, fast_retriever)


@pytest.fixture(scope="session")
def make_pipeline(
    settings: Settings, catalog: Catalog, fast_retriever: HybridRetriever
) -> Callable[[LLMGenerator | None], Pipeline]:
    """make_pipeline(ScriptedLLM(drafts=[…])) → a fresh engine (~20 ms) with that LLM."""
    return lambda llm: _pipeline(settings, catalog, fast_retriever, llm)


_REAL_MODEL = frozenset({"embedder", "retriever", "pipeline"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test that loads the real model (directly or through a fixture) is in the slow tier."""
    for item in items:
        if _REAL_MODEL & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
