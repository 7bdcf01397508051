"""Restoring an exported scope into an empty one, ids and history kept, all or nothing.
The same statements on both backends (see `store/sql_core.py`); how a record row is
written is each backend's `_restore_records`."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pagemem.errors import InvalidInputError
from pagemem.models import Scope
from pagemem.store.base import ScopeDump
from pagemem.store.common import calls_json, highest_id, rules_json, text_hash
from pagemem.store.sql_core import SCOPE_SQL, SQLCore, execute_many, key

__all__ = ["RestoreMixin"]


class RestoreMixin(SQLCore):
    def restore(self, scope: Scope, dump: ScopeDump, *, actor: str, at: datetime) -> None:
        with self._transaction(scope) as conn:
            self._restore_in(conn, scope, dump, actor=actor, at=at)
            self._changed_whole(scope)

    def _contents(self, conn: Any, scope: Scope) -> list[str]:
        """What the scope holds already, said for the error."""
        found = []
        for table, what in (("records", "notes"), ("messages", "messages"), ("blocks", "blocks")):
            row = self._run(
                conn, f"SELECT count(*) AS n FROM {table} WHERE {SCOPE_SQL}", key(scope)
            ).fetchone()
            if row is not None and row["n"]:
                found.append(f"{row['n']} {what}")
        summary = self._run(
            conn, f"SELECT summary FROM scopes WHERE {SCOPE_SQL}", key(scope)
        ).fetchone()
        if summary is not None and summary["summary"]:
            found.append("a summary")
        return found

    def _restore_in(
        self, conn: Any, scope: Scope, dump: ScopeDump, *, actor: str, at: datetime
    ) -> None:
        """Run inside the caller's transaction; raising rolls everything back."""
        held = self._contents(conn, scope)
        if held:
            raise InvalidInputError(
                f"scope {scope} is not empty ({', '.join(held)}); import needs an empty scope"
            )
        d = self.dialect
        scope_key = key(scope)
        self._run(
            conn,
            "INSERT INTO scopes (tenant_id, user_id, agent_id) VALUES (?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            scope_key,
        )
        self._restore_records(conn, scope, dump)
        execute_many(
            conn,
            d.sql(
                "INSERT INTO messages (tenant_id, user_id, agent_id, id, seq, role, content, "
                "text_hash, name, tool_call_id, created_at, in_context, evicted_at, tool_calls) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            ),
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
                    d.time(m.created_at),
                    d.flag(m.in_context),
                    None if m.evicted_at is None else d.time(m.evicted_at),
                    calls_json(m.tool_calls),
                )
                for m in dump.messages
            ],
        )
        execute_many(
            conn,
            d.sql(
                "INSERT INTO blocks (tenant_id, user_id, agent_id, label, value, token_limit, "
                "description, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            ),
            [
                (*scope_key, b.label, b.value, b.limit, b.description, d.time(b.updated_at))
                for b in dump.blocks
            ],
        )
        execute_many(
            conn,
            d.sql(
                "INSERT INTO history (tenant_id, user_id, agent_id, at, op, target, target_id, "
                "before, after, actor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            ),
            [
                (*scope_key, d.time(e.at), e.op, e.target, e.target_id, e.before, e.after, e.actor)
                for e in dump.history
            ],
        )
        self._log(
            conn,
            scope,
            at=at,
            op="import",
            target="scope",
            target_id=str(scope),
            before=None,
            after=None,
            actor=actor,
        )
        # Counters move past every restored id so new ones never collide; revisions move so
        # any loaded index reloads.
        self._run(
            conn,
            f"UPDATE scopes SET next_record = {d.greatest}(next_record, ?), "
            f"next_message = {d.greatest}(next_message, ?), summary = ?, summary_sources = ?, "
            "summary_at = ?, retention = ?, record_revision = record_revision + 1, "
            f"message_revision = message_revision + 1 WHERE {SCOPE_SQL}",
            (
                highest_id("a", [r.id for r in dump.records], dump),
                highest_id("m", [m.id for m in dump.messages], dump),
                dump.summary,
                json.dumps(list(dump.summary_sources)),
                d.time(at) if dump.summary else None,
                rules_json(dump.retention),
                *scope_key,
            ),
        )
