"""Built wheel → a non-editable install that answers from its packaged corpus and prompts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.settings import BUNDLED, ROOT, Settings


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )


def _clean_env(site: Path) -> dict[str, str]:
    """The test's environment with no ASSISTANT_* and only the installed copy on the path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    env["PYTHONPATH"] = str(site)
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this checkout, installed without dependencies into a fresh target
    (the dependencies are the ones this interpreter already has); nothing is downloaded."""
    tmp = tmp_path_factory.mktemp("wheel")
    pip = [sys.executable, "-m", "pip", "--isolated", "--no-input"]
    offline = ["--no-deps", "--no-index", "--no-build-isolation"]
    built = _run(
        [*pip, "wheel", *offline, "-w", str(tmp / "dist"), str(ROOT)], tmp, dict(os.environ)
    )
    assert built.returncode == 0, built.stdout + built.stderr
    [wheel] = (tmp / "dist").glob("glossary_assistant-*.whl")
    target = tmp / "site"
    installed = _run(
        [*pip, "install", *offline, "--target", str(target), str(wheel)], tmp, dict(os.environ)
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return target


def test_source_checkout_reads_the_top_level_folders() -> None:
    assert not BUNDLED.exists()
    s = Settings(_env_file=None)  # type: ignore[call-arg]
    assert (s.corpus_dir, s.prompts_dir) == (ROOT / "corpus", ROOT / "prompts")
    assert (s.index_dir, s.db_path) == (ROOT / "index", ROOT / "var" / "assistant.sqlite3")


@pytest.mark.slow
def test_installed_copy_answers_from_its_packaged_data(installed: Path, tmp_path: Path) -> None:
    empty = tmp_path / "cwd"
    empty.mkdir()
    env = {
        **_clean_env(installed),
        "ASSISTANT_INDEX_DIR": str(tmp_path / "index"),
        "ASSISTANT_DB_PATH": str(tmp_path / "var" / "assistant.sqlite3"),
    }
    result = _run(
        [sys.executable, "-m", "assistant", "ask", "--json", "что такое nvlink"], empty, env
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert "nvlink" in [c["slug"] for c in answer["citations"]]
    assert "NVLink" in answer["answer"]
    assert (tmp_path / "index").is_dir() and not list(empty.iterdir())


@pytest.mark.slow
def test_installed_defaults_are_packaged_and_writable(installed: Path, tmp_path: Path) -> None:
    """Corpus, prompts and web pages come from the installed package; the index goes to the
    user's cache and the database to the user's data folder, not into site-packages."""
    probe = (
        "import json, assistant\n"
        "from assistant.api.pages import WEB_DIR\n"
        "from assistant.settings import Settings\n"
        "s = Settings()\n"
        "print(json.dumps({'file': assistant.__file__, 'corpus': str(s.corpus_dir),\n"
        "  'prompts': str(s.prompts_dir), 'index': str(s.index_dir), 'db': str(s.db_path),\n"
        "  'web': str(WEB_DIR)}))\n"
    )
    env = {
        **_clean_env(installed),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    result = _run([sys.executable, "-c", probe], tmp_path, env)
    assert result.returncode == 0, result.stderr
    paths = {k: Path(v) for k, v in json.loads(result.stdout).items()}
    package = installed / "assistant"
    assert paths["file"] == package / "__init__.py"
    assert not paths["file"].is_relative_to(ROOT)
    assert paths["corpus"] == package / "_bundled" / "corpus"
    assert (paths["corpus"] / "terms" / "nvlink.yaml").is_file()
    assert paths["prompts"] == package / "_bundled" / "prompts"
    assert sorted(p.name for p in paths["prompts"].rglob("*.j2")) == sorted(
        p.name for p in (ROOT / "prompts").rglob("*.j2")
    )
    assert paths["web"] == package / "web" and (paths["web"] / "widget.js").is_file()
    assert paths["index"] == tmp_path / "cache" / "glossary-assistant" / "index"
    assert paths["db"] == tmp_path / "data" / "glossary-assistant" / "assistant.sqlite3"
