"""Shared fixtures: the real glossary, the real embedding model, a real index built once per run."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from assistant.settings import ROOT, Settings

if TYPE_CHECKING:
    from assistant.corpus.glossary import Glossary
    from assistant.embedding.model import Embedder
    from assistant.pipeline import Pipeline
    from assistant.search.retrieval import HybridRetriever

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@pytest.fixture(scope="session")
def session_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("session")


@pytest.fixture(scope="session")
def settings(session_dir: Path) -> Settings:
    """Real corpus and model; index and database in a per-run temp folder."""
    return Settings(
        corpus_dir=ROOT / "corpus",
        index_dir=session_dir / "index",
        db_path=session_dir / "assistant.sqlite3",
        llm_base_url="",
        _env_file=None,  # type: ignore[call-arg]
    )


@pytest.fixture(scope="session")
def glossary(settings: Settings) -> Glossary:
    from assistant.corpus.glossary import load_glossary

    return load_glossary(settings.corpus_dir)


@pytest.fixture(scope="session")
def embedder(settings: Settings) -> Embedder:
    from assistant.embedding.model import load_embedder

    return load_embedder(settings)


@pytest.fixture(scope="session")
def retriever(settings: Settings, glossary: Glossary, embedder: Embedder) -> HybridRetriever:
    from assistant.search.indexing import open_index
    from assistant.search.retrieval import HybridRetriever

    index, _ = open_index(glossary, embedder, settings.index_dir)
    return HybridRetriever(glossary, index, embedder)


@pytest.fixture(scope="session")
def pipeline(settings: Settings, retriever: HybridRetriever) -> Pipeline:
    """The real engine on the embedded generator (no LLM), sharing the session's index."""
    from assistant.answer.generation import EmbeddedGenerator
    from assistant.engine import Engine
    from assistant.pipeline import Pipeline

    engine = Engine(settings, retriever, EmbeddedGenerator(settings.prompts_dir))
    return Pipeline(engine, settings)
