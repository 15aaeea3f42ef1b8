"""Answer text → plain text: what an answer may carry is prose, markers and line breaks.

    markup("… <script>x</script> [1].")   → ["тег «<script>»"]   an LLM draft: rejected
    controls("3,35 ТБ/с [1]\u202e.")       → ["U+202E"]            an LLM draft: rejected
    plain("… <!-- x --> [1]\u202e.")        → "… [1]."              every answer, last of all

Channels differ: the widget and Telegram escape HTML, but an API client that renders the JSON,
SSE or OpenAI-style answer as HTML does not, and a terminal runs escape sequences. So an LLM
draft with markup, an HTML comment, a Markdown link or image, a `javascript:` URL, an HTML
entity, or a control / bidi / zero-width character is rejected (such a draft is what an
injection looks like; a zero-width space inside «14\u200b1» also hides a number from the
checks), and every answer of every generator is stripped of them before it leaves the engine.
"""

from __future__ import annotations

import re
import unicodedata

_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
# a tag: «<» and a letter (or «/», «!», «?» and a letter); «< 1 %» in prose is not one
_TAG = re.compile(r"<[/!?]?[A-Za-z][^<>]*(?:>|$)")
_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
_LINK = re.compile(r"\[([^\]\n]*)\]\(([^)\n]*)\)")
_SCHEME = re.compile(r"\b(?:javascript|vbscript|livescript)\s*:|\bdata\s*:\s*\w+/", re.I)
_ENTITY = re.compile(r"&(?:#\d{1,7}|#x[0-9A-Fa-f]{1,6}|[A-Za-z]{2,10});")
# format (bidi overrides, zero-width), private use, surrogates, line/paragraph separators
_HIDDEN = frozenset(("Cf", "Co", "Cs", "Zl", "Zp"))
_KEPT = frozenset("\n")  # paragraphs; a tab or CR becomes a space


def _hidden(c: str) -> bool:
    category = unicodedata.category(c)
    return category in _HIDDEN or (category == "Cc" and c not in _KEPT)


class _Table(dict[int, int | None]):
    """str.translate's table, filled per code point on first sight: a hidden character maps
    to None (dropped), a tab or CR to a space, anything else to itself. Once a text's
    characters have been seen, translate runs at C speed (a Python loop per character cost
    ~0.3 ms per answer)."""

    def __missing__(self, point: int) -> int | None:
        c = chr(point)
        value = ord(" ") if c in "\t\r" else None if _hidden(c) else point
        if len(self) < _SEEN_MAX:  # an echoed message of rare characters cannot grow it
            self[point] = value
        return value


_SEEN_MAX = 65_536
_TABLE = _Table()


def controls(text: str) -> list[str]:
    """Control, format (bidi, zero-width) and private-use characters, as «U+202E»."""
    found = dict.fromkeys(f"U+{ord(c):04X}" for c in text if _hidden(c) and c not in "\t\r")
    return list(found)


def markup(text: str) -> list[str]:
    """What makes a text more than plain prose: tags, comments, links, images, script URLs."""
    found: list[str] = []
    found += [f"комментарий «{m.group(0)[:40]}»" for m in _COMMENT.finditer(text)]
    found += [f"тег «{m.group(0)[:40]}»" for m in _TAG.finditer(_COMMENT.sub(" ", text))]
    found += [f"картинка «{m.group(0)[:40]}»" for m in _IMAGE.finditer(text)]
    found += [f"ссылка «{m.group(0)[:40]}»" for m in _LINK.finditer(_IMAGE.sub(" ", text))]
    found += [f"адрес «{m.group(0)}»" for m in _SCHEME.finditer(text)]
    found += [f"сущность HTML «{m.group(0)}»" for m in _ENTITY.finditer(text)]
    return found


_SPACES = re.compile(r"[ \t]{2,}")
_BEFORE_PUNCT = re.compile(r" +(?=[.,;:!?])")


def plain(text: str) -> str:
    """The text without markup or hidden characters; prose, markers and paragraphs stay.

    A Markdown link keeps its words, an image, a tag or a comment goes entirely; spaces left
    twice by a removal become one. A text that was plain comes back unchanged."""
    out = text.translate(_TABLE)
    if not markup(out):
        return out if out == text else _tidy(out)
    out = _COMMENT.sub(" ", out)
    out = _IMAGE.sub(" ", out)
    out = _LINK.sub(lambda m: m.group(1), out)
    out = _TAG.sub(" ", out)
    out = _SCHEME.sub(" ", out)
    out = _ENTITY.sub(" ", out)
    return _tidy(out)


def _tidy(text: str) -> str:
    lines = [_BEFORE_PUNCT.sub("", _SPACES.sub(" ", line)).strip(" ") for line in text.split("\n")]
    return "\n".join(lines).strip()
