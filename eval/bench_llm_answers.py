"""Engine + a real LLM → share of drafts the checks accept, latency per answer, drafts to read.

    python eval/bench_llm_answers.py --base-url http://127.0.0.1:8011/v1 [-n 40] [--out DIR]
    python eval/bench_llm_answers.py --replay test-output/instruct/drafts.jsonl --out DIR
    python eval/bench_llm_answers.py --base-url … --nuggets 2   # what the answers say, LLM path

Runs ~40 `split: dev` questions — term (direct, paraphrase, colloquial, mixed), comparison and
numeric (complete parameters) — through the full engine with the LLM enabled, one at a time,
after one untimed warm-up. Reports the drafts the checks accepted out of all drafts, the answers
delivered from the LLM, the fallback reasons (codes), the latency per answer (median, p95) and
the machine's 1-minute load average while it ran. Every draft, its verdict and the delivered
answer go to DIR/drafts.jsonl (default test-output/instruct) so a person can judge whether the
accepted ones are correct. `scripts/vllm/instruct.sh` starts the instruct model and runs this.

`--nuggets K` asks instead the first K rows of every kind of eval/data/nuggets.jsonl in each split
(dev and test) and scores the delivered answers as `assistant eval answers` scores the embedded
ones: complete answers, nugget recall and lead per kind, dev and test side by side, test as
aggregates only.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchlib import percentile

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.answer.generation import AnswerContext, VLLMGenerator  # noqa: E402

TERM_MIX = {"direct": 6, "paraphrase": 6, "colloquial": 2, "mixed": 2}
NUMERIC_MIX = {"vram_inference": 5, "gpu_fit": 3, "gpu_cost": 3, "vram_training": 3}
WARMUP = "что такое NVLink?"


def pick_questions(n: int, split: str = "dev") -> list[dict[str, Any]]:
    """Rows of one split in file order: 16 term, 10 comparison, 14 numeric (4 calculators)."""
    retrieval = _rows(ROOT / "eval" / "data" / "retrieval.jsonl", split)
    numeric = _rows(ROOT / "eval" / "data" / "numeric.jsonl", split)
    wanted = {**TERM_MIX, "comparison": 10}
    out: list[dict[str, Any]] = []
    for category, count in wanted.items():
        rows = [r for r in retrieval if r["category"] == category][:count]
        kind = "comparison" if category == "comparison" else "term"
        out += [{"id": r["id"], "kind": kind, "question": r["question"]} for r in rows]
    complete = [
        r
        for r in numeric
        if r.get("values") and not r.get("after") and not (r.get("expect") or {}).get("missing")
    ]
    for tool, count in NUMERIC_MIX.items():
        rows = [r for r in complete if r["expect"].get("tool") == tool][:count]
        out += [{"id": r["id"], "kind": "numeric", "question": r["question"]} for r in rows]
    return out if n >= len(out) else _spread(out, n)


def pick_nuggets(k: int) -> list[dict[str, Any]]:
    """The first k rows of each kind in each split, in file order (dev first)."""
    rows = [json.loads(line) for line in (ROOT / "eval/data/nuggets.jsonl").open() if line.strip()]
    out: list[dict[str, Any]] = []
    for split in ("dev", "test"):
        for kind in sorted({r["kind"] for r in rows}):
            same = [r for r in rows if r["split"] == split and r["kind"] == kind][:k]
            out += [{"id": r["id"], "kind": kind, "question": r["question"]} for r in same]
    return out


def nugget_figures(rows: list[dict[str, Any]], answers: list[Any]) -> dict[str, Any]:
    """Per kind and split: rows, complete, recall, lead — of the answers delivered."""
    from assistant.evaluation.nuggets import evaluate
    from assistant.evaluation.rows import NuggetRow

    by_id = {
        r["id"]: NuggetRow.model_validate(r)
        for r in (json.loads(x) for x in (ROOT / "eval/data/nuggets.jsonl").open() if x.strip())
    }
    report = evaluate([by_id[r["id"]] for r in rows], answers)
    return {
        split: {kind: f.as_dict() for kind, f in kinds.items()}
        for split, kinds in report.figures.items()
    }


def _rows(path: Path, split: str) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    return [r for r in rows if r.get("split") == split]


def _spread(rows: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    step = len(rows) / n
    return [rows[int(i * step)] for i in range(n)]


class RecordingGenerator(VLLMGenerator):
    """The real LLM generator, keeping every draft it produced (and how long it took)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.drafts: list[dict[str, Any]] = []

    def generate(self, ctx: AnswerContext, *, timeout_s: float | None = None) -> str:
        start = time.perf_counter()
        try:
            text = super().generate(ctx, timeout_s=timeout_s)
        except Exception as e:
            self.drafts.append({"error": type(e).__name__, "seconds": _since(start)})
            raise
        self.drafts.append({"text": text, "seconds": _since(start)})
        return text


class ReplayGenerator(RecordingGenerator):
    """Serves the drafts a model wrote in an earlier run (drafts.jsonl) instead of calling it:
    re-checks a real model's output with the current checks in seconds."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue: list[dict[str, Any]] = []

    def generate(self, ctx: AnswerContext, *, timeout_s: float | None = None) -> str:
        from assistant.errors import LLMTimeoutError

        saved = self.queue.pop(0) if self.queue else {"error": "none left"}
        if "text" not in saved:  # the model timed out there, or never wrote another draft
            self.drafts.append({"error": saved["error"], "seconds": 0.0})
            raise LLMTimeoutError(f"replay: {saved['error']}")
        self.drafts.append({"text": saved["text"], "seconds": saved["seconds"]})
        return str(saved["text"])


class Rejections(logging.Handler):
    """The guard logs every rejected draft with its problems: collect them in order."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.items: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("LLM draft rejected"):
            self.items.append(record.getMessage().split(":", 1)[1].strip())


def _since(start: float) -> float:
    return round(time.perf_counter() - start, 2)


def build(args: argparse.Namespace) -> tuple[Any, RecordingGenerator]:
    from assistant.corpus.catalog import load_catalog
    from assistant.llm.client import ChatClient
    from assistant.pipeline import Pipeline, build_engine, build_retriever
    from assistant.settings import load_settings

    overrides: dict[str, Any] = {"llm_base_url": args.base_url, "llm_timeout_s": args.timeout}
    if args.model:
        overrides["llm_model"] = args.model
    if args.api_key:
        overrides["llm_api_key"] = args.api_key
    if args.replay:
        overrides["llm_base_url"] = "http://replay.invalid/v1"  # never called
    settings = load_settings().model_copy(update=overrides)
    kind = ReplayGenerator if args.replay else RecordingGenerator
    llm = kind(ChatClient(settings), settings.prompts_dir, max_tokens=args.max_tokens)
    retriever = build_retriever(settings)
    catalog = load_catalog(settings.corpus_dir)
    engine = build_engine(settings, retriever, catalog, llm)
    return Pipeline(engine, settings), llm


def run(args: argparse.Namespace) -> dict[str, Any]:
    pipeline, llm = build(args)
    rejections = Rejections()
    logging.getLogger("assistant.answer.guard").addHandler(rejections)
    logging.getLogger("assistant.answer.guard").setLevel(logging.INFO)
    saved = _saved(args.replay)
    if not saved:
        pipeline.answer(WARMUP)  # untimed: loads the model's prefix cache and our index
    rows, loads, answers = [], [os.getloadavg()[0]], []
    if args.nuggets:
        items = pick_nuggets(args.nuggets)
    else:
        items = pick_questions(args.questions, args.split)
    for item in items:
        llm.drafts, rejections.items = [], []
        if isinstance(llm, ReplayGenerator):
            llm.queue = list(saved.get(item["id"], []))
        start = time.perf_counter()
        answer = pipeline.answer(item["question"])
        seconds = _since(start)
        loads.append(os.getloadavg()[0])
        rows.append(_row(item, answer, seconds, llm.drafts, rejections.items))
        answers.append(answer)
        print(f"{item['id']:>5} {seconds:6.1f} s  {answer.generator:8} {item['question'][:60]}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with (out / "drafts.jsonl").open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    result = summary(rows, loads)
    if args.nuggets:
        result["nuggets"] = nugget_figures(rows, answers)
    return result


def _saved(path: str | None) -> dict[str, list[dict[str, Any]]]:
    if not path:
        return {}
    rows = [json.loads(line) for line in Path(path).read_text("utf-8").splitlines() if line]
    return {r["id"]: r["drafts"] for r in rows}


def _row(
    item: dict[str, Any], answer: Any, seconds: float, drafts: list[dict[str, Any]], why: list[str]
) -> dict[str, Any]:
    rejected = iter(why)
    for n, draft in enumerate(drafts):
        last = n == len(drafts) - 1
        draft["accepted"] = last and answer.generator != "embedded" and "text" in draft
        if "text" in draft and not draft["accepted"]:
            draft["problems"] = next(rejected, "")
    return {
        **item,
        "route": answer.route,
        "generator": answer.generator,
        "seconds": seconds,
        "drafts": drafts,
        "answer": answer.answer,
        "citations": [c.slug for c in answer.citations],
        "fallback_reason": answer.meta.fallback_reason,
        "fallback_detail": answer.meta.fallback_detail,
    }


def summary(rows: list[dict[str, Any]], loads: list[float]) -> dict[str, Any]:
    drafts = [d for r in rows for d in r["drafts"]]
    texts = [d for d in drafts if "text" in d]
    accepted = [d for d in texts if d["accepted"]]
    seconds = [r["seconds"] for r in rows]
    by_kind = {
        kind: f"{sum(r['generator'] != 'embedded' for r in group)}/{len(group)}"
        for kind in sorted({r["kind"] for r in rows})
        if (group := [r for r in rows if r["kind"] == kind])
    }
    return {
        "questions": len(rows),
        "drafts": len(drafts),
        "drafts_with_text": len(texts),
        "drafts_accepted": len(accepted),
        "draft_acceptance": round(len(accepted) / max(len(texts), 1), 3),
        "answers_from_llm": sum(r["generator"] != "embedded" for r in rows),
        "answers_from_llm_by_kind": by_kind,
        "draft_errors": dict(Counter(d["error"] for d in drafts if "error" in d)),
        "fallback_reasons": dict(
            Counter(r["fallback_reason"] for r in rows if r["fallback_reason"])
        ),
        "answer_s_median": round(statistics.median(seconds), 1),
        "answer_s_p95": round(percentile(seconds, 95), 1),
        "draft_s_median": round(statistics.median(d["seconds"] for d in drafts), 1)
        if drafts
        else 0,
        "load_1min_mean": round(statistics.mean(loads), 2),
        "load_1min_max": round(max(loads), 2),
        "cpus": os.cpu_count(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--base-url", default=os.environ.get("ASSISTANT_LLM_BASE_URL", "http://127.0.0.1:8011/v1")
    )
    parser.add_argument("--model", default=os.environ.get("ASSISTANT_LLM_MODEL", ""))
    parser.add_argument("--api-key", default=os.environ.get("ASSISTANT_LLM_API_KEY", ""))
    parser.add_argument("-n", "--questions", type=int, default=40)
    parser.add_argument("--split", choices=("dev", "test"), default="dev")
    parser.add_argument(
        "--nuggets", type=int, default=0, help="the first K nugget rows of each kind and split"
    )
    parser.add_argument("--max-tokens", type=int, default=300)
    parser.add_argument("--timeout", type=float, default=180.0, help="LLM budget per answer, s")
    parser.add_argument("--out", default=str(ROOT / "test-output" / "instruct"))
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.add_argument(
        "--replay", default=None, help="drafts.jsonl of an earlier run: re-check, no LLM calls"
    )
    args = parser.parse_args()
    result = run(args)
    (Path(args.out) / "summary.json").write_text(json.dumps(result, indent=1) + "\n", "utf-8")
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        for key, value in result.items():
            print(f"{key:28} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
