"""Whole-scope work on PostgreSQL: forgetting, retention rules, restore, keys and agents."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import psycopg

from pagemem.errors import InvalidInputError
from pagemem.models import RetentionRule, Scope
from pagemem.store.base import AgentEntry, ApiKey, ScopeDump
from pagemem.store.common import calls_json, highest_id, rules_from, rules_json, text_hash
from pagemem.store.pg_base import (
    ANY_TENANT,
    INSERT_RECORD,
    SCOPE_SQL,
    PostgresBase,
    Row,
    aware,
    key,
    record_params,
)

__all__ = ["AdminMixin"]


class AdminMixin(PostgresBase):
    def forget_scope(self, scope: Scope, *, actor: str, at: datetime) -> dict[str, int]:
        counts: dict[str, int] = {}
        with self._tx(scope.tenant) as conn:
            for table in ("records", "messages", "blocks", "history"):
                counts[table] = conn.execute(
                    f"DELETE FROM {table} WHERE {SCOPE_SQL}", key(scope)
                ).rowcount
            # Counters stay, so ids are never reused; the summary goes.
            conn.execute(
                "UPDATE scopes SET summary = '', summary_sources = '[]', summary_at = NULL, "
                "record_revision = record_revision + 1, "
                f"message_revision = message_revision + 1 WHERE {SCOPE_SQL}",
                key(scope),
            )
            self._changed_whole(scope)
            self._log(
                conn,
                scope,
                at=at,
                op="forget_all",
                target="scope",
                target_id=str(scope),
                before=None,
                after=None,
                actor=actor,
            )
        return counts

    def find_text(self, scope: Scope, phrase: str) -> tuple[list[str], list[str]]:
        found = []
        for table, column in (("records", "text"), ("messages", "content")):
            rows = self._read(
                scope,
                f"SELECT id FROM {table} WHERE {SCOPE_SQL} "
                f"AND strpos(lower({column}), lower(%s)) > 0 ORDER BY pk",
                (*key(scope), phrase),
            )
            found.append([row["id"] for row in rows])
        return found[0], found[1]

    def scrub_history(self, scope: Scope, phrase: str) -> int:
        changed = 0
        with self._tx(scope.tenant) as conn:
            for column in ("before", "after"):
                changed += conn.execute(
                    f"UPDATE history SET {column} = NULL WHERE {SCOPE_SQL} "
                    f"AND strpos(lower({column}), lower(%s)) > 0",
                    (*key(scope), phrase),
                ).rowcount
        return changed

    def purge(self) -> None:
        """Deleted rows are dead tuples until VACUUM reclaims them; autovacuum does that in
        the background, and operators who must erase now run VACUUM (FULL) on the tables.
        Nothing here can do it inside the request (VACUUM needs the table owner and no
        transaction)."""

    def get_retention(self, scope: Scope) -> list[RetentionRule]:
        rows = self._read(scope, f"SELECT retention FROM scopes WHERE {SCOPE_SQL}", key(scope))
        if not rows:
            return []
        return rules_from(rows[0]["retention"])

    def set_retention(self, scope: Scope, rules: Sequence[RetentionRule]) -> None:
        value = rules_json(rules)
        with self._tx(scope.tenant) as conn:
            conn.execute(
                "INSERT INTO scopes (tenant_id, user_id, agent_id, retention) "
                "VALUES (%s, %s, %s, %s) ON CONFLICT (tenant_id, user_id, agent_id) "
                "DO UPDATE SET retention = excluded.retention",
                (*key(scope), value),
            )

    def reset(self, scope: Scope) -> None:
        with self._tx(scope.tenant) as conn:
            conn.execute(
                "UPDATE scopes SET record_revision = record_revision + 1, "
                f"message_revision = message_revision + 1 WHERE {SCOPE_SQL}",
                key(scope),
            )
            self._changed_whole(scope)

    def restore(self, scope: Scope, dump: ScopeDump, *, actor: str, at: datetime) -> None:
        with self._tx(scope.tenant) as conn:
            _restore(conn, scope, dump, actor=actor, at=at)
            self._changed_whole(scope)

    def put_agent(
        self, tenant: str, user: str, name: str, settings: dict[str, Any], *, at: datetime
    ) -> None:
        with self._tx(tenant) as conn:
            conn.execute(
                "INSERT INTO agents (tenant_id, user_id, name, settings, created_at) "
                "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (tenant_id, user_id, name) "
                "DO UPDATE SET settings = excluded.settings",
                (tenant, user, name, json.dumps(settings), aware(at)),
            )

    def get_agent(self, tenant: str, user: str, name: str) -> dict[str, Any] | None:
        with self._tx(tenant) as conn:
            row = conn.execute(
                "SELECT settings FROM agents WHERE tenant_id = %s AND user_id = %s AND name = %s",
                (tenant, user, name),
            ).fetchone()
        found: dict[str, Any] | None = row["settings"] if row else None
        return found

    def agents(self, *, tenant: str | None = None, user: str | None = None) -> list[AgentEntry]:
        where = [(column, value) for column, value in (("tenant_id", tenant), ("user_id", user))]
        chosen = [(column, value) for column, value in where if value is not None]
        condition = " AND ".join(f"{column} = %s" for column, _ in chosen)
        with self._tx(tenant if tenant is not None else ANY_TENANT) as conn:
            rows = conn.execute(
                "SELECT tenant_id, user_id, name, settings, created_at FROM agents "
                + (f"WHERE {condition} " if chosen else "")
                + 'ORDER BY tenant_id COLLATE "C", user_id COLLATE "C", name COLLATE "C"',
                [value for _, value in chosen],
            ).fetchall()
        return [
            AgentEntry(r["tenant_id"], r["user_id"], r["name"], r["settings"], r["created_at"])
            for r in rows
        ]

    def add_api_key(
        self,
        key_hash: str,
        tenant: str,
        *,
        label: str,
        at: datetime,
        revoked_at: datetime | None = None,
    ) -> None:
        revoked = None if revoked_at is None else aware(revoked_at)
        try:
            with self._tx(ANY_TENANT) as conn:
                conn.execute(
                    "INSERT INTO api_keys (key_hash, tenant_id, label, created_at, revoked_at) "
                    "VALUES (%s, %s, %s, %s, %s)",
                    (key_hash, tenant, label, aware(at), revoked),
                )
        except psycopg.errors.UniqueViolation:
            raise InvalidInputError("an API key with this hash is already stored") from None

    def api_keys(self) -> list[ApiKey]:
        rows = self._read(
            None,
            "SELECT key_hash, tenant_id, label, created_at, revoked_at FROM api_keys "
            'ORDER BY created_at, key_hash COLLATE "C"',
        )
        return [
            ApiKey(r["key_hash"], r["tenant_id"], r["label"], r["created_at"], r["revoked_at"])
            for r in rows
        ]

    def tenant_for_key(self, key_hash: str) -> str | None:
        rows = self._read(
            None,
            "SELECT tenant_id FROM api_keys WHERE key_hash = %s AND revoked_at IS NULL",
            (key_hash,),
        )
        return str(rows[0]["tenant_id"]) if rows else None

    def revoke_api_key(self, key_hash: str, *, at: datetime) -> bool:
        with self._tx(ANY_TENANT) as conn:
            done = conn.execute(
                "UPDATE api_keys SET revoked_at = %s WHERE key_hash = %s AND revoked_at IS NULL",
                (aware(at), key_hash),
            ).rowcount
        return bool(done)

    def list_scopes(self, *, tenant: str | None = None) -> list[Scope]:
        sql, params = "SELECT tenant_id, user_id, agent_id FROM scopes", list[Any]()
        if tenant is not None:
            sql += " WHERE tenant_id = %s"
            params.append(tenant)
        order = ' ORDER BY tenant_id COLLATE "C", user_id COLLATE "C", agent_id COLLATE "C"'
        rows = self._read(None, sql + order, params)
        return [Scope(row["tenant_id"], row["user_id"], row["agent_id"] or None) for row in rows]


def _contents(conn: psycopg.Connection[Row], scope: Scope) -> list[str]:
    found = []
    for table, what in (("records", "notes"), ("messages", "messages"), ("blocks", "blocks")):
        row = conn.execute(f"SELECT count(*) AS n FROM {table} WHERE {SCOPE_SQL}", key(scope))
        count = row.fetchone()
        if count is not None and count["n"]:
            found.append(f"{count['n']} {what}")
    summary = conn.execute(f"SELECT summary FROM scopes WHERE {SCOPE_SQL}", key(scope)).fetchone()
    if summary is not None and summary["summary"]:
        found.append("a summary")
    return found


def _restore(
    conn: psycopg.Connection[Row], scope: Scope, dump: ScopeDump, *, actor: str, at: datetime
) -> None:
    """Run inside the caller's transaction; raising rolls everything back."""
    held = _contents(conn, scope)
    if held:
        raise InvalidInputError(
            f"scope {scope} is not empty ({', '.join(held)}); import needs an empty scope"
        )
    scope_key = key(scope)
    conn.execute(
        "INSERT INTO scopes (tenant_id, user_id, agent_id) VALUES (%s, %s, %s) "
        "ON CONFLICT DO NOTHING",
        scope_key,
    )
    with conn.cursor() as cursor:
        cursor.executemany(
            INSERT_RECORD,
            [
                record_params(
                    scope,
                    r.id,
                    r,
                    mentions=r.mentions,
                )
                for r in dump.records
            ],
        )
        cursor.executemany(
            "INSERT INTO messages (tenant_id, user_id, agent_id, id, seq, role, content, "
            "text_hash, name, tool_call_id, created_at, in_context, evicted_at, tool_calls) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            [
                (
                    *scope_key,
                    m.id,
                    m.seq,
                    m.role,
                    m.content,
                    text_hash(m.content),
                    m.name,
                    m.tool_call_id,
                    aware(m.created_at),
                    m.in_context,
                    m.evicted_at,
                    calls_json(m.tool_calls),
                )
                for m in dump.messages
            ],
        )
        cursor.executemany(
            "INSERT INTO blocks (tenant_id, user_id, agent_id, label, value, token_limit, "
            "description, updated_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            [
                (*scope_key, b.label, b.value, b.limit, b.description, b.updated_at)
                for b in dump.blocks
            ],
        )
        cursor.executemany(
            "INSERT INTO history (tenant_id, user_id, agent_id, at, op, target, target_id, "
            "before, after, actor) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            [
                (*scope_key, e.at, e.op, e.target, e.target_id, e.before, e.after, e.actor)
                for e in dump.history
            ],
        )
    conn.execute(
        "INSERT INTO history (tenant_id, user_id, agent_id, at, op, target, target_id, before, "
        "after, actor) VALUES (%s, %s, %s, %s, 'import', 'scope', %s, NULL, NULL, %s)",
        (*scope_key, aware(at), str(scope), actor),
    )
    # Counters move past every restored id so new ones never collide; revisions move so
    # any loaded index reloads.
    conn.execute(
        "UPDATE scopes SET next_record = greatest(next_record, %s), "
        "next_message = greatest(next_message, %s), summary = %s, summary_sources = %s, "
        "summary_at = %s, retention = %s, record_revision = record_revision + 1, "
        f"message_revision = message_revision + 1 WHERE {SCOPE_SQL}",
        (
            highest_id("a", [r.id for r in dump.records], dump),
            highest_id("m", [m.id for m in dump.messages], dump),
            dump.summary,
            json.dumps(list(dump.summary_sources)),
            aware(at) if dump.summary else None,
            rules_json(dump.retention),
            *scope_key,
        ),
    )
