"""Test plumbing: one real pipeline per run, apps on temp databases, a live uvicorn server."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.settings import Settings

if TYPE_CHECKING:
    from fastapi import FastAPI

    from assistant.api.deps import ServedPipeline


def app_settings(base: Settings, db_path: Path, **overrides: Any) -> Settings:
    return base.model_copy(update={"db_path": db_path, "database_url": "", **overrides})


def make_app(pipeline: ServedPipeline, settings: Settings) -> FastAPI:
    from assistant.api import create_app
    from assistant.storage import open_repository

    return create_app(pipeline, settings, open_repository(settings))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def live_server(app: FastAPI) -> Iterator[str]:
    """Run `app` under uvicorn on 127.0.0.1 in a thread; yields its base URL."""
    import uvicorn

    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
