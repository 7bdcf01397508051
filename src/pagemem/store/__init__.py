"""Storage backends behind one protocol."""

from __future__ import annotations

from pathlib import Path

from pagemem.errors import InvalidInputError
from pagemem.store.base import MessageFilter, NewRecord, RecordFilter, Store
from pagemem.store.sqlite import SQLiteStore

__all__ = ["MessageFilter", "NewRecord", "RecordFilter", "SQLiteStore", "Store", "open_store"]

_POSTGRES = ("postgresql://", "postgres://")


def is_postgres(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(_POSTGRES)


def open_store(target: str | Path) -> Store:
    """A store for a target: a PostgreSQL URL, or a SQLite path (":memory:" for a throwaway)."""
    if is_postgres(target):
        try:
            from pagemem.store.postgres import PostgresStore
        except ImportError as exc:
            raise InvalidInputError(
                f"PostgreSQL needs the postgres extra ({exc.name} is missing): "
                "pip install 'pagemem[postgres]'"
            ) from None
        return PostgresStore(str(target))
    return SQLiteStore(target)
