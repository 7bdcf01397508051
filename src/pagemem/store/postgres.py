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

from pagemem.models import Message, Record, Scope
from pagemem.store.base import (
    Collection,
    IndexRow,
    MessageFilter,
    NewRecord,
)
from pagemem.store.common import origin_of_role, text_hash
from pagemem.store.pg_admin import PurgeMixin
from pagemem.store.pg_base import (
    MESSAGE_COLUMNS,
    SCOPE_SQL,
    key,
    message_of,
    scoped,
    tsquery,
    vector_param,
)
from pagemem.store.pg_jobs import ClaimMixin
from pagemem.store.pg_search import SearchMixin
from pagemem.store.sql_admin import AdminMixin
from pagemem.store.sql_blocks import BlocksMixin
from pagemem.store.sql_facts import FactsMixin
from pagemem.store.sql_messages import MessagesMixin
from pagemem.store.sql_records import RecordsMixin
from pagemem.store.sql_restore import RestoreMixin

__all__ = ["PostgresStore"]

# collection -> (table, vector table, vector key column, text column, condition, revision)
_COLLECTIONS: dict[str, tuple[str, str, str, str, str, str]] = {
    "records": ("records", "vectors", "record_pk", "text", "NOT t.quarantined", "record_revision"),
    "recall": (
        "messages",
        "message_vectors",
        "message_pk",
        "content",
        "NOT t.in_context",
        "message_revision",
    ),
}


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
):
    """A Store on a PostgreSQL database with the pgvector extension."""

    # archival records

    def insert_record(self, scope: Scope, record: NewRecord, *, actor: str) -> Record:
        return self.insert_records(scope, [record], actor=actor)[0]

    def insert_records(
        self, scope: Scope, records: Sequence[NewRecord], *, actor: str
    ) -> list[Record]:
        if not records:
            return []
        with self._tx(scope.tenant) as conn:
            return self._insert_records_in(conn, scope, records, actor=actor)

    def index_rows(
        self,
        scope: Scope,
        *,
        after: int,
        limit: int,
        collection: Collection = "records",
        model_id: str | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[IndexRow]:
        if ids is not None and not ids:
            return []
        if collection == "records":
            columns = (
                "t.text AS text, t.origin, t.metadata ->> 'speaker' AS speaker, t.flags, "
                "extract(epoch FROM t.valid_from)::float8 AS valid_from, "
                "extract(epoch FROM t.valid_to)::float8 AS valid_to, "
                "t.expired_at IS NOT NULL AS expired"
            )
        else:  # a message's origin follows its role; its speaker is its name
            columns = (
                "t.content AS text, t.role AS origin, t.name AS speaker, '[]'::jsonb AS flags, "
                "NULL::float8 AS valid_from, NULL::float8 AS valid_to, false AS expired"
            )
        table, vectors, fk, _, condition, _ = _COLLECTIONS[collection]
        rows = self._read(
            scope,
            f"SELECT t.pk, t.id, {columns}, extract(epoch FROM t.created_at)::float8 AS created, "
            f"v.embedding FROM {table} t LEFT JOIN {vectors} v ON v.{fk} = t.pk "
            f"AND v.model_id = %s WHERE {scoped('t')} AND {condition} AND t.pk > %s "
            + ("AND t.id = ANY(%s) " if ids is not None else "")
            + "ORDER BY t.pk LIMIT %s",
            (model_id or "", *key(scope), after, *([list(ids)] if ids is not None else []), limit),
        )
        return [
            IndexRow(
                pk=row["pk"],
                id=row["id"],
                text=row["text"],
                created_at=row["created"],
                origin=row["origin"] if collection == "records" else origin_of_role(row["origin"]),
                speaker=row["speaker"],
                vector=None if row["embedding"] is None else _blob(row["embedding"]),
                flags=tuple(row["flags"]),
                valid_from=float("-inf") if row["valid_from"] is None else row["valid_from"],
                valid_to=float("inf") if row["valid_to"] is None else row["valid_to"],
                expired=row["expired"],
            )
            for row in rows
        ]

    def find_vectors(
        self,
        scope: Scope,
        model_id: str,
        texts: Sequence[str],
        *,
        collection: Collection = "records",
    ) -> dict[str, bytes]:
        table, vectors, fk, _, _, _ = _COLLECTIONS[collection]
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
        table, vector_table, fk, _, _, _ = _COLLECTIONS[collection]
        with self._tx(scope.tenant) as conn, conn.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO {vector_table} ({fk}, model_id, tenant_id, user_id, agent_id, "
                f"embedding) SELECT pk, %s, tenant_id, user_id, agent_id, %s FROM {table} "
                f"WHERE {SCOPE_SQL} AND id = %s "
                f"ON CONFLICT ({fk}, model_id) DO UPDATE SET embedding = excluded.embedding",
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
        return [message_of(row) for row in rows]


def _blob(vector: Any) -> bytes:
    """A stored vector as the float32 bytes the protocol carries (pgvector hands back
    numpy arrays, or Vector objects when results come in binary)."""
    values = vector.to_numpy() if hasattr(vector, "to_numpy") else vector
    return np.asarray(values, dtype=np.float32).tobytes()
