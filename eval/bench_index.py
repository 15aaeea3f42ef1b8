"""Benchmark: the real glossary's index — embedder load, build (embed + FAISS + BM25) in a fresh
directory, save, and open of the saved index (median of 5).

    .venv/bin/python eval/bench_index.py [--json out.json]

eval/bench_retrieval.py runs it first and hands the built index to the other retrieval benchmarks.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path
from typing import Any

from benchlib import Real, Report, finish, load_text, log, measured, new_report, parse, timed


def run(args: argparse.Namespace, rep: Report, index_dir: Path) -> Real:
    """Build the real index into `index_dir` (measured) and return it with its retriever."""
    from assistant.corpus.glossary import load_glossary
    from assistant.embedding.model import load_embedder
    from assistant.search.indexing import build_index, open_index, save_index
    from assistant.search.retrieval import HybridRetriever
    from assistant.settings import Settings

    settings = Settings(index_dir=index_dir, auto_rebuild_index=False)
    glossary = load_glossary(settings.corpus_dir)
    embedder, load_ms = timed(lambda: load_embedder(settings))
    log(f"embedder loaded in {load_ms / 1000:.1f} s ({embedder.model_id}, dim {embedder.dim})")

    # index build (fresh temp dir, real embedder) and open of the saved index
    def build() -> tuple[Any, float, float]:
        idx, b_ms = timed(
            lambda: build_index(glossary, embedder, ann_threshold=settings.ann_threshold)
        )
        _, s_ms = timed(lambda: save_index(idx, index_dir))
        return idx, b_ms, s_ms

    (index, build_ms, save_ms), build_load, build_att = measured("build", build, args)
    opens: list[float] = []

    def open_many() -> list[float]:
        out = []
        for _ in range(5):
            _, ms = timed(lambda: open_index(glossary, embedder, index_dir, auto_rebuild=False))
            out.append(ms)
        return out

    opens, open_load, _ = measured("open", open_many, args)
    rep.put(
        "index",
        {
            "chunks": len(index.chunks),
            "index_type": index.manifest.index_type,
            "build_ms": round(build_ms, 1),
            "save_ms": round(save_ms, 1),
            "build_load": build_load.__dict__,
            "build_attempts": build_att,
            "open_ms_median_of_5": round(statistics.median(opens), 1),
            "open_load": open_load.__dict__,
            "embedder_load_ms": round(load_ms, 1),
        },
    )
    log(
        f"index: {len(index.chunks)} chunks built in {build_ms / 1000:.2f} s, "
        f"open {statistics.median(opens):.1f} ms ({build_load.short()})"
    )
    retriever = HybridRetriever(glossary, index, embedder)
    return Real(settings, glossary, embedder, index, retriever, index_dir)


def render(rep: dict[str, Any]) -> list[str]:
    if "index" not in rep:
        return []
    ix = rep["index"]
    return [
        "",
        f"Index (real glossary, {ix['chunks']} chunks, {ix['index_type']})",
        f"  build (embed+FAISS+BM25)   {ix['build_ms'] / 1000:8.2f} s   "
        f"[{load_text(ix['build_load'])}]",
        f"  save                       {ix['save_ms']:8.1f} ms",
        f"  open saved (median of 5)   {ix['open_ms_median_of_5']:8.1f} ms   "
        f"[{load_text(ix['open_load'])}]",
        f"  embedder load              {ix['embedder_load_ms'] / 1000:8.2f} s",
    ]


def main() -> None:
    args = parse(__doc__)
    rep = new_report(args)
    with tempfile.TemporaryDirectory(prefix="bench-index-") as tmp:
        run(args, rep, Path(tmp) / "index")
    finish(rep, args, render(rep.data))


if __name__ == "__main__":
    main()
