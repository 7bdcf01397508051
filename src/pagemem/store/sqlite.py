"""The embedded default store: one SQLite file, WAL, FTS5 over recall messages.

One connection serves the process, guarded by a lock; every write runs in
BEGIN IMMEDIATE ... COMMIT so a crash leaves either the whole write or none.
Each table carries tenant, user and agent columns and every statement filters
on all three.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from pagemem.models import Message, Scope
from pagemem.store.base import (
    Collection,
    MessageFilter,
)
from pagemem.store.common import text_hash as _text_hash
from pagemem.store.sql_admin import AdminMixin
from pagemem.store.sql_blocks import BlocksMixin
from pagemem.store.sql_facts import FactsMixin
from pagemem.store.sql_index import COLLECTIONS, IndexRowsMixin
from pagemem.store.sql_messages import MessagesMixin
from pagemem.store.sql_records import RecordsMixin
from pagemem.store.sql_restore import RestoreMixin
from pagemem.store.sqlite_admin import PurgeMixin
from pagemem.store.sqlite_base import SQLiteBase
from pagemem.store.sqlite_cache import IndexCacheMixin
from pagemem.store.sqlite_jobs import ClaimMixin
from pagemem.store.sqlite_rows import (
    _MESSAGE_COLUMNS,
    _SCOPE_SQL,
    _key,
    _scoped,
    match_expression,
)

__all__ = ["SQLiteStore"]


class SQLiteStore(
    RecordsMixin,
    FactsMixin,
    MessagesMixin,
    BlocksMixin,
    AdminMixin,
    RestoreMixin,
    PurgeMixin,
    ClaimMixin,
    IndexCacheMixin,
    IndexRowsMixin,
    SQLiteBase,
):
    """A Store on one SQLite file (or ':memory:')."""

    vector_column = "vector"

    def _vector_bytes(self, stored: Any) -> bytes:
        return bytes(stored)

    def _values(self, row: Any) -> Sequence[Any]:
        return cast(Sequence[Any], row)  # a sqlite3.Row is a sequence too

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
        table, vectors, key = tables.rows, tables.vectors, tables.key
        by_hash = {_text_hash(text): text for text in texts}
        hashes = list(by_hash)
        found: dict[str, bytes] = {}
        for start in range(0, len(hashes), 500):
            chunk = hashes[start : start + 500]
            rows = self._read(
                f"SELECT t.text_hash, v.vector FROM {table} t JOIN {vectors} v ON v.{key} = t.pk "
                f"WHERE {_scoped('t')} AND v.model_id = ? "
                f"AND t.text_hash IN ({', '.join('?' * len(chunk))})",
                (*_key(scope), model_id, *chunk),
            )
            found.update((by_hash[row[0]], bytes(row[1])) for row in rows)
        return found

    def put_vectors(
        self,
        scope: Scope,
        model_id: str,
        vectors: Sequence[tuple[str, bytes]],
        *,
        collection: Collection = "records",
    ) -> None:
        tables = COLLECTIONS[collection]
        table, vector_table, key = tables.rows, tables.vectors, tables.key
        with self._write() as conn:
            conn.executemany(
                f"INSERT OR REPLACE INTO {vector_table} ({key}, model_id, vector) "
                f"SELECT pk, ?, ? FROM {table} WHERE {_SCOPE_SQL} AND id = ?",
                [(model_id, blob, *_key(scope), item_id) for item_id, blob in vectors],
            )

    # messages

    def search_messages(
        self, scope: Scope, terms: Sequence[str], where: MessageFilter, *, limit: int
    ) -> list[Message]:
        expression = match_expression(terms)
        if not expression:
            return []
        clause, params = self._message_where(scope, where)
        rows = self._read(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages_fts "
            "JOIN messages m ON m.pk = messages_fts.rowid "
            f"WHERE messages_fts MATCH ? AND {clause} ORDER BY m.seq DESC LIMIT ?",
            (expression, *params, limit),
        )
        return [self._message_of(row) for row in rows]
