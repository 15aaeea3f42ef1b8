"""The console's key → a signed session cookie, and the check every console request passes.

    POST /admin/api/session {"key": "…"}   right key → 200 + Set-Cookie (HttpOnly, SameSite=Strict,
                                           Path=/admin, Secure over HTTPS); wrong → 401
    DELETE /admin/api/session              the cookie is cleared
    Depends(require_console)               on every other console route: a valid cookie or 401

The key travels once, in a POST body (never a URL, never a log); the page keeps nothing. The
cookie is `v1.<expiry>.<nonce>.<HMAC-SHA256>` keyed by the console key itself: stateless, so
every replica accepts it, and changing ASSISTANT_ADMIN_API_KEY signs everyone out. Wrong keys and
forged cookies count against the `console` lockout (api/limits.py); a locked-out client gets 429
whatever it sends. Requests that change something must come from the console's own origin.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from urllib.parse import urlsplit

from fastapi import Request, Response

from assistant.api.deps import LimiterDep, SettingsDep
from assistant.api.errors import ApiError
from assistant.api.limits import client_keys
from assistant.settings import Settings

COOKIE = "fg_console"
PATH = "/admin"
_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


def console_key(settings: Settings) -> str:
    key = settings.admin_api_key.get_secret_value()
    if not key:
        raise ApiError(
            403,
            "console_disabled",
            "Консоль выключена: задайте ASSISTANT_ADMIN_API_KEY на сервере.",
        )
    return key


def _mac(key: str, payload: str) -> str:
    secret = hashlib.sha256(b"glossary-assistant console session\0" + key.encode()).digest()
    return hmac.new(secret, payload.encode(), hashlib.sha256).hexdigest()


def issue(key: str, hours: float, now: float | None = None) -> tuple[str, int]:
    """A fresh cookie value and its expiry (epoch seconds)."""
    expires = int((time.time() if now is None else now) + hours * 3600)
    payload = f"v1.{expires}.{secrets.token_urlsafe(16)}"
    return f"{payload}.{_mac(key, payload)}", expires


def expiry_of(key: str, token: str, now: float | None = None) -> int | None:
    """The expiry of a valid, unexpired cookie; None for anything else."""
    parts = token.split(".")
    if len(parts) != 4 or parts[0] != "v1" or not parts[1].isdigit():
        return None
    payload = ".".join(parts[:3])
    if not hmac.compare_digest(_mac(key, payload), parts[3]):
        return None
    expires = int(parts[1])
    return expires if expires > (time.time() if now is None else now) else None


def _same_origin(request: Request) -> bool:
    """A browser names the page that sent a request in Origin; it must be this server."""
    origin = request.headers.get("origin")
    if origin is None:
        return True  # not a browser's cross-site request (curl, the SDK); SameSite covers forms
    return urlsplit(origin).netloc == request.headers.get("host", "")


async def require_console(request: Request, settings: SettingsDep, limiter: LimiterDep) -> int:
    """The session's expiry, or ApiError: 403 console off, 429 locked out, 401 no session."""
    key = console_key(settings)
    [ip] = client_keys(request)
    await limiter.check_lockout(ip, "console")
    token = request.cookies.get(COOKIE, "")
    expires = expiry_of(key, token) if token else None
    if expires is None:
        if token:  # a cookie we did not sign (or an old one): counts like a wrong key
            await limiter.failed_auth(ip, "console")
        raise ApiError(401, "unauthorized", "Войдите в консоль: нужен ключ администратора.")
    if request.method in _UNSAFE and not _same_origin(request):
        raise ApiError(403, "forbidden", "Запрос пришёл не со страницы консоли.")
    return expires


async def sign_in(
    request: Request, response: Response, given: str, settings: Settings, limiter: LimiterDep
) -> int:
    key = console_key(settings)
    [ip] = client_keys(request)
    await limiter.check_lockout(ip, "console")
    if not _same_origin(request):
        raise ApiError(403, "forbidden", "Запрос пришёл не со страницы консоли.")
    if not given or not secrets.compare_digest(given.encode(), key.encode()):
        await limiter.failed_auth(ip, "console")
        raise ApiError(401, "unauthorized", "Неверный ключ администратора.")
    token, expires = issue(key, settings.admin_session_hours)
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(settings.admin_session_hours * 3600),
        path=PATH,
        secure=request.url.scheme == "https",
        httponly=True,
        samesite="strict",
    )
    return expires


def sign_out(request: Request, response: Response) -> None:
    response.delete_cookie(
        COOKIE, path=PATH, secure=request.url.scheme == "https", httponly=True, samesite="strict"
    )
