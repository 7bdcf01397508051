"""Whole-scope work: forgetting, retention rules, restore, and the admin scope list."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pagemem.errors import InvalidInputError
from pagemem.models import RetentionRule, Scope
from pagemem.store.base import AgentEntry, ApiKey, ScopeDump
from pagemem.store.common import rules_from, rules_json
from pagemem.store.sqlite_base import SQLiteBase
from pagemem.store.sqlite_restore import restore_scope
from pagemem.store.sqlite_rows import _SCOPE_SQL, _dt, _key, _ts

__all__ = ["AdminMixin"]


class AdminMixin(SQLiteBase):
    def forget_scope(self, scope: Scope, *, actor: str, at: datetime) -> dict[str, int]:
        counts: dict[str, int] = {}
        with self._write() as conn:
            for table in ("records", "messages", "blocks", "history"):
                counts[table] = conn.execute(
                    f"DELETE FROM {table} WHERE {_SCOPE_SQL}", _key(scope)
                ).rowcount
            # Counters stay, so ids are never reused; the summary goes.
            conn.execute(
                "UPDATE scopes SET summary = '', summary_sources = '[]', summary_at = NULL, "
                "record_revision = record_revision + 1, "
                f"message_revision = message_revision + 1 WHERE {_SCOPE_SQL}",
                _key(scope),
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
                f"SELECT id FROM {table} WHERE {_SCOPE_SQL} "
                f"AND instr(lower({column}), lower(?)) > 0 ORDER BY pk",
                (*_key(scope), phrase),
            )
            found.append([row[0] for row in rows])
        return found[0], found[1]

    def scrub_history(self, scope: Scope, phrase: str) -> int:
        changed = 0
        with self._write() as conn:
            for column in ("before", "after"):
                changed += conn.execute(
                    f"UPDATE history SET {column} = NULL WHERE {_SCOPE_SQL} "
                    f"AND instr(lower({column}), lower(?)) > 0",
                    (*_key(scope), phrase),
                ).rowcount
        return changed

    def purge(self) -> None:
        with self._lock:
            # Rewrite the message index so no old segment keeps a forgotten term; freed
            # pages are zeroed (secure_delete), and the WAL is emptied.
            self._conn.execute("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')")
            if self.path != ":memory:":
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def get_retention(self, scope: Scope) -> list[RetentionRule]:
        rows = self._read(f"SELECT retention FROM scopes WHERE {_SCOPE_SQL}", _key(scope))
        if not rows:
            return []
        return rules_from(json.loads(rows[0][0]))

    def set_retention(self, scope: Scope, rules: Sequence[RetentionRule]) -> None:
        value = rules_json(rules)
        with self._write() as conn:
            conn.execute(
                "INSERT INTO scopes (tenant_id, user_id, agent_id, retention) VALUES (?, ?, ?, ?) "
                "ON CONFLICT DO UPDATE SET retention = excluded.retention",
                (*_key(scope), value),
            )

    def reset(self, scope: Scope) -> None:
        with self._write() as conn:
            conn.execute(
                "UPDATE scopes SET record_revision = record_revision + 1, "
                f"message_revision = message_revision + 1 WHERE {_SCOPE_SQL}",
                _key(scope),
            )
            self._changed_whole(scope)

    def restore(self, scope: Scope, dump: ScopeDump, *, actor: str, at: datetime) -> None:
        with self._write() as conn:
            restore_scope(conn, scope, dump, actor=actor, at=at)
            self._changed_whole(scope)

    def put_agent(
        self, tenant: str, user: str, name: str, settings: dict[str, Any], *, at: datetime
    ) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO agents (tenant_id, user_id, name, settings, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET settings = excluded.settings",
                (tenant, user, name, json.dumps(settings), _ts(at)),
            )

    def get_agent(self, tenant: str, user: str, name: str) -> dict[str, Any] | None:
        rows = self._read(
            "SELECT settings FROM agents WHERE tenant_id = ? AND user_id = ? AND name = ?",
            (tenant, user, name),
        )
        found: dict[str, Any] | None = json.loads(rows[0][0]) if rows else None
        return found

    def agents(self, *, tenant: str | None = None, user: str | None = None) -> list[AgentEntry]:
        where = [(column, value) for column, value in (("tenant_id", tenant), ("user_id", user))]
        chosen = [(column, value) for column, value in where if value is not None]
        condition = " AND ".join(f"{column} = ?" for column, _ in chosen)
        rows = self._read(
            "SELECT tenant_id, user_id, name, settings, created_at FROM agents "
            + (f"WHERE {condition} " if chosen else "")
            + "ORDER BY tenant_id, user_id, name",
            [value for _, value in chosen],
        )
        return [
            AgentEntry(row[0], row[1], row[2], json.loads(row[3]), datetime.fromisoformat(row[4]))
            for row in rows
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
        revoked = None if revoked_at is None else _ts(revoked_at)
        try:
            with self._write() as conn:
                conn.execute(
                    "INSERT INTO api_keys (key_hash, tenant_id, label, created_at, revoked_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (key_hash, tenant, label, _ts(at), revoked),
                )
        except sqlite3.IntegrityError:
            raise InvalidInputError("an API key with this hash is already stored") from None

    def api_keys(self) -> list[ApiKey]:
        rows = self._read(
            "SELECT key_hash, tenant_id, label, created_at, revoked_at FROM api_keys "
            "ORDER BY created_at, key_hash",
            (),
        )
        return [
            ApiKey(row[0], row[1], row[2], datetime.fromisoformat(row[3]), _dt(row[4]))
            for row in rows
        ]

    def tenant_for_key(self, key_hash: str) -> str | None:
        rows = self._read(
            "SELECT tenant_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL", (key_hash,)
        )
        return str(rows[0][0]) if rows else None

    def revoke_api_key(self, key_hash: str, *, at: datetime) -> bool:
        with self._write() as conn:
            done = conn.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE key_hash = ? AND revoked_at IS NULL",
                (_ts(at), key_hash),
            ).rowcount
        return bool(done)

    def list_scopes(self, *, tenant: str | None = None) -> list[Scope]:
        sql, params = "SELECT tenant_id, user_id, agent_id FROM scopes", []
        if tenant is not None:
            sql += " WHERE tenant_id = ?"
            params.append(tenant)
        rows = self._read(sql + " ORDER BY tenant_id, user_id, agent_id", params)
        return [Scope(row[0], row[1], row[2] or None) for row in rows]
