"""Searching a large scope inside PostgreSQL: tsvector over a GIN index for the lexical
half, pgvector HNSW (cosine) for the dense half, each scope's index partial on its rows.

Small scopes are ranked in each process's memory, exactly as on SQLite; a scope past
the ranker's threshold would cost every server its whole index in memory, so its
candidates come from here instead. HNSW indexes are built per large scope only, because
keeping one over every vector would slow every insert of every small scope.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql

from pagemem.models import Scope
from pagemem.store.base import Candidate, Collection
from pagemem.store.common import origin_of_role
from pagemem.store.postgres.base import PostgresBase, key, scoped, tsquery, vector_param

__all__ = ["SearchMixin", "vector_index_name"]

_log = logging.getLogger(__name__)
_BUILD_MEMORY = "1GB"  # enough for the HNSW graph of about 400,000 384-dim vectors

_TABLES = {
    "records": ("records", "vectors", "record_pk", "NOT t.quarantined"),
    "recall": ("messages", "message_vectors", "message_pk", "NOT t.in_context"),
}


def _validity(
    collection: Collection, now: datetime | None, as_of: datetime | None, retired: bool = False
) -> tuple[str, list[Any]]:
    """The same validity rule as in-process search (Ranker._valid), in SQL."""
    if collection != "records":
        return "", []
    merged = "NOT (t.expired_at IS NOT NULL AND t.valid_to IS NULL)"
    if retired and as_of is None:  # every note that was ever a fact, or said one
        return ("", []) if now is None else (" AND t.valid_from <= %s", [now])
    if as_of is not None:
        return (
            f" AND t.valid_from <= %s AND (t.valid_to IS NULL OR %s < t.valid_to) AND {merged}",
            [as_of, as_of],
        )
    if now is not None:
        return (
            " AND t.valid_from <= %s AND (t.valid_to IS NULL OR %s < t.valid_to) "
            "AND t.expired_at IS NULL",
            [now, now],
        )
    return " AND t.expired_at IS NULL", []


def _drop_if_invalid(owner: psycopg.Connection[Any], name: str) -> None:
    """A build that died half way leaves an invalid index under the name: drop it."""
    valid = owner.execute(
        "SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
        "WHERE c.relname = %s",
        (name,),
    ).fetchone()
    if valid is not None and not valid[0]:
        owner.execute(sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {}").format(sql.Identifier(name)))


def vector_index_name(scope: Scope, collection: Collection, model_id: str) -> str:
    """The name of a scope's own HNSW index, the same in every process."""
    digest = hashlib.sha256("\x1f".join([*key(scope), collection, model_id]).encode())
    return f"{_TABLES[collection][1]}_hnsw_{digest.hexdigest()[:24]}"


class SearchMixin(PostgresBase):
    def search_in_store(
        self,
        scope: Scope,
        collection: Collection,
        *,
        words: Sequence[str],
        vector: bytes | None,
        model_id: str | None,
        limit: int,
        now: datetime | None = None,
        as_of: datetime | None = None,
        only: Sequence[str] | None = None,
        sharing_words: bool = False,
        retired: bool = False,
    ) -> list[Candidate]:
        table, vectors, fk, live = _TABLES[collection]
        valid, valid_params = _validity(collection, now, as_of, retired)
        if only is not None:  # a metadata filter's survivors: rank among them alone
            valid += " AND t.id = ANY(%s)"
            valid_params.append(list(only))
        query = tsquery(words)
        if sharing_words and vector is not None and model_id is not None:
            # The nearest items that share a word, found by walking the vector index with
            # the words as a filter: ranking every item that shares a common word would
            # cost a large scope seconds.
            if not query:
                return []
            valid += " AND t.tsv @@ to_tsquery('english', %s)"
            valid_params.append(query)
            query = ""
        if collection == "records":
            origin, flags = "t.origin", "t.flags"
            since = "extract(epoch FROM t.valid_from)::float8"
        else:
            origin, flags = "t.role", "'[]'::jsonb"  # the role: its origin is mapped below
            since = "NULL::float8"
        columns = (
            f"t.id, {origin} AS origin, {flags} AS flags, "
            f"extract(epoch FROM t.created_at)::float8 AS created, {since} AS since"
        )
        found: dict[str, dict[str, Any]] = {}
        with self._tx(scope.tenant) as conn:
            if query:
                rows = conn.execute(
                    f"SELECT {columns}, ts_rank_cd(t.tsv, q, 1) AS lexical FROM {table} t, "
                    f"to_tsquery('english', %s) q WHERE {scoped('t')} AND {live} "
                    f"AND t.tsv @@ q{valid} ORDER BY lexical DESC, t.pk LIMIT %s",
                    (query, *key(scope), *valid_params, limit),
                ).fetchall()
                for row in rows:
                    found[row["id"]] = {**row, "cosine": None}
            if vector is not None and model_id is not None:
                dim = len(vector) // 4
                # ef_search bounds how many neighbours the index walk returns; iterative
                # scans go on past rows the filters drop (pgvector >= 0.8)
                conn.execute(
                    "SELECT set_config('hnsw.ef_search', %s, true)",
                    (str(max(40, min(limit, 1000))),),
                )
                conn.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)")
                # The scope is written as literals so the planner can match the scope's
                # own partial HNSW index (a generic plan with parameters could not).
                nearest = sql.SQL(
                    "SELECT {columns}, 1 - (v.embedding::vector({dim}) <=> %s::vector({dim})) "
                    "AS cosine FROM {vectors} v JOIN {table} t ON t.pk = v.{fk} "
                    "WHERE v.tenant_id = {t} AND v.user_id = {u} AND v.agent_id = {a} "
                    "AND v.model_id = {m} AND {live}{valid} "
                    "ORDER BY v.embedding::vector({dim}) <=> %s::vector({dim}) LIMIT %s"
                ).format(
                    columns=sql.SQL(columns),
                    dim=sql.Literal(dim),
                    vectors=sql.Identifier(vectors),
                    table=sql.Identifier(table),
                    fk=sql.Identifier(fk),
                    t=sql.Literal(scope.tenant),
                    u=sql.Literal(scope.user),
                    a=sql.Literal(scope.agent or ""),
                    m=sql.Literal(model_id),
                    live=sql.SQL(live),
                    valid=sql.SQL(valid),
                )
                rows = conn.execute(
                    nearest,
                    (vector_param(vector), *valid_params, vector_param(vector), limit),
                ).fetchall()
                shared = 1.0 if sharing_words else 0.0  # each shares a word; rank unknown
                for row in rows:
                    entry = found.setdefault(row["id"], {**row, "lexical": shared})
                    entry["cosine"] = row["cosine"]
        return [
            Candidate(
                id=item,
                lexical=float(row["lexical"] or 0.0),
                cosine=None if row["cosine"] is None else float(row["cosine"]),
                origin=row["origin"] if collection == "records" else origin_of_role(row["origin"]),
                flags=tuple(row["flags"]),
                created_at=row["created"],
                valid_from=float("-inf") if row["since"] is None else row["since"],
            )
            for item, row in found.items()
        ]

    def ensure_vector_index(
        self, scope: Scope, collection: Collection, model_id: str, dim: int
    ) -> None:
        with self._tx(scope.tenant) as conn:
            known = conn.execute(
                "SELECT name FROM vector_indexes WHERE tenant_id = %s AND user_id = %s "
                "AND agent_id = %s AND collection = %s AND model_id = %s",
                (*key(scope), collection, model_id),
            ).fetchone()
        if known is not None:
            return
        name = vector_index_name(scope, collection, model_id)
        with self._builds_lock:
            running = self._builds.get(name)
            if running is not None and running.is_alive():
                return
            # Building HNSW over a hundred thousand vectors takes minutes: not in a search.
            builder = threading.Thread(
                target=self._build_vector_index,
                args=(scope, collection, model_id, dim, name),
                name=f"pagemem-{name}",
                daemon=True,
            )
            self._builds[name] = builder
            builder.start()

    def wait_for_vector_indexes(self, timeout: float | None = None) -> bool:
        """Wait for the index builds this process started; False if some still run."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._builds_lock:
            builders = list(self._builds.values())
        for builder in builders:
            builder.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return not any(builder.is_alive() for builder in builders)

    def _build_vector_index(
        self, scope: Scope, collection: Collection, model_id: str, dim: int, name: str
    ) -> None:
        """One builder per index across every server (a session advisory lock), on a
        connection of its own as the login, which owns the tables and may run DDL. A build
        killed half way leaves an invalid index: it is dropped and built again."""
        tenant, user, agent = key(scope)
        try:
            with psycopg.connect(self.url, autocommit=True) as owner:
                taken = owner.execute(
                    "SELECT pg_try_advisory_lock(hashtextextended(%s, 1))", (name,)
                ).fetchone()
                if not (taken and taken[0]):
                    return  # another process is building it
                # The graph must fit in maintenance_work_mem, or the build is many times
                # slower (pgvector): a session setting, the server's own kept if larger.
                owner.execute(
                    "SELECT set_config('maintenance_work_mem', %s, false) WHERE "
                    "pg_size_bytes(current_setting('maintenance_work_mem')) < pg_size_bytes(%s)",
                    (_BUILD_MEMORY, _BUILD_MEMORY),
                )
                create = sql.SQL(
                    "CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON {table} USING hnsw "
                    "((embedding::vector({dim})) vector_cosine_ops) WHERE tenant_id = {t} "
                    "AND user_id = {u} AND agent_id = {a} AND model_id = {m}"
                ).format(
                    name=sql.Identifier(name),
                    table=sql.Identifier(_TABLES[collection][1]),
                    dim=sql.Literal(dim),
                    t=sql.Literal(tenant),
                    u=sql.Literal(user),
                    a=sql.Literal(agent),
                    m=sql.Literal(model_id),
                )
                try:
                    _drop_if_invalid(owner, name)
                    owner.execute(create)
                except (psycopg.errors.DiskFull, psycopg.errors.OutOfMemory):
                    # a parallel build needs shared memory a container may not have
                    owner.execute("SET max_parallel_maintenance_workers = 0")
                    _drop_if_invalid(owner, name)
                    owner.execute(create)
                owner.execute("SELECT set_config('pagemem.tenant', %s, false)", (tenant,))
                owner.execute(
                    "INSERT INTO vector_indexes (tenant_id, user_id, agent_id, collection, "
                    "model_id, dim, name) VALUES (%s, %s, %s, %s, %s, %s, %s) "
                    "ON CONFLICT DO NOTHING",
                    (tenant, user, agent, collection, model_id, dim, name),
                )
        except psycopg.Error:
            _log.exception(
                "building vector index %s for %s failed; the scope is searched exactly "
                "until the next process that searches it builds the index",
                name,
                scope,
            )
            with self._builds_lock:
                self._builds.pop(name, None)
