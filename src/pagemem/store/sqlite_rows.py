"""SQL text, row conversions and filter clauses shared by the SQLite store."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import cast

from pagemem.models import Block, Kind, Message, Origin, Record, Role, Scope, ToolCall
from pagemem.store.base import NewRecord
from pagemem.store.common import scope_of
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


def _dt(value: str | None) -> datetime | None:
    # fromisoformat reads what _ts writes ("...T12:00:00.000000Z") many times faster
    return None if value is None else datetime.fromisoformat(value)


# collection -> (table, vector table, vector key column, text column, extra condition,
#                revision column)
_EPOCH = "((julianday({}) - 2440587.5) * 86400.0)"  # an ISO timestamp as POSIX seconds

_COLLECTIONS: dict[str, tuple[str, str, str, str, str, str]] = {
    "records": (
        "records",
        "vectors",
        "record_pk",
        "text",
        " AND t.quarantined = 0",
        "record_revision",
    ),
    "recall": (
        "messages",
        "message_vectors",
        "message_pk",
        "content",
        " AND t.in_context = 0",
        "message_revision",
    ),
}


def _key(scope: Scope) -> tuple[str, str, str]:
    return (scope.tenant, scope.user, scope.agent or "")


def match_expression(terms: Sequence[str]) -> str:
    """An FTS5 query that ORs the terms, each quoted so no user text is syntax."""
    quoted = ['"' + term.replace('"', '""') + '"' for term in terms if term.strip()]
    return " OR ".join(quoted)


def _record(row: sqlite3.Row) -> Record:
    return Record(
        id=row["id"],
        scope=scope_of(row["tenant_id"], row["user_id"], row["agent_id"]),
        text=row["text"],
        kind=cast(Kind, row["kind"]),
        origin=cast(Origin, row["origin"]),
        source=row["source"],
        created_at=cast(datetime, _dt(row["created_at"])),
        valid_from=cast(datetime, _dt(row["valid_from"])),
        valid_to=_dt(row["valid_to"]),
        tags=_items(row["tags"]),
        metadata=json.loads(row["metadata"]) if row["metadata"] != "{}" else {},
        flags=_items(row["flags"]),
        quarantined=bool(row["quarantined"]),
        key=row["fact_key"],
        expired_at=_dt(row["expired_at"]),
        superseded_by=row["superseded_by"],
        mentions=row["mentions"],
        consolidation=row["consolidation"],
        consolidated_with=row["consolidated_with"],
    )


def _items(raw: str) -> tuple[str, ...]:
    return tuple(json.loads(raw)) if raw != "[]" else ()


def _message(row: sqlite3.Row) -> Message:
    return Message(
        id=row["id"],
        role=cast(Role, row["role"]),
        content=row["content"],
        created_at=cast(datetime, _dt(row["created_at"])),
        seq=row["seq"],
        name=row["name"],
        tool_call_id=row["tool_call_id"],
        in_context=bool(row["in_context"]),
        evicted_at=_dt(row["evicted_at"]),
        tool_calls=tuple(ToolCall(**call) for call in json.loads(row["tool_calls"] or "[]")),
    )


def _block(row: sqlite3.Row) -> Block:
    return Block(
        label=row["label"],
        value=row["value"],
        limit=row["token_limit"],
        updated_at=cast(datetime, _dt(row["updated_at"])),
        description=row["description"],
    )


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
