"""The scale-out store: PostgreSQL with pgvector, shared by many servers and workers.

`Memory("postgresql://...")` selects it. The same protocol as SQLite, the same
ids and the same answers; what changes is that any number of processes may
write at once. Per-scope counters are row-locked, the job queue is claimed with
`FOR UPDATE SKIP LOCKED`, and row-level security keyed on the tenant guards
every scoped table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pagemem.store.base import Collection
from pagemem.store.postgres.admin import PurgeMixin
from pagemem.store.postgres.base import tsquery, upsert_vector, vector_param
from pagemem.store.postgres.jobs import ClaimMixin
from pagemem.store.postgres.search import SearchMixin
from pagemem.store.sql_store import SQLStore

__all__ = ["PostgresStore"]


class PostgresStore(SearchMixin, SQLStore, PurgeMixin, ClaimMixin):
    """A Store on a PostgreSQL database with the pgvector extension."""

    vector_column = "embedding"

    def _vector_bytes(self, stored: Any) -> bytes:
        return _blob(stored)

    def _vector_param(self, blob: bytes) -> Any:
        return vector_param(blob)

    def _vector_upsert(self, collection: Collection) -> str:
        return upsert_vector(collection)

    def _message_match(self, terms: Sequence[str]) -> tuple[str, str, Any] | None:
        query = tsquery(terms)
        if not query:
            return None
        return "messages m", "m.tsv @@ to_tsquery('english', ?)", query


def _blob(vector: Any) -> bytes:
    """A stored vector as the float32 bytes the protocol carries (pgvector hands back
    numpy arrays, or Vector objects when results come in binary)."""
    values = vector.to_numpy() if hasattr(vector, "to_numpy") else vector
    return np.asarray(values, dtype=np.float32).tobytes()
