"""`GET /glossary/{slug}` → a plain HTML page of one glossary entry (where citation links land).

On the real site `public_base_url` points citations at the provider's own glossary pages; these
pages make the links work out of the box. Every text is HTML-escaped.
"""

from __future__ import annotations

from html import escape

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from assistant.api.deps import GlossaryDep
from assistant.api.errors import ApiError
from assistant.api.pages import PAGE_HEADERS
from assistant.corpus.glossary import Entry

router = APIRouter(include_in_schema=False)


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
        f"<h1>{escape(entry.title)}{english}</h1><p>{escape(entry.text)}</p>"
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
