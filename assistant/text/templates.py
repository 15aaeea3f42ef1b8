"""Jinja2 templates in prompts/ + context → rendered prompt or answer text (StrictUndefined)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from assistant.errors import ConfigError


def _ru_number(value: float, decimals: int = 0) -> str:
    """1344.5 → «1 344,5»: Russian grouping with a no-break space and a decimal comma."""
    text = f"{value:,.{decimals}f}".replace(",", "\u00a0").replace(".", ",")
    return text


@lru_cache(maxsize=8)
def environment(prompts_dir: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(prompts_dir)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # plain text for an LLM or a chat; channels escape on output
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.filters["ru_number"] = _ru_number
    return env


def render(prompts_dir: Path, name: str, **context: Any) -> str:
    """Render prompts/<name>; a missing variable or template is a ConfigError, not a silent gap."""
    try:
        return environment(prompts_dir).get_template(name).render(**context).strip()
    except jinja2.TemplateError as e:
        raise ConfigError(f"шаблон {name}: {e}") from e
