"""Bounded console benchmark: N stored messages → p50/p95 of every console endpoint and of a
full export, through a real `assistant serve` on loopback.

    .venv/bin/python eval/bench_console.py                       # 100 000 messages, SQLite
    .venv/bin/python eval/bench_console.py --database-url postgresql://…   # PostgreSQL (emptied!)

1. Every distinct question of eval/data/retrieval.jsonl and eval/data/out_of_scope.jsonl is
   answered once by the real engine; the history is then written as the service writes it (the
   same columns and facts, storage/facts.py) in one bulk transaction: N/2 exchanges over 90
   days, channels 50 % widget / 25 % Telegram / 10 % agent helper / 15 % API, conversations
   of 1–6 exchanges, 8 % of answers rated (a third «не помогло», with comments), answer
   times 20–2 000 ms (one in ten 2–9 s).
2. `assistant serve` starts on that database (console key set, no rate limit), the bench signs
   in and times each endpoint `--repeat` times (the content-gap endpoint also cold: its first
   call embeds the distinct gap questions and caches them in the database).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
from benchlib import percentile

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.schema import Answer  # noqa: E402
from assistant.settings import Settings  # noqa: E402
from assistant.storage.facts import fold, outcome_of  # noqa: E402

# the same columns, the same facts as storage/base.py + storage/facts.py write

KEY = "bench-console-key"
CHANNELS = (("web", 0.50), ("telegram", 0.25), ("agent", 0.10), ("openai", 0.15))
COMMENTS = ("не то", "нужны цены", "слишком длинно", "не ответил на вопрос", "нет про мою карту")


def distinct_questions() -> list[str]:
    out: list[str] = []
    for name in ("retrieval.jsonl", "out_of_scope.jsonl"):
        for line in (ROOT / "eval" / "data" / name).read_text("utf-8").splitlines():
            if line.strip():
                q = json.loads(line)["question"]
                if q not in out:
                    out.append(q)
    return out


def answers_for(questions: list[str], settings: Settings) -> dict[str, Answer]:
    from assistant.pipeline import build_pipeline

    pipeline = build_pipeline(settings)
    return {q: pipeline.answer(q, []) for q in questions}


COLUMNS = (
    "id",
    "conversation_id",
    "role",
    "content",
    "params",
    "slugs",
    "reply_to",
    "answer",
    "meta",
    "route",
    "refused",
    "confidence",
    "handoff",
    "created_at",
    "channel",
    "search_text",
    "understood",
    "outcome",
    "generator",
    "fallback",
    "engine_ms",
    "total_ms",
    "cited",
)  # the columns storage/base.py and storage/facts.py write, with the same values


def _question(qid: str, cid: str, text: str, at: float, channel: str) -> tuple[Any, ...]:
    row = dict.fromkeys(COLUMNS)
    row.update(
        id=qid,
        conversation_id=cid,
        role="user",
        content=text,
        params="{}",
        slugs="[]",
        refused=0,
        handoff=0,
        created_at=at,
        channel=channel,
        search_text=fold(text),
    )
    return tuple(row.values())


def _answer(
    aid: str, cid: str, qid: str, a: Answer, at: float, channel: str, total_ms: float
) -> tuple[Any, ...]:
    meta, cited = a.meta, json.dumps([c.slug for c in a.citations])
    row = dict.fromkeys(COLUMNS)
    row.update(
        id=aid,
        conversation_id=cid,
        role="assistant",
        content=a.answer,
        params="{}",
        slugs=cited,
        reply_to=qid,
        answer=a.model_dump_json(),
        meta=meta.model_dump_json(),
        route=a.route,
        refused=int(a.refused),
        confidence=meta.confidence,
        handoff=int(meta.handoff),
        created_at=at + total_ms / 1000,
        channel=channel,
        search_text="",
        understood=meta.question,
        outcome=outcome_of(a.route, a.refused, meta.handoff_reason),
        generator=a.generator,
        fallback=meta.fallback_reason,
        engine_ms=meta.latency_ms,
        total_ms=total_ms,
        cited=cited,
    )
    return tuple(row.values())


def _rows(
    answers: dict[str, Answer], messages: int, rng: random.Random, now: float
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    conversations, rows, feedback = [], [], []
    questions = list(answers)
    exchanges = messages // 2
    channels = [name for name, _ in CHANNELS]
    weights = [share for _, share in CHANNELS]
    while exchanges > 0:
        channel = rng.choices(channels, weights)[0]
        cid = uuid.uuid4().hex
        start = at = now - rng.uniform(0, 90 * 86400)
        external = str(rng.randrange(10**6)) if channel == "telegram" else None
        for _ in range(min(exchanges, rng.randint(1, 6))):
            exchanges -= 1
            q = rng.choice(questions)
            total_ms = rng.uniform(20, 2000) if rng.random() < 0.9 else rng.uniform(2000, 9000)
            qid, aid = uuid.uuid4().hex, uuid.uuid4().hex
            rows.append(_question(qid, cid, q, at, channel))
            rows.append(_answer(aid, cid, qid, answers[q], at, channel, total_ms))
            if rng.random() < 0.08:
                down = rng.random() < 1 / 3
                comment = rng.choice(COMMENTS) if down else ""
                answered = at + total_ms / 1000
                feedback.append(
                    (aid, -1 if down else 1, comment, answered + 30, cid, channel, answered)
                )
            at += total_ms / 1000 + rng.uniform(20, 600)
        last_at = rows[-1][COLUMNS.index("created_at")]  # the conversation's last message
        conversations.append((cid, channel, external, 0, start, last_at))
    return conversations, rows, feedback


def seed(settings: Settings, messages: int, seed_value: int = 22) -> float:
    """Write the history; returns seconds spent writing it."""
    from assistant.storage import open_repository

    answers = answers_for(distinct_questions(), settings)
    conversations, rows, feedback = _rows(answers, messages, random.Random(seed_value), time.time())
    repo = open_repository(settings)
    start = time.perf_counter()
    with repo._tx() as cur:  # type: ignore[attr-defined]
        cur.executemany(
            "INSERT INTO conversations (id, channel, external_id, active, created_at, last_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            conversations,
        )
        cur.executemany(
            f"INSERT INTO messages ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
            rows,
        )
        cur.executemany(
            "INSERT INTO feedback (message_id, score, comment, created_at, conversation_id,"
            " channel, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            feedback,
        )
    repo.close()
    if settings.database_url.startswith("postgres"):
        import psycopg

        # what autovacuum does after a bulk load: statistics, and the visibility map that
        # lets the console's index-only scans skip the table
        with psycopg.connect(settings.database_url, autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")
    return time.perf_counter() - start


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "assistant"),
            "serve",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    server.kill()
    raise SystemExit("assistant serve did not become ready")


FIRST_BYTES: list[float] = []  # exports: milliseconds to the first chunk


def timed(
    client: httpx.Client, path: str, params: dict[str, str], repeat: int
) -> tuple[list[float], int]:
    """Milliseconds to the last byte of each of `repeat` calls, and the body's size."""
    out, size = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        with client.stream("GET", path, params=params) as r:
            size, first = 0, None
            for chunk in r.iter_bytes():
                first = first or time.perf_counter()
                size += len(chunk)
            if r.status_code != 200:
                raise SystemExit(f"{path} {params}: HTTP {r.status_code}")
        out.append((time.perf_counter() - start) * 1000)
        if "export" in path and first is not None:
            FIRST_BYTES.append((first - start) * 1000)
    return out, size


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--export-repeat", type=int, default=5)
    ap.add_argument("--database-url", default="", help="postgresql://… (its tables are dropped)")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-console-"))
    env = {
        **os.environ,
        "ASSISTANT_DB_PATH": str(tmp / "db.sqlite3"),
        "ASSISTANT_DATABASE_URL": args.database_url,
        "ASSISTANT_ADMIN_API_KEY": KEY,
        "ASSISTANT_RATE_LIMIT_PER_MINUTE": "0",
        "ASSISTANT_RETENTION_DAYS": "0",
    }
    if args.database_url:
        import psycopg

        with psycopg.connect(args.database_url, autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS feedback, messages, conversations, gap_vectors")
    settings = Settings(db_path=tmp / "db.sqlite3", database_url=args.database_url, _env_file=None)  # type: ignore[call-arg]
    wrote = seed(settings, args.messages)
    port = free_port()
    server = serve(env, port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
            client.post("/admin/api/session", json={"key": KEY}).raise_for_status()
            everything = {"from": _day(-89), "to": _day(0)}
            month = {"from": _day(-29), "to": _day(0)}
            first = client.get("/admin/api/conversations", params=month).json()["items"][0]["id"]
            cold, _ = timed(client, "/admin/api/gaps", everything, 1)
            cases = [
                ("GET /admin/api/session", "/admin/api/session", {}),
                ("GET /admin/api/meta", "/admin/api/meta", {}),
                ("overview, 30 days", "/admin/api/overview", month),
                ("overview, 90 days (all)", "/admin/api/overview", everything),
                (
                    "overview, 90 days, Telegram",
                    "/admin/api/overview",
                    {**everything, "channel": "telegram"},
                ),
                ("gaps, 90 days (cached vectors)", "/admin/api/gaps", everything),
                ("conversations, 30 days", "/admin/api/conversations", month),
                (
                    "conversations, 90 days, page 20",
                    "/admin/api/conversations",
                    {**everything, "offset": "950"},
                ),
                (
                    "conversations, search «h100»",
                    "/admin/api/conversations",
                    {**everything, "q": "h100"},
                ),
                (
                    "conversations, declined + «не помогло»",
                    "/admin/api/conversations",
                    {**everything, "outcome": "declined", "feedback": "down"},
                ),
                ("one conversation", f"/admin/api/conversations/{first}", {}),
            ]
            results = [
                (name, *timed(client, path, params, args.repeat)) for name, path, params in cases
            ]
            for fmt in ("csv", "jsonl"):
                measured = timed(
                    client, "/admin/api/export", {**everything, "format": fmt}, args.export_repeat
                )
                results.append((f"export {fmt.upper()}, all {args.messages:,} messages", *measured))
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(tmp, ignore_errors=True)  # ~300 MB of SQLite
    backend = "PostgreSQL" if args.database_url else "SQLite"
    print(
        f"\n{backend}, {args.messages:,} messages written in {wrote:.1f} s; "
        f"gaps cold (first call, embeds and caches) {cold[0]:.0f} ms\n"
    )
    print("| endpoint | n | p50 ms | p95 ms | bytes |")
    print("|---|---|---|---|---|")
    for name, ms, size in results:
        p50, p95 = percentile(ms, 50), percentile(ms, 95)
        print(f"| {name} | {len(ms)} | {p50:.1f} | {p95:.1f} | {size:,} |")
    print(
        f"\nexport, first byte: p50 {percentile(FIRST_BYTES, 50):.1f} ms,"
        f" p95 {percentile(FIRST_BYTES, 95):.1f} ms (n={len(FIRST_BYTES)})"
    )


def _day(offset: int) -> str:
    """A day relative to today in the console's time zone (its default, Moscow)."""
    today = datetime.now(ZoneInfo(Settings(_env_file=None).console_timezone)).date()  # type: ignore[call-arg]
    return (today + timedelta(days=offset)).isoformat()


if __name__ == "__main__":
    main()
