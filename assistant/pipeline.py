"""Conversation (question + history) → Answer; the composition root `build_pipeline(settings)`.

Interface used by every channel (CLI, HTTP, widget, Telegram):

    pipeline = build_pipeline(Settings())
    answer: Answer = pipeline.answer("что такое nvlink", history=[])
    for event in pipeline.stream("а в FP8?", history=turns):   # StreamEvent: delta… then done
        ...

`history` is a list of `schema.Turn` (oldest first). The returned Answer's route/params let the
caller store the turn; `pipeline.turns_for(question, answer)` gives the two Turns to persist.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.settings import Settings

if TYPE_CHECKING:
    from assistant.indexing import ProgressFn
    from assistant.retrieval import HybridRetriever


def build_retriever(settings: Settings, progress: ProgressFn | None = None) -> HybridRetriever:
    """Glossary + embedding model + (re)built index → the hybrid retriever."""
    from assistant.corpus import load_glossary
    from assistant.embedding import load_embedder
    from assistant.indexing import open_index
    from assistant.retrieval import HybridRetriever

    glossary = load_glossary(settings.corpus_dir)
    embedder = load_embedder(settings)
    index, _ = open_index(
        glossary,
        embedder,
        settings.index_dir,
        auto_rebuild=settings.auto_rebuild_index,
        ann_threshold=settings.ann_threshold,
        progress=progress,
    )
    return HybridRetriever(glossary, index, embedder)
