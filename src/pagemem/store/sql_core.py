"""The SQL both backends run, written once over a small dialect.

A backend supplies a `Dialect` (placeholders, how a time, a flag and stored JSON are
passed, the few functions that are spelled differently) and its hooks: a write
transaction, a read, and the columns a record or message row is read from (turning the
row into a `Record` or `Message` is shared). Hooks are defined here, last in the method
order, so a backend's own definitions win over these.
Everything written on top of those (the history log, the change feed, id counters, and
the parts of the store that run the same statements, such as `store/sql_facts.py`)
lives here once. What really differs stays in the backend: schema, full-text and
vector search, job claiming, locks, connections.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, cast

from pagemem.models import Kind, Message, Origin, Record, Role, Scope, ToolCall
from pagemem.store.announce import Announcer
from pagemem.store.base import CHANGES_KEPT, Collection, NewRecord, ScopeDump
from pagemem.store.common import scope_of

__all__ = ["Dialect", "SQLCore"]

SCOPE_SQL = "tenant_id = ? AND user_id = ? AND agent_id = ?"


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one database spells what the shared statements need."""

    name: str
    pyformat: bool  # placeholders are %s (psycopg), not ? (sqlite3)
    greatest: str  # the larger of two values: max() in SQLite, greatest() in PostgreSQL
    false: str  # a false flag as a literal
    true: str
    time_param: str  # a time parameter whose type must be known even when NULL
    lock_row: str  # appended to a SELECT that reads a row it is about to update
    binary: str  # appended to ORDER BY for byte order, whatever the database's locale
    find: str  # where a substring starts in a string (0: absent): instr(), strpos()
    duplicate: tuple[type[Exception], ...]  # what a unique key's violation raises
    epoch: str  # a stored time as POSIX seconds, "{}" the column
    json_text: str  # a text field of a stored JSON object, "{0}" the column, "{1}" the field

    def sql(self, text: str) -> str:
        """A shared statement (written with ? placeholders) in this dialect."""
        return _pyformat(text) if self.pyformat else text

    def time(self, value: datetime) -> Any:
        if value.tzinfo is None:
            raise ValueError("timestamps given to the store must be timezone-aware")
        if self.pyformat:
            return value
        # fixed width ("0999-...", always microseconds): text order is time order
        return value.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")

    def time_out(self, stored: Any) -> datetime:
        """A stored time as a datetime (SQLite keeps ISO text)."""
        return datetime.fromisoformat(stored) if isinstance(stored, str) else stored

    def maybe_time_out(self, stored: Any) -> datetime | None:
        return None if stored is None else self.time_out(stored)

    def json_list(self, stored: Any) -> list[Any]:
        """A stored JSON array as a list."""
        if stored == "[]":  # most flags and tags: no parse
            return []
        return list(json.loads(stored) if isinstance(stored, str) else stored)

    def flag(self, value: bool) -> Any:
        return value if self.pyformat else int(value)

    def json_value(self, stored: Any) -> dict[str, Any]:
        """A stored JSON object as a dict (SQLite keeps text, PostgreSQL jsonb)."""
        if stored == "{}":
            return {}
        value = json.loads(stored) if isinstance(stored, str) else stored
        return dict(value)

    def among(self, column: str, values: Sequence[str]) -> tuple[str, list[Any]]:
        """`column` is one of `values`: the condition and its parameters."""
        if self.pyformat:
            return f"{column} = ANY(?)", [list(values)]
        return f"{column} IN ({', '.join('?' * len(values))})", list(values)


@lru_cache(maxsize=512)
def _pyformat(text: str) -> str:
    return text.replace("%", "%%").replace("?", "%s")


def key(scope: Scope) -> tuple[str, str, str]:
    return (scope.tenant, scope.user, scope.agent or "")


def scoped(alias: str) -> str:
    return f"{alias}.tenant_id = ? AND {alias}.user_id = ? AND {alias}.agent_id = ?"


class SQLCore:
    """What both SQL stores run the same way; each backend sets the dialect and hooks."""

    dialect: Dialect
    announcer: Announcer
    record_columns: str  # the columns `_record_of` reads, from records aliased r
    message_columns: str  # the columns `_message_of` reads, from messages aliased m

    # hooks

    # told after a commit that a scope's collections changed past what the feed lists
    # (Announces provides it; declared, not defined, so it stays Announces')
    _changed_whole: Callable[[Scope], None]

    def _transaction(self, owner: Scope | str | None) -> AbstractContextManager[Any]:
        """One write transaction for a scope or a tenant (None: admin work across them)."""
        raise NotImplementedError

    def _rows(self, owner: Scope | str | None, sql: str, params: Sequence[Any]) -> list[Any]:
        """The rows of one read, by column name."""
        raise NotImplementedError

    def _record_of(self, row: Any) -> Record:
        """A records row (the `record_columns`) as a Record, whatever the backend."""
        d = self.dialect
        return Record(
            id=row["id"],
            scope=scope_of(row["tenant_id"], row["user_id"], row["agent_id"]),
            text=row["text"],
            kind=cast(Kind, row["kind"]),
            origin=cast(Origin, row["origin"]),
            source=row["source"],
            created_at=d.time_out(row["created_at"]),
            valid_from=d.time_out(row["valid_from"]),
            valid_to=d.maybe_time_out(row["valid_to"]),
            tags=tuple(d.json_list(row["tags"])),
            metadata=d.json_value(row["metadata"]),
            flags=tuple(d.json_list(row["flags"])),
            quarantined=bool(row["quarantined"]),
            key=row["fact_key"],
            expired_at=d.maybe_time_out(row["expired_at"]),
            superseded_by=row["superseded_by"],
            mentions=row["mentions"],
            consolidation=row["consolidation"],
            consolidated_with=row["consolidated_with"],
        )

    def _message_of(self, row: Any) -> Message:
        """A messages row (the `message_columns`) as a Message."""
        d = self.dialect
        return Message(
            id=row["id"],
            role=cast(Role, row["role"]),
            content=row["content"],
            created_at=d.time_out(row["created_at"]),
            seq=row["seq"],
            name=row["name"],
            tool_call_id=row["tool_call_id"],
            in_context=bool(row["in_context"]),
            evicted_at=d.maybe_time_out(row["evicted_at"]),
            tool_calls=tuple(ToolCall(**call) for call in d.json_list(row["tool_calls"] or [])),
        )

    def _insert_records_in(
        self, conn: Any, scope: Scope, records: Sequence[NewRecord], *, actor: str
    ) -> list[Record]:
        """Insert notes inside the caller's transaction (how rows are written differs)."""
        raise NotImplementedError

    def _restore_records(self, conn: Any, scope: Scope, dump: ScopeDump) -> None:
        """Write a dump's records as they were (ids, mentions, links), in the caller's
        transaction."""
        raise NotImplementedError

    def _tagged(self, tags: Sequence[str]) -> tuple[str, list[Any]]:
        """A condition on records aliased r: carries any of these tags."""
        raise NotImplementedError

    # shared

    def _run(self, conn: Any, sql: str, params: Sequence[Any]) -> Any:
        return conn.execute(self.dialect.sql(sql), params)

    def _select(self, owner: Scope | str | None, sql: str, params: Sequence[Any]) -> list[Any]:
        return self._rows(owner, self.dialect.sql(sql), params)

    def _log(
        self,
        conn: Any,
        scope: Scope,
        *,
        at: datetime,
        op: str,
        target: str,
        target_id: str,
        before: str | None,
        after: str | None,
        actor: str,
    ) -> None:
        """One history row, in the caller's transaction."""
        self._run(
            conn,
            "INSERT INTO history (tenant_id, user_id, agent_id, at, op, target, target_id, "
            "before, after, actor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*key(scope), self.dialect.time(at), op, target, target_id, before, after, actor),
        )

    def _next_id(self, conn: Any, scope: Scope, counter: str, count: int = 1) -> int:
        """Reserve `count` numbers of a per-scope counter; return the last one (the row
        this updates orders concurrent writers of one scope)."""
        self._run(
            conn,
            "INSERT INTO scopes (tenant_id, user_id, agent_id) VALUES (?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            key(scope),
        )
        row = self._run(
            conn,
            f"UPDATE scopes SET {counter} = {counter} + ? WHERE {SCOPE_SQL} "
            f"RETURNING {counter} AS n",
            (count, *key(scope)),
        ).fetchone()
        return int(row["n"])

    def _bump_revision(
        self, conn: Any, scope: Scope, items: Sequence[str], collection: str = "records"
    ) -> None:
        """Move the collection's revision one step per changed item and log each step in
        the change feed, in the caller's transaction."""
        if not items:
            return
        column = "record_revision" if collection == "records" else "message_revision"
        row = self._run(
            conn,
            f"UPDATE scopes SET {column} = {column} + ? WHERE {SCOPE_SQL} RETURNING {column} AS n",
            (len(items), *key(scope)),
        ).fetchone()
        last = int(row["n"])
        first = last - len(items) + 1
        statement = self.dialect.sql(
            "INSERT INTO changes (tenant_id, user_id, agent_id, collection, seq, item_id) "
            "VALUES (?, ?, ?, ?, ?, ?)"
        )
        steps = [(*key(scope), collection, first + i, item) for i, item in enumerate(items)]
        execute_many(conn, statement, steps)
        self.announcer.stage(scope, collection, items)
        if last // CHANGES_KEPT != (first - 1) // CHANGES_KEPT:  # now and then, trim
            self._run(
                conn,
                f"DELETE FROM changes WHERE {SCOPE_SQL} AND collection = ? AND seq <= ?",
                (*key(scope), collection, last - CHANGES_KEPT),
            )

    def revision(self, scope: Scope, collection: Collection = "records") -> int:
        column = "record_revision" if collection == "records" else "message_revision"
        rows = self._select(
            scope, f"SELECT {column} AS n FROM scopes WHERE {SCOPE_SQL}", key(scope)
        )
        return int(rows[0]["n"]) if rows else 0

    def changes(
        self, scope: Scope, collection: Collection, after: int, until: int
    ) -> list[str] | None:
        if until - after > CHANGES_KEPT or until < after:
            return None
        rows = self._select(
            scope,
            f"SELECT seq, item_id FROM changes WHERE {SCOPE_SQL} AND collection = ? "
            "AND seq > ? AND seq <= ? ORDER BY seq",
            (*key(scope), collection, after, until),
        )
        if [int(row["seq"]) for row in rows] != list(range(after + 1, until + 1)):
            return None  # trimmed, or a step no row names (forget, restore): rebuild
        return [str(row["item_id"]) for row in rows]

    def get_record(self, scope: Scope, record_id: str) -> Record | None:
        rows = self._select(
            scope,
            f"SELECT {self.record_columns} FROM records r WHERE {scoped('r')} AND r.id = ?",
            (*key(scope), record_id),
        )
        return self._record_of(rows[0]) if rows else None


def execute_many(conn: Any, statement: str, rows: list[tuple[Any, ...]]) -> None:
    """executemany on a sqlite3 connection, or through a psycopg cursor."""
    if hasattr(conn, "executemany"):
        conn.executemany(statement, rows)
        return
    with conn.cursor() as cursor:
        cursor.executemany(statement, rows)


def chunks(values: Sequence[str], size: int = 500) -> Iterator[Sequence[str]]:
    """Values in groups a statement can bind."""
    for start in range(0, len(values), size):
        yield values[start : start + size]
