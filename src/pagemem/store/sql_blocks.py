"""A scope's small, always-shown state: its core memory blocks and the running summary
of what was evicted. The same statements on both backends (see `store/sql_core.py`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pagemem.models import Block, Scope
from pagemem.store.sql_core import SCOPE_SQL, SQLCore, key

__all__ = ["BlocksMixin"]


class BlocksMixin(SQLCore):
    def get_summary(self, scope: Scope) -> tuple[str, tuple[str, ...]]:
        rows = self._select(
            scope, f"SELECT summary, summary_sources FROM scopes WHERE {SCOPE_SQL}", key(scope)
        )
        if not rows:
            return "", ()
        return rows[0]["summary"], tuple(self.dialect.json_list(rows[0]["summary_sources"]))

    def set_summary(self, scope: Scope, text: str, sources: Sequence[str], *, at: datetime) -> None:
        with self._transaction(scope) as conn:
            self._run(
                conn,
                "INSERT INTO scopes (tenant_id, user_id, agent_id, summary, summary_sources, "
                "summary_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, user_id, "
                "agent_id) DO UPDATE SET summary = excluded.summary, "
                "summary_sources = excluded.summary_sources, summary_at = excluded.summary_at",
                (*key(scope), text, json.dumps(list(sources)), self.dialect.time(at)),
            )

    def get_block(self, scope: Scope, label: str) -> Block | None:
        rows = self._select(
            scope, f"SELECT * FROM blocks WHERE {SCOPE_SQL} AND label = ?", (*key(scope), label)
        )
        return self._block_of(rows[0]) if rows else None

    def list_blocks(self, scope: Scope) -> list[Block]:
        rows = self._select(
            scope,
            f"SELECT * FROM blocks WHERE {SCOPE_SQL} ORDER BY label{self.dialect.binary}",
            key(scope),
        )
        return [self._block_of(row) for row in rows]

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
        with self._transaction(scope) as conn:
            old = self._run(
                conn,
                f"SELECT value FROM blocks WHERE {SCOPE_SQL} AND label = ?{self.dialect.lock_row}",
                (*key(scope), label),
            ).fetchone()
            self._run(
                conn,
                "INSERT INTO blocks (tenant_id, user_id, agent_id, label, value, token_limit, "
                "description, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (tenant_id, user_id, agent_id, label) DO UPDATE SET "
                "value = excluded.value, token_limit = excluded.token_limit, "
                "description = excluded.description, updated_at = excluded.updated_at",
                (*key(scope), label, value, limit, description, self.dialect.time(at)),
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
        with self._transaction(scope) as conn:
            old = self._run(
                conn,
                f"DELETE FROM blocks WHERE {SCOPE_SQL} AND label = ? RETURNING value",
                (*key(scope), label),
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

    def _block_of(self, row: Any) -> Block:
        return Block(
            label=row["label"],
            value=row["value"],
            limit=row["token_limit"],
            updated_at=self.dialect.time_out(row["updated_at"]),
            description=row["description"],
        )
