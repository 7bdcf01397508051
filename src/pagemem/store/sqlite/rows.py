"""SQL text, row conversions and filter clauses shared by the SQLite store."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime

from pagemem.models import Record, Scope
from pagemem.store.base import NewRecord
from pagemem.store.common import text_hash as _text_hash

_SCOPE_SQL = "tenant_id = ? AND user_id = ? AND agent_id = ?"
_RECORD_COLUMNS = (
    "r.tenant_id, r.user_id, r.agent_id, r.id, r.text, r.kind, r.origin, r.source, "
    "r.created_at, r.valid_from, r.valid_to, r.tags, r.metadata, r.flags, r.quarantined, "
    "r.fact_key, r.expired_at, r.superseded_by, r.mentions, r.consolidation, r.consolidated_with"
)
_MESSAGE_COLUMNS = (
    "m.id, m.role, m.content, m.created_at, m.seq, m.name, m.tool_call_id, m.in_context, "
    "m.evicted_at, m.tool_calls"
)


def _ts(value: datetime) -> str:
    if value.tzinfo is None:
        raise ValueError("timestamps given to the store must be timezone-aware")
    # fixed width ("0999-...", always microseconds): text order is time order
    return value.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _key(scope: Scope) -> tuple[str, str, str]:
    return (scope.tenant, scope.user, scope.agent or "")


def match_expression(terms: Sequence[str]) -> str:
    """An FTS5 query that ORs the terms, each quoted so no user text is syntax."""
    quoted = ['"' + term.replace('"', '""') + '"' for term in terms if term.strip()]
    return " OR ".join(quoted)


def _scoped(alias: str) -> str:
    return f"{alias}.tenant_id = ? AND {alias}.user_id = ? AND {alias}.agent_id = ?"


def insert_record_row(
    conn: sqlite3.Connection,
    scope: Scope,
    record_id: str,
    record: Record | NewRecord,
    *,
    mentions: int = 1,
) -> None:
    """One records row and its tags, inside the caller's transaction."""
    expired_at = record.expired_at
    cursor = conn.execute(
        "INSERT INTO records (tenant_id, user_id, agent_id, id, text, text_hash, kind, origin, "
        "source, created_at, valid_from, valid_to, tags, metadata, flags, quarantined, "
        "fact_key, expired_at, superseded_by, mentions, consolidation, consolidated_with) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            *_key(scope),
            record_id,
            record.text,
            _text_hash(record.text),
            record.kind,
            record.origin,
            record.source,
            _ts(record.created_at),
            _ts(record.valid_from),
            None if record.valid_to is None else _ts(record.valid_to),
            json.dumps(list(record.tags)),
            json.dumps(record.metadata),
            json.dumps(list(record.flags)),
            int(record.quarantined),
            record.key,
            None if expired_at is None else _ts(expired_at),
            record.superseded_by,
            mentions,
            record.consolidation,
            record.consolidated_with,
        ),
    )
    conn.executemany(
        "INSERT OR IGNORE INTO record_tags (record_pk, tag) VALUES (?, ?)",
        [(cursor.lastrowid, tag) for tag in record.tags],
    )
    if isinstance(record, NewRecord) and record.vector is not None:
        model_id, blob = record.vector
        conn.execute(
            "INSERT OR REPLACE INTO vectors (record_pk, model_id, vector) VALUES (?, ?, ?)",
            (cursor.lastrowid, model_id, blob),
        )
