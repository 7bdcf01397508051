"""The embedded default store: one SQLite file, WAL, FTS5 over recall messages.

One connection serves the process, guarded by a lock; every write runs in
BEGIN IMMEDIATE ... COMMIT so a crash leaves either the whole write or none.
Each table carries tenant, user and agent columns and every statement filters
on all three.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from pagemem.store.base import Collection
from pagemem.store.sql_index import COLLECTIONS
from pagemem.store.sql_store import SQLStore
from pagemem.store.sqlite.admin import PurgeMixin
from pagemem.store.sqlite.base import SQLiteBase
from pagemem.store.sqlite.cache import IndexCacheMixin
from pagemem.store.sqlite.jobs import ClaimMixin
from pagemem.store.sqlite.rows import _SCOPE_SQL, match_expression

__all__ = ["SQLiteStore"]


class SQLiteStore(SQLStore, PurgeMixin, ClaimMixin, IndexCacheMixin, SQLiteBase):
    """A Store on one SQLite file (or ':memory:')."""

    vector_column = "vector"

    def _vector_bytes(self, stored: Any) -> bytes:
        return bytes(stored)

    def _vector_param(self, blob: bytes) -> Any:
        return blob

    def _vector_upsert(self, collection: Collection) -> str:
        tables = COLLECTIONS[collection]
        return (
            f"INSERT OR REPLACE INTO {tables.vectors} ({tables.key}, model_id, vector) "
            f"SELECT pk, ?, ? FROM {tables.rows} WHERE {_SCOPE_SQL} AND id = ?"
        )

    def _message_match(self, terms: Sequence[str]) -> tuple[str, str, Any] | None:
        expression = match_expression(terms)
        if not expression:
            return None
        return (
            "messages_fts JOIN messages m ON m.pk = messages_fts.rowid",
            "messages_fts MATCH ?",
            expression,
        )

    def _values(self, row: Any) -> Sequence[Any]:
        return cast(Sequence[Any], row)  # a sqlite3.Row is a sequence too
