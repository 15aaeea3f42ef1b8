"""Tool name + arguments → glossary slugs relevant to the calculation (only slugs that exist);
each calculator says which entries relate to it (`Tool.related`)."""

from __future__ import annotations

from assistant.calculators.base import Arguments
from assistant.calculators.registry import get_tool
from assistant.corpus.catalog import Catalog


def related_slugs(tool: str, args: Arguments, catalog: Catalog) -> list[str]:
    found = get_tool(tool).related(args, catalog)
    known = catalog.glossary_slugs
    return [s for s in dict.fromkeys(found) if not known or s in known]
