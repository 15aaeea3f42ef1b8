"""corpus/terms/*.yaml → validated, immutable glossary Entries (every problem reported at once)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from assistant.errors import CorpusError, CorpusProblem
from assistant.text.tokens import lemmas

SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_KNOWN_FIELDS = {
    "slug",
    "title",
    "english",
    "aliases",
    "related",
    "see_also",
    "questions",
    "text",
    "url",
}
QUESTION_MAX_CHARS = 200  # a question is one customer message, not a paragraph


@dataclass(frozen=True)
class SeeAlso:
    """A «См. наше …» reference: its name and the sentence of the entry that makes it."""

    title: str
    sentence: str


@dataclass(frozen=True)
class Entry:
    slug: str
    title: str
    english: str
    aliases: tuple[str, ...]
    related: tuple[str, ...]
    see_also: tuple[SeeAlso, ...]
    text: str
    url: str
    # How customers ask for what this entry answers (symptoms, how-to, choices), written from
    # the entry's text; indexed as their own chunks (doc2query), never shown in answers.
    questions: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the entry is known by: title, English name, aliases."""
        return (self.title, self.english, *self.aliases)


@dataclass(frozen=True)
class Glossary:
    entries: tuple[Entry, ...]
    digest: str  # sha256 of the source files: index manifests compare it

    def by_slug(self) -> dict[str, Entry]:
        return {e.slug: e for e in self.entries}

    @cached_property
    def lemmas(self) -> frozenset[str]:
        """Every lemma of the entries' texts and names, stop words kept: the words the glossary
        uses (the question vocabulary and the slang map's check); read once per glossary."""
        found: set[str] = set()
        for entry in self.entries:
            for chunk in (entry.text, *entry.names):
                found.update(lemmas(chunk, keep_stopwords=True))
        return frozenset(found)

    def get(self, slug: str) -> Entry:
        for e in self.entries:
            if e.slug == slug:
                return e
        raise KeyError(slug)


def _problem(path: Path, record: str, field: str, message: str) -> CorpusProblem:
    return CorpusProblem(file=path.name, record=record, field=field, message=message)


def _read_yaml(path: Path, problems: list[CorpusProblem]) -> dict[str, Any] | None:
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        problems.append(_problem(path, path.stem, "-", "файл не в кодировке UTF-8"))
        return None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"строка {mark.line + 1}, столбец {mark.column + 1}: " if mark else ""
        reason = getattr(e, "problem", None) or str(e)
        problems.append(_problem(path, path.stem, "-", f"некорректный YAML ({where}{reason})"))
        return None
    if not isinstance(data, dict):
        problems.append(_problem(path, path.stem, "-", "ожидался словарь полей (slug, title, …)"))
        return None
    return data


def _str_field(
    data: dict[str, Any], key: str, path: Path, rec: str, problems: list[CorpusProblem]
) -> str:
    value = data.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        problems.append(_problem(path, rec, key, "поле пустое или отсутствует"))
        return ""
    if not isinstance(value, str):
        problems.append(_problem(path, rec, key, f"ожидалась строка, получено {value!r}"))
        return ""
    return value.strip()


def _str_list(
    data: dict[str, Any], key: str, path: Path, rec: str, problems: list[CorpusProblem]
) -> tuple[str, ...]:
    value = data.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        problems.append(_problem(path, rec, key, "ожидался список непустых строк"))
        return ()
    return tuple(v.strip() for v in value)


def _see_also(
    data: dict[str, Any], text: str, path: Path, rec: str, problems: list[CorpusProblem]
) -> tuple[SeeAlso, ...]:
    items = data.get("see_also") or []
    out: list[SeeAlso] = []
    if not isinstance(items, list):
        problems.append(_problem(path, rec, "see_also", "ожидался список {title, sentence}"))
        return ()
    for i, item in enumerate(items):
        field = f"see_also[{i}]"
        if not isinstance(item, dict) or not item.get("title") or not item.get("sentence"):
            problems.append(_problem(path, rec, field, "нужны непустые title и sentence"))
            continue
        title, sentence = str(item["title"]), str(item["sentence"])
        if sentence not in text:
            problems.append(_problem(path, rec, field, "sentence не найдено в тексте статьи"))
        elif title not in sentence:
            problems.append(_problem(path, rec, field, "title не найдено в sentence"))
        out.append(SeeAlso(title=title, sentence=sentence))
    return tuple(out)


def _questions(
    data: dict[str, Any], path: Path, rec: str, problems: list[CorpusProblem]
) -> tuple[str, ...]:
    """Optional list of distinct one-line questions (case, ё and spacing ignored)."""
    items = _str_list(data, "questions", path, rec, problems)
    seen: set[str] = set()
    for i, q in enumerate(items):
        field = f"questions[{i}]"
        if len(q) > QUESTION_MAX_CHARS or "\n" in q:
            problems.append(
                _problem(path, rec, field, f"одна строка до {QUESTION_MAX_CHARS} символов")
            )
        key = normalize_name(q)
        if key in seen:
            problems.append(_problem(path, rec, field, "вопрос повторяется"))
        seen.add(key)
    return items


def parse_entry(path: Path, data: dict[str, Any], problems: list[CorpusProblem]) -> Entry | None:
    """One record → Entry, appending every problem found (never raising)."""
    rec = str(data.get("slug") or path.stem)
    before = len(problems)
    for key in sorted(set(data) - _KNOWN_FIELDS):
        problems.append(_problem(path, rec, key, "неизвестное поле (опечатка?)"))
    slug = _str_field(data, "slug", path, rec, problems)
    if slug and not SLUG_RE.match(slug):
        problems.append(_problem(path, rec, "slug", "только строчные латинские буквы, цифры и -"))
    text = _str_field(data, "text", path, rec, problems)
    entry = Entry(
        slug=slug,
        title=_str_field(data, "title", path, rec, problems),
        english=_str_field(data, "english", path, rec, problems),
        aliases=_str_list(data, "aliases", path, rec, problems),
        related=_str_list(data, "related", path, rec, problems),
        see_also=_see_also(data, text, path, rec, problems),
        text=text,
        url=str(data.get("url") or f"/glossary/{slug}"),
        questions=_questions(data, path, rec, problems),
    )
    return entry if len(problems) == before else None


_SEPARATORS = re.compile(r"[\s\-_]+")


@lru_cache(maxsize=65_536)  # called for every sentence × name pair while composing answers
def normalize_name(name: str) -> str:
    """Case-, ё- and spacing-insensitive form used to compare names and aliases."""
    return _SEPARATORS.sub(" ", name.lower().replace("ё", "е")).strip()


def _cross_check(entries: list[Entry], files: dict[str, Path]) -> Iterable[CorpusProblem]:
    slugs = {e.slug for e in entries}
    owner: dict[str, str] = {}
    for e in entries:
        path = files[e.slug]
        for rel in e.related:
            if rel == e.slug:
                yield _problem(path, e.slug, "related", "статья ссылается сама на себя")
            elif rel not in slugs:
                yield _problem(path, e.slug, "related", f"неизвестный slug «{rel}»")
        for name in dict.fromkeys(normalize_name(n) for n in e.names):
            other = owner.setdefault(name, e.slug)
            if other != e.slug:
                yield _problem(path, e.slug, "aliases", f"«{name}» уже есть у статьи «{other}»")
    asked: dict[str, str] = {}
    for e in entries:  # one question pointing at two entries would teach retrieval both ways
        for q in e.questions:
            other = asked.setdefault(normalize_name(q), e.slug)
            if other != e.slug:
                yield _problem(files[e.slug], e.slug, "questions", f"«{q}» уже есть у «{other}»")


def load_glossary(corpus_dir: Path) -> Glossary:
    """Load and validate every term file; raise CorpusError listing all problems."""
    terms_dir = corpus_dir / "terms"
    paths = sorted(terms_dir.glob("*.yaml")) if terms_dir.is_dir() else []
    if not paths:
        problem = CorpusProblem(str(terms_dir), "-", "-", "нет файлов *.yaml со статьями")
        raise CorpusError([problem])
    problems: list[CorpusProblem] = []
    entries: list[Entry] = []
    files: dict[str, Path] = {}
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        data = _read_yaml(path, problems)
        entry = parse_entry(path, data, problems) if data is not None else None
        if entry is None:
            continue
        if entry.slug in files:
            first = files[entry.slug].name
            problems.append(
                _problem(path, entry.slug, "slug", f"повторяющийся slug (уже в {first})")
            )
            continue
        files[entry.slug] = path
        entries.append(entry)
    problems.extend(_cross_check(entries, files))
    if problems:
        raise CorpusError(problems)
    return Glossary(entries=tuple(entries), digest=digest.hexdigest())
