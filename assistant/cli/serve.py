"""`assistant serve [--host] [--port]` → the HTTP API, demo page with the widget, agent page."""

from __future__ import annotations

import errno
import socket
from typing import TYPE_CHECKING, Annotated, Any

import typer

from assistant.cli import app
from assistant.cli.common import console, settings, user_errors
from assistant.settings import Settings

if TYPE_CHECKING:
    import uvicorn


@app.command("serve")
def serve(
    host: Annotated[str | None, typer.Option(help="Адрес (по умолчанию ASSISTANT_HOST)")] = None,
    port: Annotated[int | None, typer.Option(help="Порт (по умолчанию ASSISTANT_PORT)")] = None,
    log_level: Annotated[str, typer.Option(help="Уровень логов uvicorn")] = "info",
) -> None:
    """Запустить HTTP-сервис: чат, виджет (демо на /), помощник оператора (/agent), /docs."""
    import uvicorn

    from assistant.api import create_app
    from assistant.cli.progress import index_progress
    from assistant.pipeline import build_pipeline
    from assistant.storage import open_repository

    s = settings()
    if host is not None:
        s.host = host
    if port is not None:
        s.port = port
    with user_errors():  # what an operator can fix fails first, before the model loads
        check_port(s.host, s.port)
        repository = open_repository(s)
    try:
        with user_errors():
            console.print("[dim]Загружаю глоссарий, модель и индекс…[/dim]")
            with index_progress() as progress:
                pipeline = build_pipeline(s, progress=progress)
            app_ = create_app(pipeline, s, repository)
    except BaseException:
        repository.close()
        raise
    base = f"http://{_display_host(s.host)}:{s.port}"
    generator = pipeline.ready().get("generator", "embedded")
    console.print(f"[green]Готово[/green] (генератор: {generator}). Откройте {base}/")
    console.print(f"  API: {base}/docs · помощник оператора: {base}/agent · консоль: {base}/admin")
    if not s.agent_api_key.get_secret_value():
        console.print("  [yellow]/agent выключен: задайте ASSISTANT_AGENT_API_KEY[/yellow]")
    if not s.admin_api_key.get_secret_value():
        console.print("  [yellow]/admin выключен: задайте ASSISTANT_ADMIN_API_KEY[/yellow]")
    try:
        uvicorn.Server(server_config(app_, s, log_level=log_level)).run()
    finally:
        repository.close()


def server_config(app: Any, s: Settings, *, log_level: str = "info") -> uvicorn.Config:
    """uvicorn's settings for the app. X-Forwarded-For names the client only when the request
    comes from a proxy in ASSISTANT_TRUSTED_PROXIES; uvicorn's own default would trust it from
    127.0.0.1 (or $FORWARDED_ALLOW_IPS), letting any local client pick its rate-limit key. The
    HTTP protocol carries the edge limits (header and body deadlines, header size, connection
    cap) and answers its own errors with the JSON error body (api/transport.py)."""
    import uvicorn

    from assistant.api.transport import edge_limits, edge_protocol

    proxies = list(s.trusted_proxies)
    return uvicorn.Config(
        app,
        host=s.host,
        port=s.port,
        log_level=log_level,
        access_log=False,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies,
        http=edge_protocol(edge_limits(s)),
    )


def check_port(host: str, port: int) -> None:
    """ConfigError (one Russian line) when `host:port` cannot be listened on: busy, a privileged
    port, an unknown address. Bound and released at once, as uvicorn will bind it (SO_REUSEADDR),
    so a port still in TIME_WAIT from the previous run counts as free."""
    from assistant.errors import ConfigError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as e:
        why = _BIND_REASONS.get(e.errno or 0, "адрес недоступен")
        message = (
            f"Не удалось открыть порт {port} на «{host}» (ASSISTANT_HOST, ASSISTANT_PORT): {why}."
        )
        raise ConfigError(message, user_message=message) from None


_BIND_REASONS = {
    errno.EADDRINUSE: "порт уже занят другим процессом",
    errno.EACCES: "нет прав на этот порт (порты ниже 1024 — только для root)",
    errno.EADDRNOTAVAIL: "такого адреса нет на этой машине",
    socket.EAI_NONAME: "такого имени хоста нет",
}


def _display_host(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
