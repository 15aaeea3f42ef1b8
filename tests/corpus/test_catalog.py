"""Catalogue data: glossary figures match exactly, figures have sources, bad files fail clearly."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.corpus import catalog
from assistant.errors import CorpusError

CORPUS = Path(__file__).parents[2] / "corpus"


def test_glossary_figures() -> None:
    g = catalog.gpus(CORPUS)
    assert (g["h200"].memory_gb, g["h200"].bandwidth_tbs) == (141, 4.8)  # glossary:hbm3e
    assert (g["h100-sxm"].bf16_tflops, g["h100-sxm"].tdp_w) == (989, 700)  # tflops, sxm
    assert g["mi355x"].tdp_w == 1400 and g["mi355x"].memory_gb == 288  # tdp, hbm3e
    assert g["rtx-5090"].tdp_w == 575  # glossary:tdp
    assert g["b300"].memory_gb == 288 and g["gb300-nvl72"].memory_gb == 288  # blackwell
    assert g["b200"].bandwidth_tbs == 8  # glossary:gddr7
    assert g["l40s"].bandwidth_tbs == 0.864  # glossary:memory-bandwidth
    assert not g["h100-sxm"].fp4_support and g["b200"].fp4_support and g["mi355x"].fp4_support
    assert not g["rtx-5090"].nvlink and not g["rtx-pro-6000"].nvlink  # glossary:nvlink
    m = catalog.models(CORPUS)["deepseek-v3"]
    assert (m.params_b, m.active_b) == (671, 37)  # glossary:moe
    p = catalog.prices(CORPUS)
    assert p.hours_per_month == 730 and p.egress.single_gpu_tb_month == 20
    assert p.egress.server_8gpu_tb_month == 50 and p.egress.fee_per_gb == 0
    assert p.example_month("h100-sxm") is not None
    assert all(e.example for e in p.examples)


def test_required_gpus_present_with_sources() -> None:
    g = catalog.gpus(CORPUS)
    for gid in [
        "h100-sxm",
        "h200",
        "b200",
        "b300",
        "gb300-nvl72",
        "mi355x",
        "rtx-5090",
        "rtx-pro-6000",
        "l40s",
    ]:
        gpu = g[gid]
        for fieldname in ("memory_gb", "bandwidth_tbs"):
            assert fieldname in gpu.sources, (gid, fieldname)
        for fieldname in ("bf16_tflops", "fp8_tflops", "fp4_tflops", "tdp_w"):
            if getattr(gpu, fieldname) is not None:
                assert fieldname in gpu.sources, (gid, fieldname)


def test_models_are_gqa_shaped() -> None:
    for m in catalog.models(CORPUS).values():
        assert m.heads % m.kv_heads == 0, m.id
    llama = catalog.models(CORPUS)["llama-3-70b"]
    assert (llama.layers, llama.kv_heads, llama.head_dim) == (80, 8, 128)


def test_bad_file_reports_record_and_field(tmp_path: Path) -> None:
    for name in ("models.yaml", "prices.yaml"):
        (tmp_path / name).write_text((CORPUS / name).read_text(encoding="utf-8"), encoding="utf-8")
    text = (CORPUS / "gpus.yaml").read_text(encoding="utf-8")
    (tmp_path / "gpus.yaml").write_text(text.replace("memory_gb: 141", "memory_gb: -1"), "utf-8")
    with pytest.raises(CorpusError) as e:
        catalog.gpus(tmp_path)
    problem = e.value.problems[0]
    assert (problem.file, problem.record, problem.field) == ("gpus.yaml", "h200", "memory_gb")


def test_broken_yaml_and_missing_file(tmp_path: Path) -> None:
    (tmp_path / "models.yaml").write_text("models: [unclosed", encoding="utf-8")
    with pytest.raises(CorpusError):
        catalog.models(tmp_path)
    with pytest.raises(CorpusError):
        catalog.prices(tmp_path)


def test_alias_clash_is_reported(tmp_path: Path) -> None:
    text = (CORPUS / "models.yaml").read_text(encoding="utf-8")
    (tmp_path / "models.yaml").write_text(
        text.replace("[mistral 7b,", "[llama 70b, mistral 7b,"), encoding="utf-8"
    )
    with pytest.raises(CorpusError) as e:
        catalog.models(tmp_path)
    assert any(p.field == "aliases" for p in e.value.problems)


def test_a_cards_versions_are_its_family_without_itself() -> None:
    cards = catalog.load_catalog(CORPUS)
    h100 = cards.gpus["h100-sxm"]
    assert [g.id for g in cards.versions(h100)] == ["h100-pcie", "h100-nvl"]
    assert cards.versions(cards.gpus["l40s"]) == []  # no family: no versions
    assert cards.version_with_memory("h100-sxm", 94) == cards.gpus["h100-nvl"]
