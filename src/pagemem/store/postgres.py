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

from pagemem.models import Message, Scope
from pagemem.store.base import (
    Collection,
    MessageFilter,
)
from pagemem.store.common import text_hash
from pagemem.store.pg_admin import PurgeMixin
from pagemem.store.pg_base import (
    MESSAGE_COLUMNS,
    key,
    scoped,
    tsquery,
    upsert_vector,
    vector_param,
)
from pagemem.store.pg_jobs import ClaimMixin
from pagemem.store.pg_search import SearchMixin
from pagemem.store.sql_admin import AdminMixin
from pagemem.store.sql_blocks import BlocksMixin
from pagemem.store.sql_facts import FactsMixin
from pagemem.store.sql_index import COLLECTIONS, IndexRowsMixin
from pagemem.store.sql_messages import MessagesMixin
from pagemem.store.sql_records import RecordsMixin
from pagemem.store.sql_restore import RestoreMixin

__all__ = ["PostgresStore"]


class PostgresStore(
    SearchMixin,
    RecordsMixin,
    FactsMixin,
    MessagesMixin,
    BlocksMixin,
    AdminMixin,
    RestoreMixin,
    PurgeMixin,
    ClaimMixin,
    IndexRowsMixin,
):
    """A Store on a PostgreSQL database with the pgvector extension."""

    vector_column = "embedding"

    def _vector_bytes(self, stored: Any) -> bytes:
        return _blob(stored)

    # archival records

    def find_vectors(
        self,
        scope: Scope,
        model_id: str,
        texts: Sequence[str],
        *,
        collection: Collection = "records",
    ) -> dict[str, bytes]:
        tables = COLLECTIONS[collection]
        table, vectors, fk = tables.rows, tables.vectors, tables.key
        by_hash = {text_hash(text): text for text in texts}
        rows = self._read(
            scope,
            f"SELECT DISTINCT ON (t.text_hash) t.text_hash, v.embedding FROM {table} t "
            f"JOIN {vectors} v ON v.{fk} = t.pk WHERE {scoped('t')} AND v.model_id = %s "
            "AND t.text_hash = ANY(%s)",
            (*key(scope), model_id, list(by_hash)),
        )
        return {by_hash[row["text_hash"]]: _blob(row["embedding"]) for row in rows}

    def put_vectors(
        self,
        scope: Scope,
        model_id: str,
        vectors: Sequence[tuple[str, bytes]],
        *,
        collection: Collection = "records",
    ) -> None:
        with self._tx(scope.tenant) as conn, conn.cursor() as cursor:
            cursor.executemany(
                upsert_vector(collection),
                [(model_id, vector_param(blob), *key(scope), item) for item, blob in vectors],
            )

    # messages

    def search_messages(
        self, scope: Scope, terms: Sequence[str], where: MessageFilter, *, limit: int
    ) -> list[Message]:
        query = tsquery(terms)
        if not query:
            return []
        clause, params = self._message_where(scope, where)
        rows = self._select(
            scope,
            f"SELECT {MESSAGE_COLUMNS} FROM messages m "
            f"WHERE m.tsv @@ to_tsquery('english', ?) AND {clause} ORDER BY m.seq DESC LIMIT ?",
            (query, *params, limit),
        )
        return [self._message_of(row) for row in rows]


def _blob(vector: Any) -> bytes:
    """A stored vector as the float32 bytes the protocol carries (pgvector hands back
    numpy arrays, or Vector objects when results come in binary)."""
    values = vector.to_numpy() if hasattr(vector, "to_numpy") else vector
    return np.asarray(values, dtype=np.float32).tobytes()
