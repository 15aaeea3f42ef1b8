"""Cause (understanding/causes.py) → the entries' sentences that state it, cause first, then
what helps.

    told(Cause.copy_on_each, entries)
        → [(data-parallelism, «…каждый GPU хранит полную копию модели…»),
           (data-parallelism, «…каждый GPU должен вмещать всю модель, её градиенты…»),
           (fsdp, «Вместо того чтобы хранить полную копию модели на каждом GPU, FSDP…»)]

Each sentence is found in its entry by words it must contain, so an edited entry that no
longer says it drops the sentence rather than a wrong one being said.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from assistant.corpus.glossary import Entry
from assistant.text.sentences import split_sentences
from assistant.understanding.causes import Cause

# per cause: (entry, words its sentence says), the cause first, then what helps
_SAID: dict[Cause, tuple[tuple[str, str], ...]] = {
    Cause.copy_on_each: (
        ("data-parallelism", r"полную копию"),
        ("data-parallelism", r"вмещать всю модель"),
        ("fsdp", r"Вместо того чтобы хранить полную копию"),
    ),
    Cause.batch_against_user: (("tokens-per-second", r"тянут в разные стороны"),),
    Cause.load_on_cache: (
        ("kv-cache", r"сколько пользователей"),
        ("tokens-per-second", r"тянут в разные стороны"),
    ),
    Cause.tensor_across_servers: (
        ("tensor-parallelism", r"в пределах одного сервера"),
        ("pipeline-parallelism", r"между серверами"),
    ),
    Cause.sync_between_servers: (
        ("all-reduce", r"зависит от интерконнекта"),
        ("infiniband", r"нативно поддерживает RDMA"),
        ("infiniband", r"Гбит/с на порт"),
    ),
}


def told(cause: Cause, entries: Mapping[str, Entry]) -> list[tuple[Entry, str]]:
    """The sentences, as their entries write them; those an entry does not hold are left out."""
    out = []
    for slug, words in _SAID[cause]:
        entry = entries.get(slug)
        if entry is None:
            continue
        said = re.compile(words.replace(" ", r"\s"))  # entries keep no-break spaces after «в»
        found = [s for s in split_sentences(entry.text) if said.search(s)]
        if found:
            out.append((entry, found[0]))
    return out
