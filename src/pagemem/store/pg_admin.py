"""What PostgreSQL does its own way for whole scopes: restoring a dump into an empty
scope, and (not) reclaiming freed space inside a request."""

from __future__ import annotations

import json
from datetime import datetime

import psycopg

from pagemem.errors import InvalidInputError
from pagemem.models import Scope
from pagemem.store.base import ScopeDump
from pagemem.store.common import calls_json, highest_id, rules_json, text_hash
from pagemem.store.pg_base import (
    INSERT_RECORD,
    SCOPE_SQL,
    PostgresBase,
    Row,
    aware,
    key,
    record_params,
)

__all__ = ["RestoreMixin"]


class RestoreMixin(PostgresBase):
    def purge(self) -> None:
        """Deleted rows are dead tuples until VACUUM reclaims them; autovacuum does that in
        the background, and operators who must erase now run VACUUM (FULL) on the tables.
        Nothing here can do it inside the request (VACUUM needs the table owner and no
        transaction)."""

    def restore(self, scope: Scope, dump: ScopeDump, *, actor: str, at: datetime) -> None:
        with self._tx(scope.tenant) as conn:
            _restore(conn, scope, dump, actor=actor, at=at)
            self._changed_whole(scope)


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
