"""Corpus loader: the real glossary is valid and verbatim; editors' mistakes give clear problems."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
import yaml

from assistant.corpus.glossary import load_glossary, normalize_name
from assistant.errors import CorpusError
from assistant.settings import ROOT

CORPUS = ROOT / "corpus"


def _seed_paragraphs() -> dict[str, str]:
    paras = [
        p.strip() for p in (CORPUS / "source/glossary-seed.txt").read_text("utf-8").split("\n\n")
    ]
    paras = [p for p in paras if p]
    with (CORPUS / "source/term-slugs.tsv").open(encoding="utf-8") as f:
        return {
            row["slug"]: paras[int(row["paragraph"]) - 1]
            for row in csv.DictReader(f, delimiter="\t")
        }


def test_real_glossary_has_54_entries_with_verbatim_text() -> None:
    glossary = load_glossary(CORPUS)
    seed = _seed_paragraphs()
    assert len(glossary.entries) == 54
    assert {e.slug for e in glossary.entries} == set(seed)
    for entry in glossary.entries:
        assert entry.text == seed[entry.slug], entry.slug
        assert entry.url == f"/glossary/{entry.slug}"


def test_real_glossary_titles_aliases_and_links() -> None:
    g = load_glossary(CORPUS).by_slug()
    assert g["kv-cache"].title == "KV-кэш"
    assert g["data-parallelism"].title == "Параллелизм по данным"
    assert "нвлинк" in [normalize_name(a) for a in g["nvlink"].aliases]
    assert "куда" in [normalize_name(a) for a in g["cuda"].aliases]
    assert any(normalize_name(a) == "видеопамять" for a in g["vram"].aliases)
    # the provider's text uses no-break spaces; titles keep them so they stay exact substrings
    assert [s.title.replace("\xa0", " ") for s in g["blackwell"].see_also] == [
        "сравнение B200 и B300"
    ]
    assert set(g["all-reduce"].related) >= {"nccl", "nvlink"}


def _copy_corpus(tmp_path: Path, slugs: list[str]) -> Path:
    (tmp_path / "terms").mkdir()
    for slug in slugs:
        shutil.copy(CORPUS / "terms" / f"{slug}.yaml", tmp_path / "terms" / f"{slug}.yaml")
    return tmp_path


def _problems(corpus: Path) -> list[str]:
    with pytest.raises(CorpusError) as info:
        load_glossary(corpus)
    return [str(p) for p in info.value.problems]


def test_duplicate_slug_is_reported_with_both_files(tmp_path: Path) -> None:
    corpus = _copy_corpus(tmp_path, ["nccl"])
    text = (corpus / "terms/nccl.yaml").read_text("utf-8")
    (corpus / "terms/nccl-copy.yaml").write_text(text, "utf-8")
    problems = _problems(corpus)
    assert any(
        "nccl-copy.yaml" in p and "повторяющийся slug" in p and "nccl.yaml" in p for p in problems
    )


def _edit(path: Path, **changes: object) -> None:
    data = yaml.safe_load(path.read_text("utf-8"))
    data.update(changes)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")


def test_unknown_related_slug_names_file_record_and_field(tmp_path: Path) -> None:
    corpus = _copy_corpus(tmp_path, ["nccl", "nvlink"])
    _edit(corpus / "terms/nccl.yaml", related=["nvlink", "nvlinc"])
    problems = _problems(corpus)
    assert any(
        p.startswith("nccl.yaml: запись «nccl», поле «related»") and "nvlinc" in p for p in problems
    )


def test_empty_text_bad_yaml_and_typo_field_all_reported_at_once(tmp_path: Path) -> None:
    corpus = _copy_corpus(tmp_path, ["nccl", "nvlink", "cuda"])
    (corpus / "terms/nccl.yaml").write_text(
        "slug: nccl\ntitle: NCCL\nenglish: NCCL\ntext: ''\n", "utf-8"
    )
    (corpus / "terms/nvlink.yaml").write_text("slug: nvlink\ntitle: [unclosed\n", "utf-8")
    cuda = corpus / "terms/cuda.yaml"
    cuda.write_text(cuda.read_text("utf-8").replace("english:", "englsh:", 1), "utf-8")
    problems = _problems(corpus)
    assert any("nccl.yaml" in p and "поле «text»" in p and "пустое" in p for p in problems)
    assert any("nvlink.yaml" in p and "некорректный YAML" in p and "строка" in p for p in problems)
    assert any("cuda.yaml" in p and "«englsh»" in p and "неизвестное поле" in p for p in problems)
    assert any("cuda.yaml" in p and "«english»" in p for p in problems)


def test_alias_shared_by_two_entries_is_rejected(tmp_path: Path) -> None:
    corpus = _copy_corpus(tmp_path, ["nccl", "nvlink"])
    _edit(corpus / "terms/nccl.yaml", aliases=["никель", "НВЛИНК"])
    problems = _problems(corpus)
    clash = [p for p in problems if "«нвлинк» уже есть у статьи" in p]
    assert len(clash) == 1 and "nccl" in clash[0] and "nvlink" in clash[0]


def test_see_also_sentence_must_be_in_text(tmp_path: Path) -> None:
    corpus = _copy_corpus(tmp_path, ["nccl"])
    _edit(corpus / "terms/nccl.yaml", see_also=[{"title": "гайд", "sentence": "См. наш гайд."}])
    problems = _problems(corpus)
    assert any("поле «see_also[0]»" in p and "не найдено в тексте" in p for p in problems)


def test_missing_terms_folder_is_a_clear_error(tmp_path: Path) -> None:
    problems = _problems(tmp_path)
    assert "нет файлов" in problems[0]


def test_real_glossary_has_customer_questions_for_every_entry() -> None:
    glossary = load_glossary(CORPUS)
    for entry in glossary.entries:
        assert len(entry.questions) >= 5, entry.slug
        # questions are written for retrieval: none may repeat the entry's text verbatim
        assert all(q not in entry.text for q in entry.questions), entry.slug
    total = sum(len(e.questions) for e in glossary.entries)
    assert total >= 54 * 7


def test_questions_are_optional(tmp_path: Path) -> None:
    corpus = _copy_corpus(tmp_path, ["nccl"])
    data = yaml.safe_load((corpus / "terms/nccl.yaml").read_text("utf-8"))
    del data["questions"]
    data["related"] = []
    (corpus / "terms/nccl.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    assert load_glossary(corpus).entries[0].questions == ()


def test_bad_questions_are_reported_by_index(tmp_path: Path) -> None:
    corpus = _copy_corpus(tmp_path, ["nccl"])
    long = "как " * 60
    _edit(corpus / "terms/nccl.yaml", questions=["зачем NCCL?", "Зачем  nccl?", long, ""])
    problems = _problems(corpus)
    assert any("поле «questions»" in p and "непустых строк" in p for p in problems)
    _edit(corpus / "terms/nccl.yaml", questions=["зачем NCCL?", "Зачем  nccl?", long])
    problems = _problems(corpus)
    assert any("«questions[1]»" in p and "повторяется" in p for p in problems)
    assert any("«questions[2]»" in p and "200 символов" in p for p in problems)
    _edit(corpus / "terms/nccl.yaml", questions="зачем NCCL?")
    assert any("поле «questions»" in p for p in _problems(corpus))


def test_question_shared_by_two_entries_is_rejected(tmp_path: Path) -> None:
    corpus = _copy_corpus(tmp_path, ["nccl", "nvlink"])
    _edit(corpus / "terms/nccl.yaml", questions=["как связать две карты?"])
    _edit(corpus / "terms/nvlink.yaml", questions=["Как связать две карты?"])
    problems = _problems(corpus)
    assert any("nvlink.yaml" in p and "«questions»" in p and "nccl" in p for p in problems)
