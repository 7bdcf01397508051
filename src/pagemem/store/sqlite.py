"""The embedded default store: one SQLite file, WAL, FTS5 over recall messages.

One connection serves the process, guarded by a lock; every write runs in
BEGIN IMMEDIATE ... COMMIT so a crash leaves either the whole write or none.
Each table carries tenant, user and agent columns and every statement filters
on all three.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from pagemem.models import Block, HistoryEntry, Message, Record, Role, Scope, ToolCall
from pagemem.store.base import (
    CHANGES_KEPT,
    Collection,
    IndexRow,
    MessageFilter,
    NewRecord,
    RecordFilter,
)
from pagemem.store.common import calls_json, origin_of_role
from pagemem.store.common import text_hash as _text_hash
from pagemem.store.sqlite_admin import AdminMixin
from pagemem.store.sqlite_base import SQLiteBase
from pagemem.store.sqlite_cache import IndexCacheMixin
from pagemem.store.sqlite_facts import FactsMixin
from pagemem.store.sqlite_jobs import JobsMixin
from pagemem.store.sqlite_rows import (
    _COLLECTIONS,
    _EPOCH,
    _MESSAGE_COLUMNS,
    _RECORD_COLUMNS,
    _SCOPE_SQL,
    _block,
    _dt,
    _key,
    _message,
    _message_where,
    _record,
    _record_where,
    _scoped,
    _ts,
    match_expression,
)

__all__ = ["SQLiteStore"]


class SQLiteStore(FactsMixin, AdminMixin, JobsMixin, IndexCacheMixin, SQLiteBase):
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

    def get_records(self, scope: Scope, record_ids: Sequence[str]) -> list[Record]:
        rows = self._by_ids(f"SELECT {_RECORD_COLUMNS} FROM records r", "r", scope, record_ids)
        return [_record(row) for row in rows]

    def _by_ids(
        self, select: str, alias: str, scope: Scope, ids: Sequence[str]
    ) -> list[sqlite3.Row]:
        """Rows of the scope whose id is in `ids`, asked in chunks SQLite can bind."""
        rows: list[sqlite3.Row] = []
        for start in range(0, len(ids), 500):
            chunk = list(ids[start : start + 500])
            rows += self._read(
                f"{select} WHERE {_scoped(alias)} "
                f"AND {alias}.id IN ({', '.join('?' * len(chunk))})",
                (*_key(scope), *chunk),
            )
        return rows

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
        else:  # a message's origin follows its role; messages have no speaker metadata
            columns = "t.content, t.role, NULL, '[]', NULL, NULL, 0"
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

    def filter_record_ids(self, scope: Scope, where: RecordFilter) -> set[str]:
        clause, params = _record_where(scope, where)
        return {row[0] for row in self._read(f"SELECT r.id FROM records r WHERE {clause}", params)}

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

    def revision(self, scope: Scope, collection: Collection = "records") -> int:
        column = _COLLECTIONS[collection][5]
        rows = self._read(f"SELECT {column} FROM scopes WHERE {_SCOPE_SQL}", _key(scope))
        return int(rows[0][0]) if rows else 0

    def changes(
        self, scope: Scope, collection: Collection, after: int, until: int
    ) -> list[str] | None:
        if until - after > CHANGES_KEPT or until < after:
            return None
        rows = self._read(
            f"SELECT seq, item_id FROM changes WHERE {_SCOPE_SQL} AND collection = ? "
            "AND seq > ? AND seq <= ? ORDER BY seq",
            (*_key(scope), collection, after, until),
        )
        if [row[0] for row in rows] != list(range(after + 1, until + 1)):
            return None
        return [str(row[1]) for row in rows]

    def list_records(
        self, scope: Scope, where: RecordFilter, *, limit: int, offset: int
    ) -> list[Record]:
        clause, params = _record_where(scope, where)
        rows = self._read(
            f"SELECT {_RECORD_COLUMNS} FROM records r WHERE {clause} "
            "ORDER BY r.pk LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )
        return [_record(row) for row in rows]

    def count_records(self, scope: Scope, where: RecordFilter) -> int:
        clause, params = _record_where(scope, where)
        return int(self._read(f"SELECT count(*) FROM records r WHERE {clause}", params)[0][0])

    def delete_record(self, scope: Scope, record_id: str, *, actor: str, at: datetime) -> bool:
        return self.delete_records(scope, [record_id], actor=actor, at=at) == 1

    def delete_records(
        self, scope: Scope, record_ids: Sequence[str], *, actor: str, at: datetime
    ) -> int:
        removed = 0
        with self._write() as conn:
            for record_id in dict.fromkeys(record_ids):
                deleted = conn.execute(
                    f"DELETE FROM records WHERE {_SCOPE_SQL} AND id = ? RETURNING quarantined",
                    (*_key(scope), record_id),
                ).fetchone()
                if deleted is None:
                    continue
                removed += 1
                if not deleted[0]:  # a held record was never part of the searchable collection
                    self._bump_revision(conn, scope, [record_id])
                # The history keeps that the record existed, never what it said.
                conn.execute(
                    f"UPDATE history SET before = NULL, after = NULL "
                    f"WHERE {_SCOPE_SQL} AND target = 'record' AND target_id = ?",
                    (*_key(scope), record_id),
                )
                self._log(
                    conn,
                    scope,
                    at=at,
                    op="delete",
                    target="record",
                    target_id=record_id,
                    before=None,
                    after=None,
                    actor=actor,
                )
        return removed

    # messages

    def append_message(
        self,
        scope: Scope,
        *,
        role: Role,
        content: str,
        created_at: datetime,
        name: str | None = None,
        tool_call_id: str | None = None,
        extract: bool = False,
        tool_calls: Sequence[ToolCall] = (),
    ) -> Message:
        with self._write() as conn:
            seq = self._next_id(conn, scope, "next_message")
            message_id = f"m{seq}"
            conn.execute(
                "INSERT INTO messages (tenant_id, user_id, agent_id, id, seq, role, content, "
                "text_hash, name, tool_call_id, created_at, extract_pending, tool_calls) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    *_key(scope),
                    message_id,
                    seq,
                    role,
                    content,
                    _text_hash(content),
                    name,
                    tool_call_id,
                    _ts(created_at),
                    int(extract),
                    calls_json(tool_calls),
                ),
            )
        return Message(
            id=message_id,
            role=role,
            content=content,
            created_at=created_at,
            seq=seq,
            name=name,
            tool_call_id=tool_call_id,
            tool_calls=tuple(tool_calls),
        )

    def context_messages(self, scope: Scope) -> list[Message]:
        rows = self._read(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages m "
            f"WHERE {_scoped('m')} AND m.in_context = 1 ORDER BY m.seq",
            _key(scope),
        )
        return [_message(row) for row in rows]

    def evict_messages(
        self, scope: Scope, message_ids: Sequence[str], *, at: datetime
    ) -> list[Message]:
        moved: list[Message] = []
        with self._write() as conn:
            for message_id in message_ids:
                row = conn.execute(
                    "UPDATE messages SET in_context = 0, evicted_at = ? "
                    f"WHERE {_SCOPE_SQL} AND id = ? AND in_context = 1 "
                    f"RETURNING {_MESSAGE_COLUMNS.replace('m.', '')}",
                    (_ts(at), *_key(scope), message_id),
                ).fetchone()
                if row is not None:
                    moved.append(_message(row))
            self._bump_revision(conn, scope, [m.id for m in moved], "recall")
        return moved

    def get_messages(self, scope: Scope, message_ids: Sequence[str]) -> list[Message]:
        rows = self._by_ids(f"SELECT {_MESSAGE_COLUMNS} FROM messages m", "m", scope, message_ids)
        return [_message(row) for row in rows]

    def filter_message_ids(self, scope: Scope, where: MessageFilter) -> set[str]:
        clause, params = _message_where(scope, where)
        return {row[0] for row in self._read(f"SELECT m.id FROM messages m WHERE {clause}", params)}

    def search_messages(
        self, scope: Scope, terms: Sequence[str], where: MessageFilter, *, limit: int
    ) -> list[Message]:
        expression = match_expression(terms)
        if not expression:
            return []
        clause, params = _message_where(scope, where)
        rows = self._read(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages_fts "
            "JOIN messages m ON m.pk = messages_fts.rowid "
            f"WHERE messages_fts MATCH ? AND {clause} ORDER BY m.seq DESC LIMIT ?",
            (expression, *params, limit),
        )
        return [_message(row) for row in rows]

    def count_messages(self, scope: Scope, *, in_context: bool | None = None) -> int:
        sql = f"SELECT count(*) FROM messages m WHERE {_scoped('m')}"
        params: list[Any] = list(_key(scope))
        if in_context is not None:
            sql += " AND m.in_context = ?"
            params.append(int(in_context))
        return int(self._read(sql, params)[0][0])

    # summary

    def get_summary(self, scope: Scope) -> tuple[str, tuple[str, ...]]:
        rows = self._read(
            f"SELECT summary, summary_sources FROM scopes WHERE {_SCOPE_SQL}", _key(scope)
        )
        if not rows:
            return "", ()
        return rows[0]["summary"], tuple(json.loads(rows[0]["summary_sources"]))

    def set_summary(self, scope: Scope, text: str, sources: Sequence[str], *, at: datetime) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO scopes (tenant_id, user_id, agent_id, summary, summary_sources, "
                "summary_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET "
                "summary = excluded.summary, summary_sources = excluded.summary_sources, "
                "summary_at = excluded.summary_at",
                (*_key(scope), text, json.dumps(list(sources)), _ts(at)),
            )

    # blocks

    def get_block(self, scope: Scope, label: str) -> Block | None:
        rows = self._read(
            f"SELECT * FROM blocks WHERE {_SCOPE_SQL} AND label = ?", (*_key(scope), label)
        )
        return _block(rows[0]) if rows else None

    def list_blocks(self, scope: Scope) -> list[Block]:
        rows = self._read(f"SELECT * FROM blocks WHERE {_SCOPE_SQL} ORDER BY label", _key(scope))
        return [_block(row) for row in rows]

    def set_block(
        self,
        scope: Scope,
        label: str,
        value: str,
        *,
        limit: int,
        description: str,
        at: datetime,
        actor: str,
    ) -> Block:
        with self._write() as conn:
            old = conn.execute(
                f"SELECT value FROM blocks WHERE {_SCOPE_SQL} AND label = ?",
                (*_key(scope), label),
            ).fetchone()
            conn.execute(
                "INSERT INTO blocks (tenant_id, user_id, agent_id, label, value, token_limit, "
                "description, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT DO UPDATE SET value = excluded.value, "
                "token_limit = excluded.token_limit, description = excluded.description, "
                "updated_at = excluded.updated_at",
                (*_key(scope), label, value, limit, description, _ts(at)),
            )
            self._log(
                conn,
                scope,
                at=at,
                op="set",
                target="block",
                target_id=label,
                before=None if old is None else old["value"],
                after=value,
                actor=actor,
            )
        return Block(label=label, value=value, limit=limit, updated_at=at, description=description)

    def delete_block(self, scope: Scope, label: str, *, actor: str, at: datetime) -> bool:
        with self._write() as conn:
            old = conn.execute(
                f"DELETE FROM blocks WHERE {_SCOPE_SQL} AND label = ? RETURNING value",
                (*_key(scope), label),
            ).fetchone()
            if old is None:
                return False
            self._log(
                conn,
                scope,
                at=at,
                op="delete",
                target="block",
                target_id=label,
                before=old["value"],
                after=None,
                actor=actor,
            )
        return True

    # history

    def history(
        self, scope: Scope, *, target_id: str | None = None, limit: int = 1000
    ) -> list[HistoryEntry]:
        sql = f"SELECT * FROM history WHERE {_SCOPE_SQL}"
        params: list[Any] = list(_key(scope))
        if target_id is not None:
            sql += " AND target_id = ?"
            params.append(target_id)
        rows = self._read(sql + " ORDER BY seq LIMIT ?", (*params, limit))
        return [
            HistoryEntry(
                seq=row["seq"],
                at=cast(datetime, _dt(row["at"])),
                op=row["op"],
                target=row["target"],
                target_id=row["target_id"],
                before=row["before"],
                after=row["after"],
                actor=row["actor"],
            )
            for row in rows
        ]

    def delete_messages(
        self, scope: Scope, message_ids: Sequence[str], *, actor: str, at: datetime
    ) -> int:
        removed = 0
        with self._write() as conn:
            for message_id in message_ids:
                row = conn.execute(
                    f"DELETE FROM messages WHERE {_SCOPE_SQL} AND id = ? RETURNING in_context",
                    (*_key(scope), message_id),
                ).fetchone()
                if row is None:
                    continue
                removed += 1
                if not row[0]:  # it was in recall: recall's indexes follow
                    self._bump_revision(conn, scope, [message_id], "recall")
                self._log(
                    conn,
                    scope,
                    at=at,
                    op="delete",
                    target="message",
                    target_id=message_id,
                    before=None,
                    after=None,
                    actor=actor,
                )
        return removed
