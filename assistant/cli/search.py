"""`assistant index build | search | eval retrieval` → retrieval from the shell."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from assistant.cli import app, eval_app
from assistant.cli.common import (
    batch_line,
    console,
    err_console,
    read_stdin_lines,
    settings,
    user_errors,
)
from assistant.conversation.validation import validate_message
from assistant.evaluation.sets import SplitChoice

if TYPE_CHECKING:
    from assistant.search.retrieval import HybridRetriever

index_app = typer.Typer(help="Поисковый индекс глоссария.", no_args_is_help=True)
app.add_typer(index_app, name="index")


def _retriever() -> HybridRetriever:
    from assistant.cli.progress import index_progress
    from assistant.pipeline import build_retriever

    with index_progress() as progress:
        return build_retriever(settings(), progress=progress)


@index_app.command("build")
def index_build(
    force: Annotated[
        bool, typer.Option("--force", help="Перестроить, даже если индекс свежий")
    ] = False,
) -> None:
    """Построить (или проверить и переиспользовать) индекс: FAISS + BM25 + манифест."""
    import time

    from assistant.cli.progress import index_progress
    from assistant.corpus.glossary import load_glossary
    from assistant.embedding.model import load_embedder
    from assistant.search.indexing import build_index, open_index, save_index

    with user_errors(), index_progress() as progress:
        s = settings()
        glossary = load_glossary(s.corpus_dir)
        embedder = load_embedder(s)
        start = time.perf_counter()
        if force:
            index = build_index(
                glossary, embedder, ann_threshold=s.ann_threshold, progress=progress
            )
            save_index(index, s.index_dir)
            rebuilt = True
        else:
            index, rebuilt = open_index(
                glossary, embedder, s.index_dir, ann_threshold=s.ann_threshold, progress=progress
            )
        took = time.perf_counter() - start
    state = "построен" if rebuilt else "актуален, перестраивать не нужно"
    m = index.manifest
    console.print(
        f"Индекс {state}: {m.chunks} фрагментов, модель {m.model_id}, размерность {m.dim}, "
        f"{m.index_type}, {took:.1f} с → {s.index_dir}"
    )


def _hits_json(question: str, retriever: HybridRetriever, k: int) -> str:
    """`{"hits": [{slug, title, score}, …]}` — one object per line, like an error line."""
    hits = retriever.search(validate_message(question, settings().max_message_chars), k)
    rows = [{"slug": h.slug, "title": h.title, "score": h.score} for h in hits]
    return json.dumps({"hits": rows}, ensure_ascii=False)


def _print_hits(question: str, retriever: HybridRetriever, k: int, as_json: bool) -> None:
    hits = retriever.search(question, k)
    if as_json:
        rows = [{"slug": h.slug, "title": h.title, "score": h.score} for h in hits]
        typer.echo(json.dumps(rows, ensure_ascii=False))
        return
    for rank, hit in enumerate(hits, 1):
        console.print(f"{rank}. [bold]{hit.title}[/bold] [dim]({hit.slug}, {hit.score:.4f})[/dim]")


@app.command("search")
def search(
    question: Annotated[str | None, typer.Argument(help="Вопрос; «-» — по одному из stdin")] = None,
    k: Annotated[int, typer.Option("--k", "-k", min=1, max=54, help="Сколько статей вернуть")] = 5,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="JSON: [{slug, title, score}]; с «-» — по объекту на строку: "
            '{"hits": […]} или {"error": {"code", "message"}}',
        ),
    ] = False,
) -> None:
    """Найти статьи глоссария по вопросу (без вопроса — интерактивный поиск)."""
    with user_errors():
        retriever = _retriever()
        if question == "-" and as_json:  # batch: one JSON line per question, errors included
            for line in read_stdin_lines():
                typer.echo(batch_line(partial(_hits_json, line, retriever, k)))
        elif question == "-":
            for line in read_stdin_lines():
                _print_hits(line, retriever, k, as_json)
        elif question is not None:
            if not question.strip():
                err_console.print(
                    '[red]Пустой вопрос.[/red] Пример: assistant search "что такое nvlink"'
                )
                raise typer.Exit(2)
            _print_hits(question, retriever, k, as_json)
        else:
            _interactive(retriever, k)


def _interactive(retriever: HybridRetriever, k: int) -> None:
    console.print("Поиск по глоссарию. Введите вопрос (пустая строка или Ctrl-D — выход).")
    while True:
        try:
            question = console.input("[bold cyan]вопрос>[/bold cyan] ").strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return
        if not question:
            return
        _print_hits(question, retriever, k, as_json=False)


@eval_app.command("retrieval")
def eval_retrieval(
    dataset: Annotated[
        list[Path] | None,
        typer.Option(help="JSONL с вопросами и gold-slug (можно несколько раз)"),
    ] = None,
    split: Annotated[
        SplitChoice,
        typer.Option(help="both — dev и test рядом; dev или test — один; all — всё вместе"),
    ] = SplitChoice.both,
    as_json: Annotated[bool, typer.Option("--json", help="Метрики одним JSON-объектом")] = False,
) -> None:
    """hit@1/3, Recall@3 и MRR@10: dense, BM25 и hybrid; dev и test рядом, по категориям.

    По умолчанию — eval/data/retrieval.jsonl (цели задачи на test) и eval/data/problems.jsonl."""
    from assistant.evaluation.retrieval import evaluate_sets, render_table, render_targets

    paths = dataset or [Path("eval/data/retrieval.jsonl"), Path("eval/data/problems.jsonl")]
    with user_errors():
        report = evaluate_sets(_retriever(), paths, split)
    if as_json:
        typer.echo(json.dumps(report.as_json(), ensure_ascii=False))
        return
    for name, data in report.sets.items():
        render_table(data, console, name)
    render_targets(report, console)
