"""Conversation (question + history) → Answer; the composition root `build_pipeline(settings)`.

Interface used by every channel (CLI, HTTP, widget, Telegram):

    pipeline = build_pipeline(Settings())
    answer: Answer = pipeline.answer("что такое nvlink", history=[])
    for event in pipeline.stream("а в FP8?", history=turns):   # StreamEvent: delta… then done
        ...
    user_turn, assistant_turn = pipeline.turns_for(question, answer)   # what to persist
    pipeline.ready()   # {"index": bool, "llm": "disabled" | "ok" | "down", "generator": …}

`history` is a list of `schema.Turn` (oldest first).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Any

from assistant.answer.answerer import Answerer
from assistant.answer.compose import SentenceBank
from assistant.answer.generation import EmbeddedGenerator, LLMGenerator, VLLMGenerator
from assistant.answer.guard import Guard
from assistant.answer.specs import spec_entries
from assistant.conversation.validation import validate_message
from assistant.corpus.catalog import Catalog, load_catalog
from assistant.corpus.glossary import Glossary, load_glossary
from assistant.corpus.slang import load_slang
from assistant.embedding.base import Embedder
from assistant.embedding.batching import BatchingEmbedder
from assistant.embedding.model import load_embedder
from assistant.engine import Engine, Parts
from assistant.llm.client import ChatClient
from assistant.numeric import Calculations
from assistant.schema import Answer, StreamEvent, Turn
from assistant.search.coverage import Coverage, load_coverage
from assistant.search.indexing import ProgressFn, open_index
from assistant.search.lookup import Lookup
from assistant.search.retrieval import HybridRetriever
from assistant.settings import Settings, load_settings
from assistant.understanding.condense import Condenser
from assistant.understanding.reader import Reader
from assistant.understanding.vocabulary import Vocabulary


def build_retriever(settings: Settings, progress: ProgressFn | None = None) -> HybridRetriever:
    """Glossary + embedding model + (re)built index → the hybrid retriever."""
    glossary = load_glossary(settings.corpus_dir)
    embedder: Embedder = load_embedder(settings)
    batch_max = settings.embed_batch_max
    if batch_max is None:
        batch_max = 1 if settings.embedding_backend == "onnx" else 32
    if batch_max > 1:  # 1 = every request embeds on its own thread
        embedder = BatchingEmbedder(
            embedder, max_batch=batch_max, max_wait_ms=settings.embed_batch_wait_ms
        )
    index, _ = open_index(
        glossary,
        embedder,
        settings.index_dir,
        auto_rebuild=settings.auto_rebuild_index,
        ann_threshold=settings.ann_threshold,
        progress=progress,
    )
    return HybridRetriever(
        glossary, index, embedder, slang=load_slang(settings.corpus_dir, glossary)
    )


class Pipeline:
    """Guards input (the conversation layer's validator), runs the engine, streams the answer."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings

    @property
    def glossary(self) -> Glossary:
        """The glossary the engine answers from (glossary pages show the same one)."""
        return self.engine.glossary

    @property
    def catalog(self) -> Catalog:
        """The GPU and model catalogue the calculators use (GPU pages show the same one)."""
        return self.engine.parts.calculations.catalog

    def answer(self, message: str, history: Sequence[Turn] = ()) -> Answer:
        start = time.perf_counter()
        # the channels' rules; a channel's question (ChatService) arrives validated already
        text = validate_message(message, self.settings.max_message_chars)
        answer = self.engine.answer(text, list(history))
        answer.meta.latency_ms = round((time.perf_counter() - start) * 1000, 2)
        return answer

    def stream(self, message: str, history: Sequence[Turn] = ()) -> Iterator[StreamEvent]:
        """Deltas of an answer that already passed every check, then the full Answer.

        Nothing unverified is streamed: an LLM draft is checked whole before its first delta.
        """
        answer = self.answer(message, history)
        for piece in _pieces(answer.answer):
            yield StreamEvent(kind="delta", text=piece)
        yield StreamEvent(kind="done", answer=answer)

    def turns_for(self, message: str, answer: Answer) -> tuple[Turn, Turn]:
        user = Turn(role="user", content=message.strip())
        bot = Turn(
            role="assistant",
            content=answer.answer,
            params=answer.meta.params,
            slugs=[c.slug for c in answer.citations] or answer.meta.slugs,
        )
        return user, bot

    def ready(self) -> dict[str, Any]:
        return self.engine.ready()


def _pieces(text: str, size: int = 4) -> Iterator[str]:
    """Split text into small word groups (whitespace kept) for incremental display."""
    words = text.split(" ")
    for i in range(0, len(words), size):
        chunk = " ".join(words[i : i + size])
        yield chunk + (" " if i + size < len(words) else "")


def build_engine(
    settings: Settings,
    retriever: HybridRetriever,
    catalog: Catalog,
    llm: LLMGenerator | None = None,
    coverage: Coverage | None = None,
) -> Engine:
    """Every part of the engine, once: the reader (with the glossary's names), the
    calculators, the condenser, the glossary search, the generators and their guard.
    `coverage`: the scope decision (None: the learned one if its weights fit the model)."""
    glossary = retriever.glossary
    entries = {**glossary.by_slug(), **spec_entries(catalog)}  # glossary and catalogue sheets
    embedded = EmbeddedGenerator(settings.prompts_dir)
    reader = Reader(catalog, terms=retriever.aliases)
    vocabulary = Vocabulary(glossary, catalog)
    guard = Guard(settings, glossary, catalog, embedded, llm)
    bank = SentenceBank(glossary.entries, retriever.index)
    parts = Parts(
        glossary=glossary,
        reader=reader,
        calculations=Calculations(catalog, reader),
        condenser=Condenser(entries, llm),
        retriever=retriever,
        vocabulary=vocabulary,
        lookup=Lookup(
            retriever, vocabulary, coverage or _coverage(settings, retriever, vocabulary)
        ),
        answerer=Answerer(settings.prompts_dir, entries, bank, catalog, embedded, guard),
        guard=guard,
        llm=llm,
    )
    return Engine(parts)


def _coverage(settings: Settings, retriever: HybridRetriever, vocabulary: Vocabulary) -> Coverage:
    """The learned scope decision if its weights fit the embedding model, else the rules."""
    manifest = retriever.index.manifest
    coverage = load_coverage(settings.corpus_dir, manifest.model_id, manifest.dim)
    if coverage.name == "learned":
        _ = vocabulary.entry_asked  # the entries' words (~80 ms) now, not on the first question
    return coverage


def build_pipeline(
    settings: Settings | None = None, progress: ProgressFn | None = None
) -> Pipeline:
    """The one composition root: corpus, model, index, calculators, generators."""
    settings = settings or load_settings()
    catalog = load_catalog(settings.corpus_dir)  # a corpus error shows before the model loads
    retriever = build_retriever(settings, progress)
    llm: LLMGenerator | None = None
    if settings.llm_base_url:
        llm = VLLMGenerator(ChatClient(settings), settings.prompts_dir)
    return Pipeline(build_engine(settings, retriever, catalog, llm), settings)
