"""`python -m tests.api.fast_server DB PORT` → the real app and uvicorn (as `assistant serve`
configures it) on the hash-embedder engine, in a process of its own: for tests that act on the
process itself (its file-size limit, its file descriptors). Prints «ready» when it listens."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import uvicorn

from assistant.cli.serve import server_config
from assistant.corpus.catalog import load_catalog
from assistant.corpus.glossary import load_glossary
from assistant.corpus.slang import load_slang
from assistant.search.indexing import build_index
from assistant.search.retrieval import HybridRetriever
from assistant.settings import ROOT, Settings
from tests.api.live import make_app
from tests.conftest import _pipeline
from tests.fakes import HashEmbedder


def main(db: str, port: int, **overrides: str) -> None:
    settings = Settings(
        corpus_dir=ROOT / "corpus",
        index_dir=Path(tempfile.mkdtemp()),
        db_path=Path(db),
        database_url="",
        host="127.0.0.1",
        port=port,
        rate_limit_per_minute=0,
        llm_base_url="",
        _env_file=None,  # type: ignore[call-arg]
        **overrides,  # type: ignore[arg-type]
    )
    glossary = load_glossary(settings.corpus_dir)
    embedder = HashEmbedder()
    slang = load_slang(settings.corpus_dir, glossary)
    retriever = HybridRetriever(glossary, build_index(glossary, embedder), embedder, slang=slang)
    app = make_app(_pipeline(settings, load_catalog(settings.corpus_dir), retriever), settings)
    server = uvicorn.Server(server_config(app, settings, log_level="warning"))
    print("ready", flush=True)
    server.run()


if __name__ == "__main__":
    extra = dict(arg.split("=", 1) for arg in sys.argv[3:])
    main(sys.argv[1], int(sys.argv[2]), **extra)
