"""Whole-scope and admin work: forgetting, retention rules, named agents, API keys and
the list of scopes. The same statements on both backends (see `store/sql_core.py`);
restoring a dump and reclaiming freed space are each backend's own."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pagemem.errors import InvalidInputError
from pagemem.models import RetentionRule, Scope
from pagemem.store.base import AgentEntry, ApiKey
from pagemem.store.common import rules_from, rules_json
from pagemem.store.sql_core import SCOPE_SQL, SQLCore, key

__all__ = ["AdminMixin"]


class AdminMixin(SQLCore):
    def forget_scope(self, scope: Scope, *, actor: str, at: datetime) -> dict[str, int]:
        counts: dict[str, int] = {}
        with self._transaction(scope) as conn:
            for table in ("records", "messages", "blocks", "history"):
                counts[table] = self._run(
                    conn, f"DELETE FROM {table} WHERE {SCOPE_SQL}", key(scope)
                ).rowcount
            # Counters stay, so ids are never reused; the summary goes.
            self._run(
                conn,
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
            rows = self._select(
                scope,
                f"SELECT id FROM {table} WHERE {SCOPE_SQL} "
                f"AND {self.dialect.find}(lower({column}), lower(?)) > 0 ORDER BY pk",
                (*key(scope), phrase),
            )
            found.append([row["id"] for row in rows])
        return found[0], found[1]

    def scrub_history(self, scope: Scope, phrase: str) -> int:
        changed = 0
        with self._transaction(scope) as conn:
            for column in ("before", "after"):
                changed += self._run(
                    conn,
                    f"UPDATE history SET {column} = NULL WHERE {SCOPE_SQL} "
                    f"AND {self.dialect.find}(lower({column}), lower(?)) > 0",
                    (*key(scope), phrase),
                ).rowcount
        return changed

    def note_event(
        self,
        scope: Scope,
        *,
        op: str,
        target: str,
        target_id: str,
        text: str,
        actor: str,
        at: datetime,
    ) -> None:
        with self._transaction(scope) as conn:
            self._log(
                conn,
                scope,
                at=at,
                op=op,
                target=target,
                target_id=target_id,
                before=None,
                after=text,
                actor=actor,
            )

    def get_retention(self, scope: Scope) -> list[RetentionRule]:
        rows = self._select(scope, f"SELECT retention FROM scopes WHERE {SCOPE_SQL}", key(scope))
        if not rows:
            return []
        return rules_from(self.dialect.json_list(rows[0]["retention"]))

    def set_retention(self, scope: Scope, rules: Sequence[RetentionRule]) -> None:
        with self._transaction(scope) as conn:
            self._run(
                conn,
                "INSERT INTO scopes (tenant_id, user_id, agent_id, retention) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (tenant_id, user_id, agent_id) "
                "DO UPDATE SET retention = excluded.retention",
                (*key(scope), rules_json(rules)),
            )

    def reset(self, scope: Scope) -> None:
        with self._transaction(scope) as conn:
            self._run(
                conn,
                "UPDATE scopes SET record_revision = record_revision + 1, "
                f"message_revision = message_revision + 1 WHERE {SCOPE_SQL}",
                key(scope),
            )
            self._changed_whole(scope)

    # named agents

    def put_agent(
        self, tenant: str, user: str, name: str, settings: dict[str, Any], *, at: datetime
    ) -> None:
        with self._transaction(tenant) as conn:
            self._run(
                conn,
                "INSERT INTO agents (tenant_id, user_id, name, settings, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (tenant_id, user_id, name) "
                "DO UPDATE SET settings = excluded.settings",
                (tenant, user, name, json.dumps(settings), self.dialect.time(at)),
            )

    def get_agent(self, tenant: str, user: str, name: str) -> dict[str, Any] | None:
        rows = self._select(
            tenant,
            "SELECT settings FROM agents WHERE tenant_id = ? AND user_id = ? AND name = ?",
            (tenant, user, name),
        )
        return self.dialect.json_value(rows[0]["settings"]) if rows else None

    def agents(self, *, tenant: str | None = None, user: str | None = None) -> list[AgentEntry]:
        where = [(column, value) for column, value in (("tenant_id", tenant), ("user_id", user))]
        chosen = [(column, value) for column, value in where if value is not None]
        condition = " AND ".join(f"{column} = ?" for column, _ in chosen)
        order = ", ".join(f"{c}{self.dialect.binary}" for c in ("tenant_id", "user_id", "name"))
        rows = self._select(
            tenant,
            "SELECT tenant_id, user_id, name, settings, created_at FROM agents "
            + (f"WHERE {condition} " if chosen else "")
            + f"ORDER BY {order}",
            [value for _, value in chosen],
        )
        return [
            AgentEntry(
                row["tenant_id"],
                row["user_id"],
                row["name"],
                self.dialect.json_value(row["settings"]),
                self.dialect.time_out(row["created_at"]),
            )
            for row in rows
        ]

    # API keys (admin work: across tenants)

    def add_api_key(
        self,
        key_hash: str,
        tenant: str,
        *,
        label: str,
        at: datetime,
        revoked_at: datetime | None = None,
    ) -> None:
        revoked = None if revoked_at is None else self.dialect.time(revoked_at)
        try:
            with self._transaction(None) as conn:
                self._run(
                    conn,
                    "INSERT INTO api_keys (key_hash, tenant_id, label, created_at, revoked_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (key_hash, tenant, label, self.dialect.time(at), revoked),
                )
        except self.dialect.duplicate:
            raise InvalidInputError("an API key with this hash is already stored") from None

    def api_keys(self) -> list[ApiKey]:
        rows = self._select(
            None,
            "SELECT key_hash, tenant_id, label, created_at, revoked_at FROM api_keys "
            f"ORDER BY created_at, key_hash{self.dialect.binary}",
            (),
        )
        return [
            ApiKey(
                row["key_hash"],
                row["tenant_id"],
                row["label"],
                self.dialect.time_out(row["created_at"]),
                self.dialect.maybe_time_out(row["revoked_at"]),
            )
            for row in rows
        ]

    def tenant_for_key(self, key_hash: str) -> str | None:
        rows = self._select(
            None,
            "SELECT tenant_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL",
            (key_hash,),
        )
        return str(rows[0]["tenant_id"]) if rows else None

    def revoke_api_key(self, key_hash: str, *, at: datetime) -> bool:
        with self._transaction(None) as conn:
            done = self._run(
                conn,
                "UPDATE api_keys SET revoked_at = ? WHERE key_hash = ? AND revoked_at IS NULL",
                (self.dialect.time(at), key_hash),
            ).rowcount
        return bool(done)

    def list_scopes(self, *, tenant: str | None = None) -> list[Scope]:
        sql, params = "SELECT tenant_id, user_id, agent_id FROM scopes", list[Any]()
        if tenant is not None:
            sql += " WHERE tenant_id = ?"
            params.append(tenant)
        order = ", ".join(f"{c}{self.dialect.binary}" for c in ("tenant_id", "user_id", "agent_id"))
        rows = self._select(None, f"{sql} ORDER BY {order}", params)
        return [Scope(row["tenant_id"], row["user_id"], row["agent_id"] or None) for row in rows]
