"""A scope's messages: appended in context, evicted to recall, counted, deleted; and
the history of every write. The same statements on both backends (see
`store/sql_core.py`); full-text search over messages is each backend's own."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pagemem.models import HistoryEntry, Message, Role, Scope, ToolCall
from pagemem.store.base import MessageFilter
from pagemem.store.common import calls_json, text_hash
from pagemem.store.sql_core import SCOPE_SQL, SQLCore, chunks, key, scoped

__all__ = ["MessagesMixin"]


class MessagesMixin(SQLCore):
    def _message_where(self, scope: Scope, where: MessageFilter) -> tuple[str, list[Any]]:
        """Evicted messages of the scope that pass the filter: a condition (with ?
        placeholders, as every shared statement) and its parameters."""
        d = self.dialect
        parts, params = [scoped("m"), f"m.in_context = {d.false}"], list[Any](key(scope))
        if where.roles:
            among, values = d.among("m.role", where.roles)
            parts.append(among)
            params.extend(values)
        if where.start is not None:
            parts.append("m.created_at >= ?")
            params.append(d.time(where.start))
        if where.end is not None:
            parts.append("m.created_at < ?")
            params.append(d.time(where.end))
        return " AND ".join(parts), params

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
        with self._transaction(scope) as conn:
            seq = self._next_id(conn, scope, "next_message")
            message_id = f"m{seq}"
            self._run(
                conn,
                "INSERT INTO messages (tenant_id, user_id, agent_id, id, seq, role, content, "
                "text_hash, name, tool_call_id, created_at, extract_pending, tool_calls) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    *key(scope),
                    message_id,
                    seq,
                    role,
                    content,
                    text_hash(content),
                    name,
                    tool_call_id,
                    self.dialect.time(created_at),
                    self.dialect.flag(extract),
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
        rows = self._select(
            scope,
            f"SELECT {self.message_columns} FROM messages m "
            f"WHERE {scoped('m')} AND m.in_context = {self.dialect.true} ORDER BY m.seq",
            key(scope),
        )
        return [self._message_of(row) for row in rows]

    def evict_messages(
        self, scope: Scope, message_ids: Sequence[str], *, at: datetime
    ) -> list[Message]:
        rows: list[Any] = []
        with self._transaction(scope) as conn:
            for chunk in chunks(list(dict.fromkeys(message_ids))):
                among, values = self.dialect.among("id", chunk)
                rows += self._run(
                    conn,
                    f"UPDATE messages SET in_context = {self.dialect.false}, evicted_at = ? "
                    f"WHERE {SCOPE_SQL} AND {among} AND in_context = {self.dialect.true} "
                    f"RETURNING {self.message_columns.replace('m.', '')}",
                    (self.dialect.time(at), *key(scope), *values),
                ).fetchall()
            order = {message_id: n for n, message_id in enumerate(message_ids)}
            moved = sorted((self._message_of(row) for row in rows), key=lambda m: order[m.id])
            self._bump_revision(conn, scope, [m.id for m in moved], "recall")
        return moved

    def get_messages(self, scope: Scope, message_ids: Sequence[str]) -> list[Message]:
        rows: list[Any] = []
        for chunk in chunks(message_ids):
            among, values = self.dialect.among("m.id", chunk)
            rows += self._select(
                scope,
                f"SELECT {self.message_columns} FROM messages m WHERE {scoped('m')} AND {among}",
                (*key(scope), *values),
            )
        return [self._message_of(row) for row in rows]

    def filter_message_ids(self, scope: Scope, where: MessageFilter) -> set[str]:
        clause, params = self._message_where(scope, where)
        rows = self._select(scope, f"SELECT m.id FROM messages m WHERE {clause}", params)
        return {row["id"] for row in rows}

    def count_messages(self, scope: Scope, *, in_context: bool | None = None) -> int:
        sql = f"SELECT count(*) AS n FROM messages m WHERE {scoped('m')}"
        params: list[Any] = list(key(scope))
        if in_context is not None:
            sql += " AND m.in_context = ?"
            params.append(self.dialect.flag(in_context))
        return int(self._select(scope, sql, params)[0]["n"])

    def delete_messages(
        self, scope: Scope, message_ids: Sequence[str], *, actor: str, at: datetime
    ) -> int:
        rows: list[Any] = []
        with self._transaction(scope) as conn:
            for chunk in chunks(list(dict.fromkeys(message_ids))):
                among, values = self.dialect.among("id", chunk)
                rows += self._run(
                    conn,
                    f"DELETE FROM messages WHERE {SCOPE_SQL} AND {among} RETURNING id, in_context",
                    (*key(scope), *values),
                ).fetchall()
            # evicted ones were in recall: recall's indexes follow
            self._bump_revision(
                conn, scope, [r["id"] for r in rows if not r["in_context"]], "recall"
            )
            for row in rows:
                self._log(
                    conn,
                    scope,
                    at=at,
                    op="delete",
                    target="message",
                    target_id=row["id"],
                    before=None,
                    after=None,
                    actor=actor,
                )
        return len(rows)

    def history(
        self,
        scope: Scope,
        *,
        target_id: str | None = None,
        op: str | None = None,
        limit: int = 1000,
        newest_first: bool = False,
    ) -> list[HistoryEntry]:
        sql = f"SELECT * FROM history WHERE {SCOPE_SQL}"
        params: list[Any] = list(key(scope))
        for column, value in (("target_id", target_id), ("op", op)):
            if value is not None:
                sql += f" AND {column} = ?"
                params.append(value)
        order = "DESC" if newest_first else "ASC"
        rows = self._select(scope, sql + f" ORDER BY seq {order} LIMIT ?", (*params, limit))
        return [
            HistoryEntry(
                seq=row["seq"],
                at=self.dialect.time_out(row["at"]),
                op=row["op"],
                target=row["target"],
                target_id=row["target_id"],
                before=row["before"],
                after=row["after"],
                actor=row["actor"],
            )
            for row in rows
        ]
