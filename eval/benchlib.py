"""Helpers the benchmark scripts share: the question sets, the percentile they report, timing,
the load on the machine while a measurement ran, the machine itself, HNSW recall, and a real
`assistant serve` on a free loopback port (`with server() as (process, base): …`).

The scripts run as `python eval/bench_*.py`, so this folder is on sys.path and
`from benchlib import …` works without installing anything. Nothing heavy is imported here:
the LLM and HTTP benchmarks use it without numpy, FAISS or torch.

Every measurement records the 1-minute load average and how many cores *other* processes kept
busy while it ran (from /proc/stat minus our own CPU time): `measured` repeats a measurement
taken while other processes used more than --max-others cores (up to --retries times) and keeps
the least disturbed attempt.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import httpx

if TYPE_CHECKING:
    import numpy as np

    from assistant.corpus.glossary import Glossary
    from assistant.embedding.model import Embedder
    from assistant.search.indexing import SearchIndex
    from assistant.search.retrieval import HybridRetriever
    from assistant.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
RETRIEVAL = ROOT / "eval" / "data" / "retrieval.jsonl"
QUESTION = {"message": "что такое NVLink?"}  # what a started server is warmed with
T = TypeVar("T")


def questions(path: Path = RETRIEVAL) -> list[str]:
    """The `question` field of every row of a JSONL evaluation set, in file order."""
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    return [r["question"] for r in rows]


def measured_questions(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """(warm-up, measured) questions of --dataset: the first --warmup, then --queries (the set
    repeated when it is shorter)."""
    qs = questions(args.dataset)
    need = args.warmup + args.queries
    if len(qs) < need:
        qs = (qs * (need // len(qs) + 1))[:need]
    return qs[: args.warmup], qs[args.warmup : need]


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile, q in 0–100; NaN for no values."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def loadavg() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def _busy_jiffies() -> int:
    """Non-idle CPU time of the whole machine (USER_HZ ticks)."""
    parts = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    vals = [int(v) for v in parts[:8]]
    idle = vals[3] + vals[4]  # idle + iowait
    return sum(vals) - idle


def _own_cpu_s() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


@dataclass
class Load:
    """Contention during one measurement."""

    load1_start: float
    load1_end: float
    others_cores: float  # average cores kept busy by other processes
    wall_s: float

    def short(self) -> str:
        return load_text(self.__dict__)


class Probe:
    def __enter__(self) -> Probe:
        self.l0 = loadavg()
        self.j0 = _busy_jiffies()
        self.c0 = _own_cpu_s()
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        wall = time.perf_counter() - self.t0
        hz = os.sysconf("SC_CLK_TCK")
        busy = (_busy_jiffies() - self.j0) / hz
        own = _own_cpu_s() - self.c0
        others = max(0.0, busy - own) / max(wall, 1e-9)
        self.load = Load(self.l0, loadavg(), round(others, 2), round(wall, 2))


def measured(
    label: str, fn: Callable[[], T], args: argparse.Namespace, retries: int | None = None
) -> tuple[T, Load, int]:
    """Run fn; repeat while other processes were busy; keep the least disturbed attempt."""
    n = args.retries if retries is None else retries
    best: tuple[T, Load] | None = None
    attempts = 0
    for attempt in range(n + 1):
        attempts += 1
        with Probe() as p:
            out = fn()
        if best is None or p.load.others_cores < best[1].others_cores:
            best = (out, p.load)
        if p.load.others_cores <= args.max_others or attempt == n:
            break
        log(f"  [{label}: other processes used {p.load.others_cores:.2f} cores — repeating]")
    assert best is not None
    return best[0], best[1], attempts


def machine() -> dict[str, Any]:
    cpu = "?"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    mem_kb = 0
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            mem_kb = int(line.split()[1])
    versions = {}
    for dist in ("torch", "faiss-cpu", "sentence-transformers", "transformers", "numpy", "scipy"):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = "absent"
    import faiss
    import torch

    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "ram_gib": round(mem_kb / 2**20, 1),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "versions": versions,
        "torch_threads": torch.get_num_threads(),
        "faiss_omp_threads": faiss.omp_get_max_threads(),
    }


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def summary(ms: Sequence[float]) -> dict[str, float]:
    return {
        "p50": round(statistics.median(ms), 3),
        "p95": round(percentile(ms, 95), 3),
        "mean": round(statistics.fmean(ms), 3),
        "n": len(ms),
    }


def timed(fn: Callable[[], T]) -> tuple[T, float]:
    t = time.perf_counter()
    out = fn()
    return out, (time.perf_counter() - t) * 1000


@dataclass(frozen=True)
class Real:
    """The real glossary, embedding model, index and retriever the retrieval benchmarks run on."""

    settings: Settings
    glossary: Glossary
    embedder: Embedder
    index: SearchIndex
    retriever: HybridRetriever
    index_dir: Path


def open_real() -> Real:
    """The index `assistant index build` made, as it is: a stale one is an error, never rebuilt."""
    from assistant.corpus.glossary import load_glossary
    from assistant.embedding.model import load_embedder
    from assistant.search.indexing import open_index
    from assistant.search.retrieval import HybridRetriever
    from assistant.settings import Settings

    settings = Settings(auto_rebuild_index=False)
    glossary = load_glossary(settings.corpus_dir)
    embedder = load_embedder(settings)
    index, _ = open_index(glossary, embedder, settings.index_dir, auto_rebuild=False)
    retriever = HybridRetriever(glossary, index, embedder)
    return Real(settings, glossary, embedder, index, retriever, settings.index_dir)


@dataclass
class Report:
    data: dict[str, Any] = field(default_factory=dict)
    t0: float = field(default_factory=time.perf_counter)

    def put(self, key: str, value: Any) -> None:
        self.data[key] = value


def _sizes(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


# The retrieval benchmarks' flags, in the order --help lists them; each script takes the ones it
# reads, bench_retrieval.py (all five in one run) takes them all.
FLAGS: dict[str, dict[str, Any]] = {
    "dataset": {"type": Path, "default": RETRIEVAL},
    "queries": {"type": int, "default": 200, "help": "measured queries (default 200)"},
    "warmup": {"type": int, "default": 10, "help": "warm-up queries (default 10)"},
    "cold-runs": {"type": int, "default": 3, "help": "CLI cold starts (median)"},
    "scale": {"type": int, "default": 100_000, "help": "synthetic corpus size (chunks)"},
    "sizes": {
        "type": _sizes,
        "default": [10_000, 30_000, 50_000, 100_000],
        "help": "sizes for the exact-search sweep (comma-separated)",
    },
    "sample": {"type": int, "default": 256, "help": "real chunks for passage throughput"},
    "noise": {"type": float, "default": 0.5, "help": "query noise norm (unit vectors)"},
    "e5-noise": {"type": float, "default": 0.2, "help": "noise norm, e5-like corpus"},
    "zipf": {"type": float, "default": 1.0, "help": "Zipf exponent for synthetic tokens"},
    "doc-len": {"type": int, "default": 40, "help": "mean tokens per synthetic chunk"},
    "seed": {"type": int, "default": 0},
    "max-others": {
        "type": float,
        "default": 0.3,
        "help": "repeat a measurement if other processes used more cores than this",
    },
    "retries": {"type": int, "default": 2},
    "quick": {"action": "store_true", "help": "small run: 50 queries, N=20000, 1 cold start"},
    "skip-cold": {"action": "store_true"},
    "skip-scale": {"action": "store_true"},
    "json": {"type": str, "default": None, "help": "write all numbers as JSON ('-' = stdout)"},
}
COMMON = ("max-others", "retries", "quick", "json")
QUICK = {"queries": 50, "cold_runs": 1, "scale": 20_000, "sizes": [5_000, 10_000, 20_000]}


def parse(doc: str | None, *names: str) -> argparse.Namespace:
    """The command line of a benchmark that reads these flags (and the common ones)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawTextHelpFormatter)
    for name, options in FLAGS.items():
        if name in names or name in COMMON:
            ap.add_argument(f"--{name}", **options)
    args = ap.parse_args()
    if args.quick:
        for key, value in QUICK.items():
            if hasattr(args, key):
                setattr(args, key, value)
        args.retries = 0
    return args


def new_report(args: argparse.Namespace) -> Report:
    """A report that opens with the machine, the flags and the start time."""
    rep = Report()
    rep.put("machine", machine())
    rep.put("args", {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()})
    rep.put("started", time.strftime("%Y-%m-%d %H:%M:%S"))
    rep.t0 = time.perf_counter()
    return rep


def finish(rep: Report, args: argparse.Namespace, lines: list[str]) -> None:
    """Print the machine line, the benchmarks' lines and the total time; --json the numbers."""
    rep.put("total_s", round(time.perf_counter() - rep.t0, 1))
    m = rep.data["machine"]
    head = (
        f"Machine: {m['nproc']} cores ({m['cpu']}), {m['ram_gib']} GiB RAM, Python {m['python']}, "
        + ", ".join(f"{k} {v}" for k, v in m["versions"].items())
    )
    print("\n".join([head, *lines]))
    print(f"\nTotal {rep.data['total_s']:.0f} s")
    if args.json == "-":
        print(json.dumps(rep.data, ensure_ascii=False, indent=2))
    elif args.json:
        Path(args.json).write_text(json.dumps(rep.data, ensure_ascii=False, indent=2), "utf-8")


def recall_at(exact: np.ndarray, approx: np.ndarray, k: int) -> float:
    hits = sum(len(set(e[:k]) & set(a[:k])) for e, a in zip(exact, approx, strict=True))
    return hits / (k * len(exact))


def ef_sweep(index: Any, qvecs: np.ndarray, exact10: np.ndarray, k_app: int) -> list[dict]:
    """HNSW recall@10 and single-query latency (k as the app asks) for a few efSearch values."""
    out = []
    for ef in (64, 128, 256):
        index.hnsw.efSearch = ef
        _, ids = index.search(qvecs, 10)
        ms = [timed(lambda q=q: index.search(q.reshape(1, -1), k_app))[1] for q in qvecs]
        out.append(
            {
                "ef_search": ef,
                "recall_at_10": round(recall_at(exact10, ids, 10), 4),
                "recall_at_1": round(recall_at(exact10, ids, 1), 4),
                "ms": summary(ms),
                "load1": loadavg(),
            }
        )
    index.hnsw.efSearch = 64
    return out


def load_text(d: dict[str, Any]) -> str:
    return f"load {d['load1_start']:.2f}→{d['load1_end']:.2f}, others {d['others_cores']:.2f} cores"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(nofile: int | None = None) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    port = free_port()
    db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    env = {
        **os.environ,
        "ASSISTANT_DB_PATH": str(db),
        "ASSISTANT_DATABASE_URL": "",
        "ASSISTANT_RATE_LIMIT_PER_MINUTE": "0",
        "ASSISTANT_LLM_BASE_URL": "",
    }

    def limit() -> None:
        if nofile:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    process = subprocess.Popen(
        [sys.executable, "-m", "assistant", "serve", "--port", str(port), "--log-level", "error"],
        cwd=ROOT / "eval",
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=limit,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while True:
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            raise SystemExit("the server did not start")
        time.sleep(0.2)
    httpx.post(f"{base}/v1/chat", json=QUESTION, timeout=30)  # warm
    try:
        yield process, base
    finally:
        process.terminate()
        process.wait(timeout=30)
