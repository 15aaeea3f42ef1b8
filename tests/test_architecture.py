"""The import structure docs/architecture.md promises: no cycles between files or packages, the
calculators import only corpus/ and their own modules, the engine reads no text itself."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from assistant.settings import ROOT

PACKAGE = ROOT / "assistant"


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _resolve(name: str) -> str:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def _imported(name: str, path: Path) -> Iterator[str]:
    """Every assistant module `name` imports, anywhere in the file (a late import counts too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = node.module
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], node.module])
            targets = [base, *(f"{base}.{a.name}" for a in node.names)]
        else:
            continue
        for target in targets:
            resolved = _resolve(target) if target.startswith("assistant") else ""
            if resolved and resolved != name and not resolved.startswith(name + "."):
                yield resolved


def _graph() -> dict[str, set[str]]:
    return {name: set(_imported(name, path)) for name, path in MODULES.items()}


def _stage(module: str) -> str:
    """assistant.answer.guard → assistant.answer; assistant.engine → assistant.engine."""
    return ".".join(module.split(".")[:2])


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as e:
        return list(e.args[1])
    return []


def test_no_import_cycle_between_files() -> None:
    assert _cycle(_graph()) == []


def test_no_import_cycle_between_packages() -> None:
    stages: dict[str, set[str]] = {}
    for module, imported in _graph().items():
        own = _stage(module)
        stages.setdefault(own, set()).update(s for s in map(_stage, imported) if s != own)
    assert _cycle(stages) == []


def test_calculators_import_only_the_corpus() -> None:
    allowed = {"assistant.calculators", "assistant.corpus", "assistant.errors"}
    outside = {
        f"{module} → {target}"
        for module, imported in _graph().items()
        if module.startswith("assistant.calculators")
        for target in imported
        if _stage(target) not in allowed
    }
    assert outside == set()


def test_the_engine_reads_no_text_itself() -> None:
    source = (PACKAGE / "engine.py").read_text(encoding="utf-8")
    imports = {
        alias.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    assert "re" not in imports
