"""Static web files (assistant/web) → the demo page `/`, `/agent`, the console `/admin` (its data
comes from /admin/api behind the console key), `/widget.js`, `/widget.css`, `/display.js`
(calculation blocks), and `/widget.json` (the limits the widget shows as you type)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse

from assistant.api.deps import SettingsDep

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
router = APIRouter(include_in_schema=False)

_FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/agent": ("agent.html", "text/html; charset=utf-8"),
    "/admin": ("admin.html", "text/html; charset=utf-8"),
    "/admin.js": ("admin.js", "text/javascript; charset=utf-8"),
    "/admin.css": ("admin.css", "text/css; charset=utf-8"),
    "/charts.js": ("charts.js", "text/javascript; charset=utf-8"),
    "/console-format.js": ("console-format.js", "text/javascript; charset=utf-8"),
    "/admin-overview.js": ("admin-overview.js", "text/javascript; charset=utf-8"),
    "/widget.js": ("widget.js", "text/javascript; charset=utf-8"),
    "/widget.css": ("widget.css", "text/css; charset=utf-8"),
    "/agent.js": ("agent.js", "text/javascript; charset=utf-8"),
    "/display.js": ("display.js", "text/javascript; charset=utf-8"),
}
_SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
PAGE_HEADERS = {
    **_SECURITY_HEADERS,
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
}


def _serve(url_path: str) -> FileResponse:
    name, media_type = _FILES[url_path]
    path = WEB_DIR / name
    if not path.is_file():
        raise HTTPException(404)
    headers = PAGE_HEADERS if name.endswith(".html") else _SECURITY_HEADERS
    return FileResponse(
        path, media_type=media_type, headers={**headers, "Cache-Control": "no-cache"}
    )


def _route(url_path: str) -> None:
    async def endpoint() -> FileResponse:
        return _serve(url_path)

    router.add_api_route(url_path, endpoint, methods=["GET"], name=f"static:{url_path}")


for _path in _FILES:
    _route(_path)


@router.get("/widget.json")
async def widget_config(settings: SettingsDep) -> dict[str, int]:
    """The server's own message limit, so the widget's counter and the 422 agree."""
    return {"max_message_chars": settings.max_message_chars}
