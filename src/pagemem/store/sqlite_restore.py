"""Restoring an exported scope into an empty one, ids and history kept, all or nothing."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime

from pagemem.errors import InvalidInputError
from pagemem.models import Scope
from pagemem.store.base import ScopeDump
from pagemem.store.common import calls_json, highest_id, rules_json
from pagemem.store.common import text_hash as _text_hash
from pagemem.store.sqlite_rows import (
    _key,
    _scoped,
    _ts,
    insert_record_row,
)

__all__ = ["restore_scope"]


def _contents(conn: sqlite3.Connection, scope: Scope) -> list[str]:
    found = []
    for table, alias, what in (("records", "r", "notes"), ("messages", "r", "messages")):
        count = conn.execute(
            f"SELECT count(*) FROM {table} {alias} WHERE {_scoped(alias)}", _key(scope)
        ).fetchone()[0]
        if count:
            found.append(f"{count} {what}")
    blocks = conn.execute(
        f"SELECT count(*) FROM blocks r WHERE {_scoped('r')}", _key(scope)
    ).fetchone()[0]
    if blocks:
        found.append(f"{blocks} blocks")
    summary = conn.execute(
        f"SELECT summary FROM scopes r WHERE {_scoped('r')}", _key(scope)
    ).fetchone()
    if summary is not None and summary[0]:
        found.append("a summary")
    return found


def restore_scope(
    conn: sqlite3.Connection, scope: Scope, dump: ScopeDump, *, actor: str, at: datetime
) -> None:
    """Run inside the caller's write transaction; raising rolls everything back."""
    held = _contents(conn, scope)
    if held:
        raise InvalidInputError(
            f"scope {scope} is not empty ({', '.join(held)}); import needs an empty scope"
        )
    key = _key(scope)
    conn.execute(
        "INSERT INTO scopes (tenant_id, user_id, agent_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        key,
    )
    for record in dump.records:
        insert_record_row(
            conn,
            scope,
            record.id,
            record,
            mentions=record.mentions,
        )
    for message in dump.messages:
        conn.execute(
            "INSERT INTO messages (tenant_id, user_id, agent_id, id, seq, role, content, "
            "text_hash, name, tool_call_id, created_at, in_context, evicted_at, tool_calls) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                *key,
                message.id,
                message.seq,
                message.role,
                message.content,
                _text_hash(message.content),
                message.name,
                message.tool_call_id,
                _ts(message.created_at),
                int(message.in_context),
                None if message.evicted_at is None else _ts(message.evicted_at),
                calls_json(message.tool_calls),
            ),
        )
    conn.executemany(
        "INSERT INTO blocks (tenant_id, user_id, agent_id, label, value, token_limit, "
        "description, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(*key, b.label, b.value, b.limit, b.description, _ts(b.updated_at)) for b in dump.blocks],
    )
    conn.executemany(
        "INSERT INTO history (tenant_id, user_id, agent_id, at, op, target, target_id, before, "
        "after, actor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (*key, _ts(e.at), e.op, e.target, e.target_id, e.before, e.after, e.actor)
            for e in dump.history
        ],
    )
    conn.execute(
        "INSERT INTO history (tenant_id, user_id, agent_id, at, op, target, target_id, before, "
        "after, actor) VALUES (?, ?, ?, ?, 'import', 'scope', ?, NULL, NULL, ?)",
        (*key, _ts(at), str(scope), actor),
    )
    # Counters move past every restored id so new ones never collide; revisions move so
    # any loaded index reloads.
    conn.execute(
        "UPDATE scopes SET next_record = max(next_record, ?), next_message = max(next_message, ?), "
        "summary = ?, summary_sources = ?, summary_at = ?, retention = ?, "
        "record_revision = record_revision + 1, message_revision = message_revision + 1 "
        f"WHERE {_scoped('scopes')}",
        (
            highest_id("a", [r.id for r in dump.records], dump),
            highest_id("m", [m.id for m in dump.messages], dump),
            dump.summary,
            json.dumps(list(dump.summary_sources)),
            _ts(at) if dump.summary else None,
            rules_json(dump.retention),
            *key,
        ),
    )
