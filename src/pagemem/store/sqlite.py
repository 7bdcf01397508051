"""The embedded default store: one SQLite file, WAL, FTS5 over recall messages.

One connection serves the process, guarded by a lock; every write runs in
BEGIN IMMEDIATE ... COMMIT so a crash leaves either the whole write or none.
Each table carries tenant, user and agent columns and every statement filters
on all three.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from pagemem.models import Message, Record, Scope
from pagemem.store.base import (
    Collection,
    IndexRow,
    MessageFilter,
    NewRecord,
)
from pagemem.store.common import origin_of_role
from pagemem.store.common import text_hash as _text_hash
from pagemem.store.sql_admin import AdminMixin
from pagemem.store.sql_blocks import BlocksMixin
from pagemem.store.sql_facts import FactsMixin
from pagemem.store.sql_messages import MessagesMixin
from pagemem.store.sql_records import RecordsMixin
from pagemem.store.sql_restore import RestoreMixin
from pagemem.store.sqlite_admin import PurgeMixin
from pagemem.store.sqlite_base import SQLiteBase
from pagemem.store.sqlite_cache import IndexCacheMixin
from pagemem.store.sqlite_jobs import ClaimMixin
from pagemem.store.sqlite_rows import (
    _COLLECTIONS,
    _EPOCH,
    _MESSAGE_COLUMNS,
    _SCOPE_SQL,
    _key,
    _message,
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
    SQLiteBase,
):
    """A Store on one SQLite file (or ':memory:')."""

    # archival records

    def insert_record(self, scope: Scope, record: NewRecord, *, actor: str) -> Record:
        return self.insert_records(scope, [record], actor=actor)[0]

    def insert_records(
        self, scope: Scope, records: Sequence[NewRecord], *, actor: str
    ) -> list[Record]:
        if not records:
            return []
        with self._write() as conn:
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
                "t.text, t.origin, json_extract(t.metadata, '$.speaker'), t.flags, "
                f"{_EPOCH.format('t.valid_from')}, {_EPOCH.format('t.valid_to')}, "
                "t.expired_at IS NOT NULL"
            )
        else:  # a message's origin follows its role; its speaker is its name
            columns = "t.content, t.role, t.name, '[]', NULL, NULL, 0"
        table, vectors, key, _, extra, _ = _COLLECTIONS[collection]
        rows = self._read(
            f"SELECT t.pk, t.id, {columns}, {_EPOCH.format('t.created_at')}, "
            f"v.vector FROM {table} t LEFT JOIN {vectors} v ON v.{key} = t.pk AND v.model_id = ? "
            f"WHERE {_scoped('t')}{extra} AND t.pk > ? "
            + (f"AND t.id IN ({', '.join('?' * len(ids))}) " if ids is not None else "")
            + "ORDER BY t.pk LIMIT ?",
            (model_id or "", *_key(scope), after, *(ids or ()), limit),
        )
        return [
            IndexRow(
                pk=row[0],
                id=row[1],
                text=row[2],
                created_at=row[9],
                origin=row[3] if collection == "records" else origin_of_role(row[3]),
                speaker=row[4] if isinstance(row[4], str) else None,
                vector=row[10],
                flags=() if row[5] == "[]" else tuple(json.loads(row[5])),
                valid_from=float("-inf") if row[6] is None else row[6],
                valid_to=float("inf") if row[7] is None else row[7],
                expired=bool(row[8]),
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
        table, vectors, key, _, _, _ = _COLLECTIONS[collection]
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
        table, vector_table, key, _, _, _ = _COLLECTIONS[collection]
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
        return [_message(row) for row in rows]
