"""The test server itself answers like the Bot API documentation says."""

from __future__ import annotations

import httpx
import pytest

from tests.channels.botapi_server import BotAPIServer
from tests.channels.conftest import TOKEN
from tests.channels.tg_html import ApiError, parse_html


def call(server: BotAPIServer, method: str, **params: object) -> tuple[int, dict[str, object]]:
    r = httpx.post(f"{server.base_url}/bot{TOKEN}/{method}", json=params, timeout=10)
    return r.status_code, r.json()


@pytest.mark.parametrize(
    "text",
    ["<b>x", "<foo>x</foo>", "a < b", "<b><i>x</b></i>", "a &nbsp; b", "</b>", "<a>x</a>",
     "<code><b>x</b></code>"],
)  # fmt: skip
def test_html_rejected_like_telegram(text: str) -> None:
    with pytest.raises(ApiError) as info:
        parse_html(text)
    assert info.value.description.startswith("Bad Request: can't parse entities")


def test_html_accepted() -> None:
    html = '<b>a &lt; b</b> <a href="https://x.example">t</a> <pre><code>x</code></pre> &#128512;'
    assert parse_html(html) == "a < b t x 😀"


def test_error_shapes(botapi: BotAPIServer) -> None:
    assert call(botapi, "sendMessage", chat_id=1, text="<b>x", parse_mode="HTML") == (
        400,
        {"ok": False, "error_code": 400,
         "description": 'Bad Request: can\'t parse entities: Can\'t find end tag corresponding '
                        'to start tag "b"'},
    )  # fmt: skip
    status, body = call(botapi, "sendMessage", chat_id=1, text="я" * 4097)
    assert (status, body["description"]) == (400, "Bad Request: message is too long")
    assert call(botapi, "sendMessage", chat_id=1, text="я" * 4096)[0] == 200
    assert call(botapi, "noSuchMethod")[0] == 404
    botapi.fail_next("getMe", 429, retry_after=3)
    assert call(botapi, "getMe") == (
        429,
        {"ok": False, "error_code": 429, "description": "Too Many Requests: retry after 3",
         "parameters": {"retry_after": 3}},
    )  # fmt: skip
    assert call(botapi, "setWebhook", url="https://e.example/hook")[1]["result"] is True
    status, body = call(botapi, "getUpdates")
    assert status == 409 and "webhook is active" in str(body["description"])


def test_updates_are_confirmed_by_offset(botapi: BotAPIServer) -> None:
    first = botapi.push_message(1, "a")
    botapi.push_message(1, "b")
    status, body = call(botapi, "getUpdates")
    assert status == 200 and len(body["result"]) == 2  # type: ignore[arg-type]
    body = call(botapi, "getUpdates", offset=first + 1)[1]
    assert [u["message"]["text"] for u in body["result"]] == ["b"]  # type: ignore[attr-defined]
