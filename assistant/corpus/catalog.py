"""corpus/{gpus,models,prices}.yaml → validated, cached catalogue objects (or CorpusError).

    gpus() -> dict[str, Gpu]            keyed by id, e.g. "h100-sxm"
    models() -> dict[str, ModelArch]    keyed by id, e.g. "llama-3-70b"
    prices() -> Prices                  730 h/month, egress allowances, example prices
    find_gpu(name) / find_model(name)   id or alias → record (None when unknown)

Every problem in a file is reported as a CorpusProblem(file, record, field, message).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from assistant.errors import CorpusError, CorpusProblem


class Gpu(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list)
    vendor: str
    architecture: str
    memory_gb: float = Field(gt=0, le=10_000)
    memory_type: str
    bandwidth_tbs: float = Field(gt=0, le=100)
    bf16_tflops: float | None = Field(default=None, gt=0)
    fp8_tflops: float | None = Field(default=None, gt=0)
    fp4_tflops: float | None = Field(default=None, gt=0)
    fp4_support: bool
    tdp_w: float | None = Field(default=None, gt=0, le=5_000)
    nvlink: bool
    interconnect: str
    form_factor: str
    sources: dict[str, str]


class ModelArch(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list)
    params_b: float = Field(gt=0, le=100_000)
    active_b: float | None = Field(default=None, gt=0)
    layers: int = Field(gt=0, le=1_000)
    heads: int = Field(gt=0, le=1_024)
    kv_heads: int = Field(gt=0, le=1_024)
    head_dim: int = Field(gt=0, le=4_096)
    kv_latent_dim: int | None = Field(default=None, gt=0)
    source: str = Field(min_length=1)


class Egress(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    single_gpu_tb_month: float = Field(ge=0)
    server_8gpu_tb_month: float = Field(ge=0)
    fee_per_gb: float = Field(ge=0)
    fair_use: bool


class PriceExample(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    gpu: str
    price_month_usd: float = Field(gt=0)
    example: bool
    source: str


class Prices(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int
    currency: str
    hours_per_month: float = Field(gt=0, le=744)
    egress: Egress
    examples: list[PriceExample]

    def example_month(self, gpu_id: str) -> PriceExample | None:
        return next((p for p in self.examples if p.gpu == gpu_id), None)


@lru_cache(maxsize=1)
def corpus_dir() -> Path:
    """The configured corpus folder, read once (building Settings costs ~3 ms per call)."""
    from assistant.settings import load_settings

    return load_settings().corpus_dir


def _read_yaml(path: Path) -> Any:
    import yaml

    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CorpusError([CorpusProblem(path.name, "-", "-", "файл не найден")]) from None
    except yaml.YAMLError as e:
        raise CorpusError([CorpusProblem(path.name, "-", "-", f"неверный YAML: {e}")]) from e


def _problems(file: str, record: str, err: ValidationError) -> list[CorpusProblem]:
    out = []
    for item in err.errors():
        field = ".".join(str(p) for p in item["loc"]) or "-"
        out.append(CorpusProblem(file, record, field, item["msg"]))
    return out


def _records(path: Path, key: str, cls: type[BaseModel]) -> list[Any]:
    data = _read_yaml(path)
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        raise CorpusError([CorpusProblem(path.name, "-", key, f"ожидается список «{key}»")])
    items: list[Any] = []
    problems: list[CorpusProblem] = []
    seen: set[str] = set()
    for i, raw in enumerate(data[key]):
        rid = str(raw.get("id", f"#{i + 1}")) if isinstance(raw, dict) else f"#{i + 1}"
        try:
            item = cls.model_validate(raw)
        except ValidationError as e:
            problems.extend(_problems(path.name, rid, e))
            continue
        if rid in seen:
            problems.append(CorpusProblem(path.name, rid, "id", "повторяющийся id"))
        seen.add(rid)
        items.append(item)
    problems.extend(_alias_clashes(path.name, items))
    if problems:
        raise CorpusError(problems)
    return items


def norm(text: str) -> str:
    """Lower-case, ё→е, Cyrillic look-alikes in Latin words, separators → single spaces."""
    t = text.lower().replace("ё", "е").replace("×", "x")
    t = re.sub(r"[-_/]+", " ", t)
    t = re.sub(r"(?<=[a-z])(?=\d)", " ", t)  # llama3 → llama 3, v3 → v 3
    t = re.sub(r"(?<=\d)(?=[a-z]{3,})", " ", t)  # 3instruct → 3 instruct (keeps 70b)
    t = re.sub(r"[^\w.\s]+", " ", t)
    return re.sub(r"\s+", " ", t).strip()


def _alias_clashes(file: str, items: list[Any]) -> list[CorpusProblem]:
    owner: dict[str, str] = {}
    problems = []
    for item in items:
        for alias in [item.id, *item.aliases]:
            key = norm(alias)
            if key in owner and owner[key] != item.id:
                msg = f"псевдоним «{alias}» уже занят записью {owner[key]}"
                problems.append(CorpusProblem(file, item.id, "aliases", msg))
            owner.setdefault(key, item.id)
    return problems


@lru_cache(maxsize=4)
def _gpus(directory: Path) -> dict[str, Gpu]:
    return {g.id: g for g in _records(directory / "gpus.yaml", "gpus", Gpu)}


@lru_cache(maxsize=4)
def _models(directory: Path) -> dict[str, ModelArch]:
    return {m.id: m for m in _records(directory / "models.yaml", "models", ModelArch)}


@lru_cache(maxsize=4)
def _prices(directory: Path) -> Prices:
    path = directory / "prices.yaml"
    try:
        return Prices.model_validate(_read_yaml(path))
    except ValidationError as e:
        raise CorpusError(_problems(path.name, "-", e)) from e


def gpus(directory: Path | None = None) -> dict[str, Gpu]:
    return _gpus(directory or corpus_dir())


def models(directory: Path | None = None) -> dict[str, ModelArch]:
    return _models(directory or corpus_dir())


def prices(directory: Path | None = None) -> Prices:
    result = _prices(directory or corpus_dir())
    known = gpus(directory)
    bad = [p.gpu for p in result.examples if p.gpu not in known]
    if bad:
        problems = [CorpusProblem("prices.yaml", g, "gpu", "неизвестный GPU") for g in bad]
        raise CorpusError(problems)
    return result


def _lookup(table: dict[str, Any], name: str) -> Any:
    key = norm(name)
    for item in table.values():
        if key in (norm(item.id), *(norm(a) for a in item.aliases)):
            return item
    return None


def find_gpu(name: str) -> Gpu | None:
    found: Gpu | None = _lookup(gpus(), name)
    return found


def all_names() -> list[str]:
    """Every name and alias of every catalogue GPU and model («Llama 3 70B», «h100 sxm»…)."""
    items: list[Gpu | ModelArch] = [*models().values(), *gpus().values()]
    return [name for item in items for name in (item.name, *item.aliases)]


def find_model(name: str) -> ModelArch | None:
    found: ModelArch | None = _lookup(models(), name)
    return found
