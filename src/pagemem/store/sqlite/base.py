"""Plumbing every part of the SQLite store shares: the connection, migrations, writes.

One connection serves the process, guarded by a lock; every write runs in
BEGIN IMMEDIATE ... COMMIT so a crash leaves either the whole write or none.
"""

from __future__ import annotations

import fcntl
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from pagemem.models import Record, Scope
from pagemem.store.announce import Announcer, Announces
from pagemem.store.base import NewRecord, ScopeDump
from pagemem.store.common import stored
from pagemem.store.sql_core import Dialect, SQLCore
from pagemem.store.sqlite.rows import (
    _MESSAGE_COLUMNS,
    _RECORD_COLUMNS,
    _key,
    insert_record_row,
)
from pagemem.store.sqlite.schema import MIGRATIONS

__all__ = ["SQLITE", "SQLiteBase"]

SQLITE = Dialect(
    name="sqlite",
    pyformat=False,
    greatest="max",
    false="0",
    true="1",
    time_param="?",
    lock_row="",  # a write transaction holds the whole file
    binary="",  # text compares by bytes unless told otherwise
    find="instr",
    duplicate=(sqlite3.IntegrityError,),
    epoch="((julianday({}) - 2440587.5) * 86400.0)",  # stored as ISO text
    json_text="json_extract({0}, '$.{1}')",
)


class SQLiteBase(SQLCore, Announces):
    """The connection and the helpers the store's parts build on."""

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        self.announcer = Announcer()  # tells this process's indexes what each write changed
        self._lock = threading.RLock()
        self._scope_locks: dict[tuple[str, str, str], threading.Lock] = {}
        self._conn = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=30.0
        )
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA foreign_keys = ON")
        self._conn.execute("PRAGMA secure_delete = ON")
        if self.path != ":memory:":
            self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.execute("PRAGMA synchronous = FULL")
        self._migrate()

    # plumbing

    dialect = SQLITE
    record_columns = _RECORD_COLUMNS

    def _transaction(self, owner: Scope | str | None) -> AbstractContextManager[sqlite3.Connection]:
        return self._write()

    def _rows(self, owner: Scope | str | None, sql: str, params: Sequence[Any]) -> list[Any]:
        return self._read(sql, params)

    message_columns = _MESSAGE_COLUMNS

    def _restore_records(self, conn: Any, scope: Scope, dump: ScopeDump) -> None:
        for record in dump.records:
            insert_record_row(conn, scope, record.id, record, mentions=record.mentions)

    def _tagged(self, tags: Sequence[str]) -> tuple[str, list[Any]]:
        """Notes carrying any of these tags (a table beside the records)."""
        among, values = self.dialect.among("tag", tags)
        return f"r.pk IN (SELECT record_pk FROM record_tags WHERE {among})", values

    def _migrate(self) -> None:
        with self._lock:
            version = self._conn.execute("PRAGMA user_version").fetchone()[0]
            if version > len(MIGRATIONS):
                raise RuntimeError(
                    f"{self.path} has schema version {version}; this pagemem knows "
                    f"{len(MIGRATIONS)}. Upgrade pagemem to open it."
                )
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                # executescript commits on its own; the version bump rides in the script.
                self._conn.executescript(
                    f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
                )

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self.announcer.transaction(), self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _read(self, sql: str, params: Sequence[Any]) -> list[sqlite3.Row]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def scope_lock(self, scope: Scope) -> Iterator[None]:
        """A lock per scope for this process's threads, and for a file a lock on a file
        beside it, which other processes opening the same memory take too."""
        with self._lock:
            lock = self._scope_locks.setdefault(_key(scope), threading.Lock())
        with lock:
            if self.path == ":memory:":
                yield
                return
            with open(self.path + "-lock", "a") as handle:
                fcntl.flock(handle, fcntl.LOCK_EX)
                try:
                    yield
                finally:
                    fcntl.flock(handle, fcntl.LOCK_UN)

    def _insert_records_in(
        self, conn: sqlite3.Connection, scope: Scope, records: Sequence[NewRecord], *, actor: str
    ) -> list[Record]:
        """Insert inside the caller's transaction."""
        if not records:
            return []
        kept: list[Record] = []
        last = self._next_id(conn, scope, "next_record", len(records))
        for number, record in enumerate(records, start=last - len(records) + 1):
            record_id = f"a{number}"
            insert_record_row(conn, scope, record_id, record)
            self._log(
                conn,
                scope,
                at=record.created_at,
                op="insert",
                target="record",
                target_id=record_id,
                before=None,
                after=record.text,
                actor=actor,
            )
            kept.append(stored(record_id, scope, record))
        self._bump_revision(conn, scope, [r.id for r in kept if not r.quarantined])
        return kept
