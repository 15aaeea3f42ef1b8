"""vLLM tier: start one real vLLM (CPU) server per session; skip cleanly when it is not set up.

Fixtures/helpers for other tier tests (the engine's included):
  vllm_server           session fixture → VLLMServer(base_url, model, api_key, …)
  vllm_server.settings(**overrides) → Settings pointed at the server
  vllm_server.kill() / .restart() / .alive
  start_vllm_server()   context manager: a dedicated server (≈1–2 min to start)
Tests here run only with `-m vllm` (else skipped: a plain `pytest` must not start vLLM).
Tests marked `vllm_destructive` (they kill the shared server) run last in the session.
Set VLLM_BASE_URL (+ VLLM_MODEL, VLLM_API_KEY) to test an already running server instead.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from assistant.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(os.environ.get("VLLM_VENV", ROOT / ".venv-vllm"))
CACHE_DIR = Path(
    os.environ.get("GLOSSARY_CACHE_DIR", Path.home() / ".cache" / "glossary-assistant")
)
MODEL_DIR = Path(os.environ.get("VLLM_MODEL_DIR", CACHE_DIR / "gemma3-270m-hf"))
LOG_DIR = ROOT / "test-output" / "vllm"
START_TIMEOUT_S = float(os.environ.get("VLLM_START_TIMEOUT_S", "420"))
SERVED_NAME = "gemma3-270m"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "vllm_destructive: kills the shared vLLM server; runs last")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The tier runs only when asked for (`-m vllm`, scripts/vllm/tier.sh): a plain `pytest`
    # of the main suite must not start a 2-minute vLLM server.
    if "vllm" not in (config.getoption("markexpr") or ""):
        skip = pytest.mark.skip(reason="vLLM tier: run `pytest -m vllm` or scripts/vllm/tier.sh")
        for item in items:
            if item.get_closest_marker("vllm") is not None:
                item.add_marker(skip)
    items.sort(key=lambda item: item.get_closest_marker("vllm_destructive") is not None)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _why_not_available() -> str | None:
    if not (VENV / "bin" / "python").exists():
        return f"vLLM tier not set up: {VENV} is absent (run: bash scripts/vllm/tier.sh)"
    if not (MODEL_DIR / "config.json").exists():
        return f"vLLM model not converted: {MODEL_DIR} (run: bash scripts/vllm/tier.sh)"
    return None


@dataclass
class VLLMServer:
    """A vLLM process (or an external server) the tests talk to."""

    base_url: str
    model: str
    api_key: str
    port: int
    log_path: Path | None = None
    proc: subprocess.Popen[bytes] | None = None
    started_s: float = 0.0  # wall time of the last start
    _log: Any = field(default=None, repr=False)

    def settings(self, **overrides: Any) -> Settings:
        fields: dict[str, Any] = {
            "llm_base_url": self.base_url,
            "llm_model": self.model,
            "llm_api_key": self.api_key,
            "llm_timeout_s": 60.0,
        }
        fields.update(overrides)
        return Settings(**fields)

    @property
    def alive(self) -> bool:
        try:
            headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
            return (
                httpx.get(f"{self.base_url}/models", headers=headers, timeout=2).status_code == 200
            )
        except httpx.HTTPError:
            return False

    def start(self) -> None:
        assert self.log_path is not None, "external server: cannot start"
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path.open("ab")
        env = {**os.environ, "VLLM_API_KEY": self.api_key, "VLLM_SERVED_NAME": self.model}
        began = time.monotonic()
        self.proc = subprocess.Popen(
            ["bash", str(ROOT / "scripts" / "vllm" / "start.sh"), str(self.port)],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
        self._wait_ready()
        self.started_s = time.monotonic() - began

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"vLLM exited ({self.proc.returncode}):\n{self.log_tail()}")
            if self.alive:
                return
            time.sleep(1.0)
        self.kill()
        raise RuntimeError(f"vLLM not ready after {START_TIMEOUT_S:.0f} s:\n{self.log_tail()}")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Kill the whole process group (API server + engine core) at once."""
        if self.proc is None or self.proc.poll() is not None:
            return
        with suppress(ProcessLookupError):
            os.killpg(self.proc.pid, sig)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        self.kill(signal.SIGTERM)
        if self._log is not None:
            self._log.close()

    def restart(self) -> None:
        self.kill()
        self.start()

    def log_tail(self, lines: int = 40) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


@contextmanager
def start_vllm_server(name: str = "dedicated") -> Iterator[VLLMServer]:
    """A dedicated vLLM server on a free port for the `with` block."""
    reason = _why_not_available()
    if reason:
        pytest.skip(reason)
    port = _free_port()
    server = VLLMServer(
        base_url=f"http://127.0.0.1:{port}/v1",
        model=SERVED_NAME,
        api_key=secrets.token_urlsafe(16),
        port=port,
        log_path=LOG_DIR / f"{name}-{port}.log",
    )
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def vllm_server() -> Iterator[VLLMServer]:
    external = os.environ.get("VLLM_BASE_URL")
    if external:
        yield VLLMServer(
            base_url=external.rstrip("/"),
            model=os.environ.get("VLLM_MODEL", SERVED_NAME),
            api_key=os.environ.get("VLLM_API_KEY", ""),
            port=0,
        )
        return
    with start_vllm_server("session") as server:
        print(f"\nvLLM ready at {server.base_url} in {server.started_s:.0f} s")
        yield server
