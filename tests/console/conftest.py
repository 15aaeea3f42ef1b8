"""Console tests run on SQLite always and PostgreSQL when a DSN is given (storage's fixture)."""

from __future__ import annotations

from tests.storage.conftest import repo

__all__ = ["repo"]
