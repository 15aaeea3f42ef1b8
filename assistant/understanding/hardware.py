"""Normalised text → a GPU outside the catalogue and the memory a card is said to have.

    unknown_gpu("влезет ли 8b на rtx a5000?", out)  → out.params["gpu_label"] = "RTX A5000"
    gpu_memory("a6000 на 48 гб", out)                → out.params["gpu_memory_gb"] = 48
    gpu_memory("не лезет даже в 24 гига", out)       → out.params["gpu_memory_gb"] = 24

A GPU the catalogue does not know is never replaced by another one: with its memory stated the
fit is computed for that memory, without it the calculator asks for the memory (solve.py).
Runs after the catalogue's GPU names were replaced by GPU_MARK (extract.py), so «A100 на 40 ГБ»
reads 40 ГБ next to a known GPU and picks its 40 GB version.
"""

from __future__ import annotations

import re

from assistant.understanding.amounts import GPU_MARK, NUM, Found, clean
from assistant.understanding.lexicon import CARD_WORD, FIT

UNKNOWN_MARK = "§u§"
_BRAND = r"(?:(?:nvidia|amd|geforce|quadro|tesla|radeon|instinct)\s+)*"
_UNKNOWN = re.compile(
    rf"(?<![\w.-]){_BRAND}"
    r"((?:rtx|gtx|rx|titan)\s*(?:pro\s*|a\s*)?\d{3,5}(?:\s*(?:ti|xtx|xt|super|ada))?"
    r"|mi\s?\d{3}[a-z]?|(?!p(?:50|90|95|99)(?![\w]))[ahvpkm]\d{2,4}[a-z]?)(?![\w.])"
)
_CAPITALISED = frozenset("nvidia geforce quadro tesla radeon instinct titan".split())
_GB = r"(?:гб|gb|гигабайт\w*|гиг\w*)(?![\w])"
_CARD = CARD_WORD
_MEMORY = (
    rf"(?:{GPU_MARK}|{UNKNOWN_MARK})\s*(?:на|с|,|:|-)?\s*(?:по\s+)?{NUM} ?{_GB}",
    rf"{_CARD}\s+(?:[\w§]+\s+){{0,2}}?(?:на|с|по)\s+{NUM} ?{_GB}",
    rf"у (?:не[её]|него|карты|каждой|них|нас)\s+(?:\w+\s+)?{NUM} ?{_GB}",
    rf"{NUM} ?{_GB} (?:памяти |видеопамяти |vram )?(?:у|на) (?:одной |каждой )?{_CARD}",
    # «не лезет даже в 24 гига», «влезет на 80 гб?»: the memory it is fitted into
    rf"(?<!\w)(?:{FIT}|лез|лаз)\w*\s+(?:ли\s+)?(?:даже\s+|хотя бы\s+)?(?:в|на)\s+{NUM} ?{_GB}",
)


def _label(name: str) -> str:
    """«rtx a5000» → «RTX A5000», «tesla p40» → «Tesla P40»."""
    words = name.split()
    return " ".join(w.capitalize() if w in _CAPITALISED else w.upper() for w in words)


def unknown_gpu(t: str, out: Found) -> str:
    """A GPU-like name the catalogue did not match → params["gpu_label"]; the text with it
    replaced by UNKNOWN_MARK (its digits are not a model size or a count)."""
    if GPU_MARK in t:
        return t
    m = _UNKNOWN.search(t)
    if m is None:
        return t
    out.params["gpu_label"] = _label(m.group(0).strip())
    return t[: m.start()] + UNKNOWN_MARK + t[m.end() :]


# «24 ГБ видеопамяти хватит?»: memory one has, only in a question whether something fits
_HAVE = rf"{NUM} ?{_GB} (?:видео)?(?:памяти|vram)(?! (?:нужно|надо|нужны|требуется|потребуется))"


def gpu_memory(t: str, out: Found, verdict: bool = False) -> None:
    """«A6000 на 48 ГБ», «карта с 12 ГБ», «по 24 ГБ», «у неё 24 ГБ» → params["gpu_memory_gb"]."""
    for pattern in (*_MEMORY, *((_HAVE,) if verdict else ())):
        m = re.search(pattern, t)
        if m:
            out.params["gpu_memory_gb"] = clean(float(m.group(1)))
            return
