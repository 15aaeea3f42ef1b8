"""`GET /glossary/{slug}` → a plain HTML page of one glossary entry (where citation links land).

On the real site `public_base_url` points citations at the provider's own glossary pages; these
pages make the links work out of the box. Every text is HTML-escaped. In a «См. наше сравнение
NVLink и PCIe.» reference, the names of related entries become links to them (the comparison
itself lives on the provider's site, the entry it names lives here).
"""

from __future__ import annotations

import re
from html import escape

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from assistant.api.deps import GlossaryDep
from assistant.api.errors import ApiError
from assistant.api.pages import PAGE_HEADERS
from assistant.corpus.glossary import Entry

router = APIRouter(include_in_schema=False)


def _name_spans(
    text: str, start: int, end: int, related: list[Entry]
) -> list[tuple[int, int, str]]:
    """(start, end, slug) of related entries' names inside text[start:end]: the first mention of
    each entry, a longer name winning over a shorter one it contains."""
    names = sorted(
        ((n, r.slug) for r in related for n in dict.fromkeys(r.names) if len(n) >= 2),
        key=lambda pair: -len(pair[0]),
    )
    spans: list[tuple[int, int, str]] = []
    for name, slug in names:
        pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.IGNORECASE)
        for m in pattern.finditer(text, start, end):
            if all(m.end() <= a or m.start() >= b for a, b, _ in spans):
                spans.append((m.start(), m.end(), slug))
    first: dict[str, tuple[int, int, str]] = {}
    for span in sorted(spans):
        first.setdefault(span[2], span)
    return list(first.values())


def linked_text(entry: Entry, related: list[Entry]) -> str:
    """The entry's text as escaped HTML, with entry names in its «См. …» references linked."""
    spans: list[tuple[int, int, str]] = []
    for ref in entry.see_also:
        at = entry.text.find(ref.sentence)
        title_at = entry.text.find(ref.title, at) if at >= 0 else -1
        if title_at >= 0:
            spans += _name_spans(entry.text, title_at, title_at + len(ref.title), related)
    html, pos = [], 0
    for start, end, slug in sorted(spans):
        html.append(escape(entry.text[pos:start]))
        html.append(f'<a href="/glossary/{escape(slug)}">{escape(entry.text[start:end])}</a>')
        pos = end
    html.append(escape(entry.text[pos:]))
    return "".join(html)


def render_entry(entry: Entry, related: list[Entry]) -> str:
    links = "".join(
        f'<li><a href="/glossary/{escape(r.slug)}">{escape(r.title)}</a></li>' for r in related
    )
    english = f" <small>({escape(entry.english)})</small>" if entry.english != entry.title else ""
    return (
        '<!doctype html><html lang="ru"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(entry.title)} — глоссарий FullGPU</title>"
        '<link rel="stylesheet" href="/widget.css"></head>'
        '<body class="fg-page"><main class="fg-article">'
        '<p><a href="/">← Глоссарий FullGPU</a></p>'
        f"<h1>{escape(entry.title)}{english}</h1><p>{linked_text(entry, related)}</p>"
        + (f"<h2>Связанные термины</h2><ul>{links}</ul>" if links else "")
        + '</main><script src="/widget.js" data-api=""></script></body></html>'
    )


@router.get("/glossary/{slug}", response_class=HTMLResponse)
async def glossary_entry(slug: str, glossary: GlossaryDep) -> HTMLResponse:
    by_slug = glossary.by_slug()
    entry = by_slug.get(slug)
    if entry is None:
        raise ApiError(404, "unknown_entry", "Такой статьи в глоссарии нет.")
    related = [by_slug[s] for s in entry.related if s in by_slug]
    return HTMLResponse(render_entry(entry, related), headers=PAGE_HEADERS)
