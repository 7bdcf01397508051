"""Plumbing every part of the PostgreSQL store shares: the pool, tenant-bound transactions.

Every method runs in one transaction on a pooled connection, and every
transaction first binds `pagemem.tenant` to the scope's tenant, which the
row-level security policies check. Queries still filter on the whole scope;
the policy is the net under them.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Any, cast

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from pagemem.errors import InvalidInputError
from pagemem.models import Record, Scope
from pagemem.store.announce import Announcer, Announces
from pagemem.store.base import Collection, NewRecord, ScopeDump
from pagemem.store.common import stored, text_hash
from pagemem.store.postgres.schema import APP_ROLE, migrate
from pagemem.store.sql_core import SCOPE_SQL as SHARED_SCOPE_SQL
from pagemem.store.sql_core import Dialect, SQLCore
from pagemem.store.sql_index import COLLECTIONS

__all__ = ["ANY_TENANT", "PostgresBase"]

ANY_TENANT = "*"  # admin work (job queue, key lookup, scope list) sees every tenant
SCOPE_SQL = "tenant_id = %s AND user_id = %s AND agent_id = %s"
RECORD_COLUMNS = (
    "r.tenant_id, r.user_id, r.agent_id, r.id, r.text, r.kind, r.origin, r.source, "
    "r.created_at, r.valid_from, r.valid_to, r.tags, r.metadata, r.flags, r.quarantined, "
    "r.fact_key, r.expired_at, r.superseded_by, r.mentions, r.consolidation, r.consolidated_with"
)
MESSAGE_COLUMNS = (
    "m.id, m.role, m.content, m.created_at, m.seq, m.name, m.tool_call_id, m.in_context, "
    "m.evicted_at, m.tool_calls"
)
Row = dict[str, Any]

POSTGRES = Dialect(
    name="postgres",
    pyformat=True,
    greatest="greatest",
    false="false",
    true="true",
    time_param="CAST(? AS timestamptz)",  # a NULL parameter needs its type said
    lock_row=" FOR UPDATE",
    binary=' COLLATE "C"',
    find="strpos",
    duplicate=(psycopg.errors.UniqueViolation,),
    epoch="extract(epoch FROM {})::float8",
    json_text="{0} ->> '{1}'",
)


def _tenant(owner: Scope | str | None) -> str:
    """The tenant a transaction is bound to (row-level security), ANY_TENANT for admin."""
    if owner is None:
        return ANY_TENANT
    return owner if isinstance(owner, str) else owner.tenant


def key(scope: Scope) -> tuple[str, str, str]:
    return (scope.tenant, scope.user, scope.agent or "")


def scoped(alias: str) -> str:
    return f"{alias}.tenant_id = %s AND {alias}.user_id = %s AND {alias}.agent_id = %s"


def aware(value: datetime) -> datetime:
    if value.tzinfo is None:
        raise ValueError("timestamps given to the store must be timezone-aware")
    return value


def tsquery(terms: Sequence[str]) -> str:
    """A tsquery that ORs the terms, each quoted so no user text is syntax."""
    quoted = []
    for term in terms:
        clean = "".join(ch for ch in term if ch.isalnum() or ch == "_")
        if clean:
            quoted.append("'" + clean + "'")
    return " | ".join(quoted)


def vector_param(blob: bytes) -> np.ndarray[Any, np.dtype[np.float32]]:
    return np.frombuffer(blob, dtype=np.float32)


class PostgresBase(SQLCore, Announces):
    """The pool and the helpers the store's parts build on."""

    dialect = POSTGRES
    record_columns = RECORD_COLUMNS

    def _transaction(self, owner: Scope | str | None) -> AbstractContextManager[Any]:
        return self._tx(_tenant(owner))

    def _rows(self, owner: Scope | str | None, sql: str, params: Sequence[Any]) -> list[Any]:
        with self._tx(_tenant(owner)) as conn:
            return conn.execute(sql, params).fetchall()

    message_columns = MESSAGE_COLUMNS

    def _restore_records(self, conn: Any, scope: Scope, dump: ScopeDump) -> None:
        with conn.cursor() as cursor:
            cursor.executemany(
                INSERT_RECORD,
                [record_params(scope, r.id, r, mentions=r.mentions) for r in dump.records],
            )

    def _tagged(self, tags: Sequence[str]) -> tuple[str, list[Any]]:
        """Notes carrying any of these tags (an array column)."""
        return "r.tags && CAST(? AS text[])", [list(tags)]

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 16) -> None:
        self.url = url
        self.announcer = Announcer()  # tells this process's indexes what each write changed
        self._local = threading.local()
        self._builds: dict[str, threading.Thread] = {}  # vector index name -> its builder
        self._builds_lock = threading.Lock()
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                migrate(conn)
                self._act_as = _acting_role(conn)
        except psycopg.OperationalError as exc:
            raise InvalidInputError(f"cannot connect to PostgreSQL: {exc}".strip()) from None
        self._pool = ConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            configure=self._configure,
            kwargs={"row_factory": dict_row},
            open=True,
        )

    def _configure(self, conn: psycopg.Connection[Any]) -> None:
        register_vector(conn)
        conn.execute("SET TIME ZONE 'UTC'")
        if self._act_as:
            conn.execute(f"SET ROLE {self._act_as}")
        conn.commit()

    @contextmanager
    def _tx(self, tenant: str) -> Iterator[psycopg.Connection[Row]]:
        """One transaction bound to a tenant (ANY_TENANT for admin work). A thread that
        holds a scope lock works on the connection holding it, so it never waits on the
        pool for a second one."""
        held: psycopg.Connection[Row] | None = getattr(self._local, "conn", None)
        with self.announcer.transaction():
            if held is not None:
                with held.transaction():
                    held.execute("SELECT set_config('pagemem.tenant', %s, true)", (tenant,))
                    yield held
                return
            try:
                with self._pool.connection() as conn:
                    conn.execute("SELECT set_config('pagemem.tenant', %s, true)", (tenant,))
                    yield cast(psycopg.Connection[Row], conn)
            except psycopg.DataError as exc:  # a value PostgreSQL cannot hold; nothing written
                raise InvalidInputError(f"PostgreSQL refused a value: {exc}".strip()) from None

    @contextmanager
    def scope_lock(self, scope: Scope) -> Iterator[None]:
        """Hold the scope's write lock (a session advisory lock) across a read-decide-write,
        so writers in other processes and threads wait instead of racing."""
        name = "pagemem-scope\x1f" + "\x1f".join(key(scope))
        if getattr(self._local, "conn", None) is not None:  # nested: locks are re-entrant
            conn = self._local.conn
            conn.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (name,))
            conn.commit()
            try:
                yield
            finally:
                conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (name,))
                conn.commit()
            return
        with self._pool.connection() as conn:
            conn.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (name,))
            conn.commit()
            self._local.conn = conn
            try:
                yield
            finally:
                self._local.conn = None
                conn.rollback()
                conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (name,))
                conn.commit()

    def _read(self, scope: Scope | None, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with self._tx(scope.tenant if scope is not None else ANY_TENANT) as conn:
            return conn.execute(sql, params).fetchall()

    def _insert_records_in(
        self,
        conn: psycopg.Connection[Row],
        scope: Scope,
        records: Sequence[NewRecord],
        *,
        actor: str,
    ) -> list[Record]:
        """Insert inside the caller's transaction."""
        if not records:
            return []
        last = self._next_id(conn, scope, "next_record", len(records))
        ids = [f"a{n}" for n in range(last - len(records) + 1, last + 1)]
        pairs = list(zip(ids, records, strict=True))
        with conn.cursor() as cursor:
            cursor.executemany(INSERT_RECORD, [record_params(scope, i, r) for i, r in pairs])
            cursor.executemany(
                "INSERT INTO history (tenant_id, user_id, agent_id, at, op, target, target_id, "
                "before, after, actor) VALUES (%s, %s, %s, %s, 'insert', 'record', %s, NULL, "
                "%s, %s)",
                [(*key(scope), r.created_at, i, r.text, actor) for i, r in pairs],
            )
            with_vectors = [(i, r.vector) for i, r in pairs if r.vector is not None]
            if with_vectors:
                cursor.executemany(
                    POSTGRES.sql(upsert_vector("records")),
                    [
                        (model, vector_param(blob), *key(scope), i)
                        for i, (model, blob) in with_vectors
                    ],
                )
        self._bump_revision(conn, scope, [i for i, r in pairs if not r.quarantined])
        return [stored(record_id, scope, r) for record_id, r in pairs]

    def close(self) -> None:
        self._pool.close()


def upsert_vector(collection: Collection) -> str:
    """Store (or replace) an item's vector, the item named by id (? placeholders, as
    every shared statement). Parameters: model id, vector, the scope's three parts,
    the item's id."""
    tables = COLLECTIONS[collection]
    table, vector_table, fk = tables.rows, tables.vectors, tables.key
    return (
        f"INSERT INTO {vector_table} ({fk}, model_id, tenant_id, user_id, agent_id, "
        f"embedding) SELECT pk, ?, tenant_id, user_id, agent_id, ? FROM {table} "
        f"WHERE {SHARED_SCOPE_SQL} AND id = ? "
        f"ON CONFLICT ({fk}, model_id) DO UPDATE SET embedding = excluded.embedding"
    )


INSERT_RECORD = (
    "INSERT INTO records (tenant_id, user_id, agent_id, id, text, text_hash, kind, origin, "
    "source, created_at, valid_from, valid_to, tags, metadata, flags, quarantined, "
    "fact_key, expired_at, superseded_by, mentions, consolidation, consolidated_with) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, "
    "%s)"
)


def record_params(
    scope: Scope,
    record_id: str,
    record: Record | NewRecord,
    *,
    mentions: int = 1,
) -> tuple[Any, ...]:
    return (
        *key(scope),
        record_id,
        record.text,
        text_hash(record.text),
        record.kind,
        record.origin,
        record.source,
        aware(record.created_at),
        aware(record.valid_from),
        record.valid_to,
        list(dict.fromkeys(record.tags)),
        json.dumps(record.metadata),
        json.dumps(list(record.flags)),
        record.quarantined,
        record.key,
        record.expired_at,
        record.superseded_by,
        mentions,
        record.consolidation,
        record.consolidated_with,
    )


def _acting_role(conn: psycopg.Connection[Any]) -> str | None:
    """The role to act as: the app role when this login would bypass row-level security."""
    row = conn.execute(
        "SELECT r.rolsuper OR r.rolbypassrls, EXISTS (SELECT FROM pg_roles WHERE rolname = %s) "
        "FROM pg_roles r WHERE r.rolname = current_user",
        (APP_ROLE,),
    ).fetchone()
    if row is None or not row[0]:
        return None
    if not row[1]:
        raise InvalidInputError(
            "this PostgreSQL login bypasses row-level security and the role "
            f"{APP_ROLE!r} could not be made; create it or connect as an ordinary role"
        )
    return APP_ROLE
