"""Parsing cost per message: adversarial strings of 2 000 characters against ordinary questions.

    .venv/bin/python eval/bench_parsing.py                  # parse times, warm and cold caches
    .venv/bin/python eval/bench_parsing.py --clients 8      # + 8 HTTP clients sending the worst
    .venv/bin/python eval/bench_parsing.py --clients 8 --hostile "2 000 digits"
    PYTHONPATH=/path/to/other/checkout .venv/bin/python eval/bench_parsing.py   # another version

Timed: the engine's `Reader.read` (the catalogue and the glossary's alias matcher, as
pipeline.py builds it) plus `plan_calculation` with nothing carried, as CPU time of the one
thread (time.thread_time). Each message is parsed `--repeats` times and its median kept;
a class reports the median and p95 of its messages and its worst one. «warm»: the lemma caches
keep what earlier messages filled in, as in a running service; «cold»: they are emptied before
every parse, which is what fresh words cost (an attacker can send new words every time).

Ordinary: every question of eval/data/*.jsonl (dialogue turns included) but the robustness set,
which is odd by design and reported as a hostile class of its own; and «ordinary, 2 000
characters»: consecutive in-scope eval questions (terms, problems, calculations) joined up to the
message limit, so that the cost of length itself is visible next to the cost of odd characters.

--clients N: a real `assistant serve` (ONNX model, embedded generator, temporary SQLite); ordinary
questions are asked one at a time, first alone, then while N clients send the worst string of the
parse run (or the one named by --hostile) without pause, then while N clients send an ordinary
2 000-character text. Reported: the ordinary questions' p50 / p95 latency and how many hostile
requests were answered.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import httpx
from benchlib import ROOT, percentile, server

from assistant.corpus.catalog import Catalog, load_catalog
from assistant.corpus.glossary import load_glossary
from assistant.search.retrieval import AliasMatcher
from assistant.text import tokens
from assistant.understanding.calculation import plan_calculation
from assistant.understanding.params import Params
from assistant.understanding.reader import Reader

N = 2000  # ASSISTANT_MAX_MESSAGE_CHARS
DATA = ROOT / "eval" / "data"
ROBUSTNESS = "robustness.jsonl"  # odd strings by design: a hostile class here, not ordinary
# what customers ask in scope: joined into long ordinary texts (refusals and injections would make
# a text that is refused before it is searched, which is cheaper than an ordinary long question)
IN_SCOPE = ("retrieval.jsonl", "problems.jsonl", "numeric.jsonl", "numeric_phrased.jsonl")


def fill(unit: str, n: int = N) -> str:
    """`unit` repeated to exactly n characters."""
    return (unit * (n // len(unit) + 1))[:n]


def _random_words(seed: int, letters: str) -> str:
    rnd = random.Random(seed)
    out = ""
    while len(out) < N:
        out += "".join(rnd.choice(letters) for _ in range(rnd.randint(3, 12))) + " "
    return out[:N]


CYRILLIC = "абвгдежзийклмнопрстуфхцчшщъыьэюя"
LATIN = "abcdefghijklmnopqrstuvwxyz"

ADVERSARIAL: dict[str, dict[str, str]] = {
    "digit runs": {
        "2 000 digits": "7" * N,
        "a question, then digits": fill("сколько памяти нужно ", 21) + "1" * (N - 21),
        "digits, then «гб»": "1" * (N - 3) + " гб",
        "«$», then digits": "$" + "1" * (N - 1),
        "digits with one dot": "1" * 1000 + "." + "1" * (N - 1001),
        "«сто сто …» (one number)": fill("сто "),
        "«1 000 000 …» (one number)": "1" + fill(" 000", N - 1),
        "«1,000,000 …» (one number)": "1" + fill(",000", N - 1),
        "full-width digits": "１" * N,
        "Arabic-Indic digits": "٣" * N,
        "«1e» and digits": "1e" + "4" * (N - 2),
    },
    "repeated units": {
        "«1 гб »": fill("1 гб "),
        "«1гб »": fill("1гб "),
        "«8 h100 »": fill("8 h100 "),
        "«8x h100 »": fill("8x h100 "),
        "«h100 на 80 гб »": fill("h100 на 80 гб "),
        "«$5 в час »": fill("$5 в час "),
        "«за 100 в месяц »": fill("за 100 в месяц "),
        "«2 недели и 3 дня, »": fill("2 недели и 3 дня, "),
        "«контекст 32k »": fill("контекст 32k "),
        "«32k токенов »": fill("32k токенов "),
        "«70b »": fill("70b "),
        "«fp8 int4 bf16 »": fill("fp8 int4 bf16 "),
        "«kv-кэш в fp8 »": fill("kv-кэш в fp8 "),
        "«80 слоев 8 kv-голов …»": fill("80 слоев, 8 kv-голов, размерность головы 128, "),
        "«8 пользователей батч 8 »": fill("8 пользователей батч 8 "),
        "«rtx 3060 »": fill("rtx 3060 "),
        "«1e400 »": fill("1e400 "),
    },
    "separators": {
        "«1.1.1.»": fill("1."),
        "«1,1,1,»": fill("1,"),
        "«1-1-1-»": fill("1-"),
        "dots": "." * N,
        "commas between letters": "а" + "," * (N - 2) + "а",
        "dots between letters": "а" + "." * (N - 2) + "а",
        "line breaks between letters": "а" + "\n" * (N - 2) + "а",
        "«, , ,»": fill(", "),
        "question marks": "?" * N,
        "dashes": "-" * N,
    },
    "long words": {
        "«ааа…»": "а" * N,
        "«aaa…»": "a" * N,
        "one random Cyrillic word": _random_words(1, CYRILLIC).replace(" ", ""),
        "«контекст» and a long tail": "контекст" + "а" * (N - 8),
    },
    "mixed scripts": {
        "«аa1»": fill("аa1"),
        "«Нvидиа »": fill("Нvидиа "),
        "«Н100 » (Cyrillic Н)": fill("Н100 "),
        "«H100 ГПУ ∑ 中文 »": fill("H100 ГПУ ∑ 中文 "),
        "emoji": fill("🙂 h100 "),
        "right-to-left": fill("مرحبا שלום h100 "),
        "combining marks": fill("е\u0301\u0301 "),
        "zero-width spaces": fill("h\u200b100\u200b "),
    },
    "comparison cues": {
        "«что такое nvlink и pcie или или …»": "что такое nvlink и pcie " + fill("или ", N - 24),
        "«nvlink pcie или »": fill("nvlink pcie или "),
        "«lora qlora или »": fill("lora qlora или "),
        "«nvlink или pcie »": fill("nvlink или pcie "),
        "«hbm gddr чем »": fill("hbm gddr чем "),
    },
    "dates": {
        "«в 2024 »": fill("в 2024 "),
        "«2024 год »": fill("2024 год "),
        "«12.03.2025 »": fill("12.03.2025 "),
        "«с 10 по 24 июня »": fill("с 10 по 24 июня "),
        "«1 мая »": fill("1 мая "),
    },
    "pasted logs": {
        "stack lines": fill('  File "train.py", line 12, in <module>\n'),
        "logger lines": fill("INFO 03-14 12:00:00 Model loading took 61.04 GiB\n"),
        "prose and errors in turn": fill("что делать?\nRuntimeError: CUDA out of memory\n"),
        "one-letter lines": fill("а\n"),
    },
    "random words": {
        "random Cyrillic words": _random_words(2, CYRILLIC),
        "random Latin words": _random_words(3, LATIN),
        "random letters and digits": _random_words(4, CYRILLIC + LATIN + "0123456789"),
    },
}


def eval_questions(sets: Iterable[Path]) -> list[str]:
    """Every question and dialogue turn of the given eval sets, once each, in file order."""
    out: dict[str, None] = {}
    for path in sets:
        for line in path.read_text("utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            for text in [row.get("question"), row.get("text")]:
                if isinstance(text, str):
                    out[text] = None
            for turn in row.get("turns", []):
                out[turn["user"]] = None
    return list(out)


def labelled(texts: list[str]) -> dict[str, str]:
    """A short label for each text: its first words and its length."""
    return {f"«{t[:40]}…» ({len(t)} chars)" if len(t) > 40 else f"«{t}»": t for t in texts}


def long_ordinary(questions: list[str], count: int = 20) -> dict[str, str]:
    """`count` texts of consecutive eval questions joined up to N characters."""
    out = {}
    step = max(1, len(questions) // count)
    for k in range(count):
        text, i = "", k * step
        while i < len(questions) and len(text) + len(questions[i]) + 1 <= N:
            text += questions[i] + " "
            i += 1
        out[f"eval questions from #{k * step}"] = text.strip()
    return out


def empty_caches() -> None:
    for cached in (tokens.lemma, tokens.delatinize, tokens.transliterate):
        cached.cache_clear()


@dataclass(frozen=True)
class Timing:
    read_ms: float
    plan_ms: float

    @property
    def total_ms(self) -> float:
        return self.read_ms + self.plan_ms


def parse_time(reader: Reader, catalog: Catalog, text: str, repeats: int, cold: bool) -> Timing:
    """Median over `repeats` of Reader.read and plan_calculation, CPU ms of this thread."""
    reads, plans = [], []
    for _ in range(repeats):
        if cold:
            empty_caches()
        start = time.thread_time()
        parsed = reader.read(text)
        middle = time.thread_time()
        plan_calculation(parsed, Params(), catalog)
        reads.append((middle - start) * 1000)
        plans.append((time.thread_time() - middle) * 1000)
    return Timing(statistics.median(reads), statistics.median(plans))


@dataclass(frozen=True)
class ClassFigures:
    name: str
    n: int
    median_ms: float
    p95_ms: float
    worst_ms: float
    worst: str
    plan_median_ms: float


def figures(name: str, timings: dict[str, Timing]) -> ClassFigures:
    totals = {k: t.total_ms for k, t in timings.items()}
    worst = max(totals, key=lambda k: totals[k])
    return ClassFigures(
        name=name,
        n=len(totals),
        median_ms=statistics.median(totals.values()),
        p95_ms=percentile(list(totals.values()), 95),
        worst_ms=totals[worst],
        worst=worst,
        plan_median_ms=statistics.median(t.plan_ms for t in timings.values()),
    )


def parse_run(
    reader: Reader,
    catalog: Catalog,
    classes: dict[str, dict[str, str]],
    repeats: int,
    cold: bool,
) -> list[ClassFigures]:
    out = []
    for name, texts in classes.items():
        timings = {k: parse_time(reader, catalog, t, repeats, cold) for k, t in texts.items()}
        out.append(figures(name, timings))
    return out


def print_table(mode: str, rows: list[ClassFigures]) -> dict[str, float]:
    print(f"\n{mode}: CPU ms per message (Reader.read + plan_calculation)")
    print("| class | n | median | p95 | worst | worst message | plan median |")
    print("|---|---:|---:|---:|---:|---|---:|")
    for r in rows:
        print(
            f"| {r.name} | {r.n} | {r.median_ms:.2f} | {r.p95_ms:.2f} | {r.worst_ms:.2f} | "
            f"{r.worst} | {r.plan_median_ms:.3f} |"
        )
    ordinary, long = rows[0], rows[1]
    hostile = max(rows[2:], key=lambda r: r.worst_ms)
    ratios = {
        "worst_ms": hostile.worst_ms,
        "worst_over_ordinary": hostile.worst_ms / ordinary.median_ms,
        "worst_over_ordinary_2000": hostile.worst_ms / long.median_ms,
    }
    print(
        f"worst: {hostile.worst} ({hostile.name}) {hostile.worst_ms:.2f} ms = "
        f"{ratios['worst_over_ordinary']:.1f} × an ordinary question's median "
        f"({ordinary.median_ms:.2f} ms), {ratios['worst_over_ordinary_2000']:.2f} × an ordinary "
        f"2 000-character text's ({long.median_ms:.2f} ms)"
    )
    return ratios


# ---------------------------------------------------------------- many clients over HTTP


def latencies(base: str, questions: Iterable[str]) -> list[float]:
    out = []
    with httpx.Client(timeout=120) as client:
        for q in questions:
            start = time.perf_counter()
            client.post(f"{base}/v1/chat", json={"message": q}).raise_for_status()
            out.append((time.perf_counter() - start) * 1000)
    return out


def under_load(
    base: str, clients: int, hostile: str, ordinary: list[str]
) -> tuple[list[float], int]:
    """Ordinary latencies while `clients` threads post `hostile` without pause; how many of the
    hostile requests were answered meanwhile."""
    stop = threading.Event()
    answered = [0] * clients

    def attack(i: int) -> None:
        with httpx.Client(timeout=120) as client:
            while not stop.is_set():
                if client.post(f"{base}/v1/chat", json={"message": hostile}).status_code < 500:
                    answered[i] += 1

    threads = [threading.Thread(target=attack, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    time.sleep(1.0)  # let the hostile requests fill the server first
    try:
        return latencies(base, ordinary), sum(answered)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=300)


def http_run(clients: int, hostile: str, long_text: str, ordinary: list[str]) -> None:
    print(f"\nHTTP, real `assistant serve`, {len(ordinary)} ordinary questions one at a time")
    print("| scenario | ordinary p50 ms | ordinary p95 ms | hostile requests answered |")
    print("|---|---:|---:|---:|")
    with server() as (_, base):
        latencies(base, ordinary[:5])  # warm
        scenarios: list[tuple[str, Callable[[], tuple[list[float], int]]]] = [
            ("alone", lambda: (latencies(base, ordinary), 0)),
            (
                f"{clients} clients: the hostile string",
                lambda: under_load(base, clients, hostile, ordinary),
            ),
            (
                f"{clients} clients: an ordinary 2 000-character text",
                lambda: under_load(base, clients, long_text, ordinary),
            ),
        ]
        for name, run in scenarios:
            started = time.perf_counter()
            ms, answered = run()
            elapsed = time.perf_counter() - started
            print(
                f"| {name} | {statistics.median(ms):.0f} | {percentile(ms, 95):.0f} | "
                f"{answered} in {elapsed:.0f} s |"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="parses per message (median kept)")
    ap.add_argument("--clients", type=int, default=0, help="HTTP clients sending the worst string")
    ap.add_argument("--questions", type=int, default=20, help="ordinary questions asked over HTTP")
    ap.add_argument("--hostile", default="", help="what the clients send (a label; default: worst)")
    ap.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = ap.parse_args()

    catalog = load_catalog(ROOT / "corpus")
    reader = Reader(catalog, terms=AliasMatcher(load_glossary(ROOT / "corpus")))
    sets = sorted(DATA.glob("*.jsonl"))
    questions = eval_questions(s for s in sets if s.name != ROBUSTNESS)
    classes = {
        "ordinary questions (eval sets)": labelled(questions),
        "ordinary, 2 000 characters": long_ordinary(eval_questions(DATA / n for n in IN_SCOPE)),
        **ADVERSARIAL,
        "robustness set (eval)": labelled(eval_questions([DATA / ROBUSTNESS])),
    }
    for q in questions:  # the warm caches of a service that has been answering for a while
        reader.read(q)
    report: dict[str, object] = {}
    runs = {}
    for mode, cold in (("warm", False), ("cold", True)):
        runs[mode] = parse_run(reader, catalog, classes, args.repeats, cold)
        report[mode] = {"classes": [vars(r) for r in runs[mode]], **print_table(mode, runs[mode])}
    if args.clients:
        worst_row = max(runs["warm"][2:], key=lambda r: r.worst_ms)
        label = args.hostile or worst_row.worst
        hostile = next(texts[label] for texts in classes.values() if label in texts)
        print(f"\nwhat the {args.clients} clients send: {label}")
        rnd = random.Random(23)
        ordinary = rnd.sample([q for q in questions if len(q) < 200], args.questions)
        long_text = next(iter(classes["ordinary, 2 000 characters"].values()))
        http_run(args.clients, hostile, long_text, ordinary)
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1), "utf-8")


if __name__ == "__main__":
    main()
