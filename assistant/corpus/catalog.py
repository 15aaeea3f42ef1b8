"""corpus/{gpus,models,prices}.yaml → one validated Catalog (or CorpusError).

    catalog = load_catalog(settings.corpus_dir)   # once, in the composition root
    catalog.gpus: dict[str, Gpu]                   keyed by id, e.g. "h100-sxm"
    catalog.models: dict[str, ModelArch]           keyed by id, e.g. "llama-3-70b"
    catalog.prices: Prices                         730 h/month, egress allowances, example prices
    catalog.find_gpu(name) / find_model(name)      id or alias → record (None when unknown)

Every problem in a file is reported as a CorpusProblem(file, record, field, message).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from assistant.errors import CorpusError, CorpusProblem

_VENDOR = re.compile(r"^(?:NVIDIA\s+)?(?:GeForce\s+)?(?:AMD\s+Instinct\s+|AMD\s+)?")


class Gpu(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list)
    family: str | None = None  # versions of one GPU that differ in memory (A100 40/80 GB)
    offered: bool = True  # False: customers compare with it, FullGPU does not rent it out
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

    @property
    def short(self) -> str:
        """«NVIDIA GeForce RTX 5090» → «RTX 5090», «AMD Instinct MI355X» → «MI355X»: the name
        once the full one has been said, or where the vendor is plain (a table, «4 × H100 SXM»)."""
        return re.sub(r"\s*\(.*?\)", "", _VENDOR.sub("", self.name)).strip()


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


def _read_yaml(path: Path) -> Any:
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
    t = re.sub(r"\.(?!\d)", " ", t)  # «одна L40S.»: a full stop ends a name; «3.1» keeps its dot
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


def gpus(directory: Path) -> dict[str, Gpu]:
    return {g.id: g for g in _records(directory / "gpus.yaml", "gpus", Gpu)}


def models(directory: Path) -> dict[str, ModelArch]:
    return {m.id: m for m in _records(directory / "models.yaml", "models", ModelArch)}


def prices(directory: Path, known: dict[str, Gpu] | None = None) -> Prices:
    """prices.yaml, its example prices checked against the GPUs (`known`, else gpus.yaml)."""
    path = directory / "prices.yaml"
    try:
        result = Prices.model_validate(_read_yaml(path))
    except ValidationError as e:
        raise CorpusError(_problems(path.name, "-", e)) from e
    known = gpus(directory) if known is None else known
    bad = [p.gpu for p in result.examples if p.gpu not in known]
    if bad:
        problems = [CorpusProblem("prices.yaml", g, "gpu", "неизвестный GPU") for g in bad]
        raise CorpusError(problems)
    return result


def glossary_slugs(directory: Path) -> frozenset[str]:
    """Slugs listed in source/term-slugs.tsv (empty when the file is absent: nothing filtered)."""
    path = directory / "source" / "term-slugs.tsv"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()[1:]
    except FileNotFoundError:
        return frozenset()
    return frozenset(line.split("\t")[1] for line in lines if "\t" in line)


Record = TypeVar("Record", bound="Gpu | ModelArch")


def _normed_aliases(table: dict[str, Record]) -> tuple[tuple[Record, str], ...]:
    """(record, normalised id or alias) in catalogue order: what a question is searched for."""
    pairs: list[tuple[Record, str]] = []
    for record in table.values():
        pairs.extend((record, norm(a)) for a in [record.id, *record.aliases])
    return tuple(pairs)


@dataclass(frozen=True)
class Catalog:
    """The calculators' reference data, read once from one corpus folder and passed down."""

    directory: Path
    gpus: dict[str, Gpu]
    models: dict[str, ModelArch]
    prices: Prices
    glossary_slugs: frozenset[str]
    gpu_aliases: tuple[tuple[Gpu, str], ...] = field(init=False, repr=False)
    model_aliases: tuple[tuple[ModelArch, str], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # derived once: every question is matched against them (hot path)
        object.__setattr__(self, "gpu_aliases", _normed_aliases(self.gpus))
        object.__setattr__(self, "model_aliases", _normed_aliases(self.models))

    def find_gpu(self, name: str) -> Gpu | None:
        return _lookup(self.gpu_aliases, name)

    def version_with_memory(self, gpu_id: str, memory_gb: float) -> Gpu | None:
        """The version of `gpu_id` (same family) with this much memory: «A100 на 40 ГБ»."""
        gpu = self.gpus.get(gpu_id)
        if gpu is None:
            return None
        if abs(gpu.memory_gb - memory_gb) < 0.5:
            return gpu
        return next((g for g in self.versions(gpu) if abs(g.memory_gb - memory_gb) < 0.5), None)

    def versions(self, gpu: Gpu) -> list[Gpu]:
        """The other versions of a card, in catalogue order: H100 SXM → H100 PCIe, H100 NVL."""
        if gpu.family is None:
            return []
        return [g for g in self.gpus.values() if g.family == gpu.family and g != gpu]

    def find_model(self, name: str) -> ModelArch | None:
        return _lookup(self.model_aliases, name)

    def all_names(self) -> list[str]:
        """Every name and alias of every catalogue GPU and model («Llama 3 70B», «h100 sxm»…)."""
        items: list[Gpu | ModelArch] = [*self.models.values(), *self.gpus.values()]
        return [name for item in items for name in (item.name, *item.aliases)]


def _lookup(aliases: tuple[tuple[Record, str], ...], name: str) -> Record | None:
    key = norm(name)
    return next((item for item, alias in aliases if alias == key), None)


def load_catalog(directory: Path) -> Catalog:
    """corpus folder → Catalog (or CorpusError listing every problem of the file that failed)."""
    known = gpus(directory)
    return Catalog(
        directory=directory,
        gpus=known,
        models=models(directory),
        prices=prices(directory, known),
        glossary_slugs=glossary_slugs(directory),
    )
