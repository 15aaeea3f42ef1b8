"""`assistant serve [--host] [--port]` → the HTTP API, demo page with the widget, agent page."""

from __future__ import annotations

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
    with user_errors():
        console.print("[dim]Загружаю глоссарий, модель и индекс…[/dim]")
        with index_progress() as progress:
            pipeline = build_pipeline(s, progress=progress)
        repository = open_repository(s)
    app_ = create_app(pipeline, s, repository)
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
    127.0.0.1 (or $FORWARDED_ALLOW_IPS), letting any local client pick its rate-limit key."""
    import uvicorn

    proxies = list(s.trusted_proxies)
    return uvicorn.Config(
        app,
        host=s.host,
        port=s.port,
        log_level=log_level,
        access_log=False,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies,
    )


def _display_host(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
