"""A 405 → its `Allow` header lists every method the path supports, not just one route's.

Starlette answers a wrong method with the `Allow` of the first route whose path matched, so a
path served by two routes (GET and DELETE /v1/sessions/{id}) claimed to allow only one of them.
"""

from __future__ import annotations

from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(scope: Scope) -> list[str]:
    """Every method some route of the app fully matches at this path (routes are asked, not
    read: included routers keep their routes to themselves)."""
    routes = getattr(getattr(scope.get("app"), "router", None), "routes", ())
    return [
        method
        for method in METHODS
        if any(route.matches({**scope, "method": method})[0] == Match.FULL for route in routes)
    ]


class AllowHeaderMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def fix_allow(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 405:
                methods = allowed_methods(scope)
                if methods:
                    headers = [(k, v) for k, v in message.get("headers", []) if k != b"allow"]
                    headers.append((b"allow", ", ".join(methods).encode()))
                    message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, fix_allow)
