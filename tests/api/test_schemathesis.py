"""The schemathesis gate: `st run --checks all` (plus tests/api/schemathesis_hooks.py) against
the real server with the real engine, fixed seed, a few dozen examples per operation — 0
failures. Rate limits are off here (they have their own tests); the body limit is on."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from assistant.settings import ROOT
from tests.api.live import app_settings, live_server, make_app

HERE = Path(__file__).resolve().parent
SEED = 42
EXAMPLES = 30
OPERATIONS = 12  # every route in the document


@pytest.mark.slow
def test_schemathesis_finds_nothing(pipeline: Any, settings: Any, tmp_path: Path) -> None:
    s = app_settings(
        settings,
        tmp_path / "gate.sqlite3",
        agent_api_key=SecretStr("gate-key"),
        rate_limit_per_minute=0,
        feedback_rate_limit_per_minute=0,
        agent_rate_limit_per_minute=0,
        agent_auth_failures=0,  # the ignored_auth check sends wrong keys on purpose
    )
    with live_server(make_app(pipeline, s)) as base:
        run = subprocess.run(
            [
                str(Path(sys.executable).parent / "st"),
                "--config-file",
                str(HERE / "schemathesis.toml"),
                "run",
                f"{base}/openapi.json",
                "--checks",
                "all",
                "--seed",
                str(SEED),
                "--max-examples",
                str(EXAMPLES),
                "--workers",
                "1",
                "--header",
                "X-API-Key: gate-key",
                "--generation-database",
                "none",
                "--no-color",
            ],
            cwd=tmp_path,  # reports and caches stay out of the repository
            env={"PYTHONPATH": str(ROOT), "PATH": str(Path(sys.executable).parent)},
            capture_output=True,
            text=True,
            timeout=600,
        )
    out = run.stdout + run.stderr
    summary = out[out.rfind("SUMMARY") :]
    assert run.returncode == 0, out[-6000:]
    assert f"Tested: {OPERATIONS}" in summary, summary
    generated = re.search(r"(\d+) generated, (\d+) passed", summary)
    assert generated and generated[1] == generated[2], summary
    assert int(generated[1]) >= OPERATIONS * 10, summary  # a real run, not a skipped one
    print(summary)  # the figures, for `pytest -s`
