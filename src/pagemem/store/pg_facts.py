"""Facts that change and notes held for review, on PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from pagemem.models import Record, Scope
from pagemem.store.common import with_source
from pagemem.store.pg_base import (
    RECORD_COLUMNS,
    SCOPE_SQL,
    PostgresBase,
    aware,
    key,
    record_of,
    scoped,
)

__all__ = ["FactsMixin"]


class FactsMixin(PostgresBase):
    def retire(
        self,
        scope: Scope,
        record_id: str,
        *,
        valid_to: datetime | None,
        superseded_by: str | None,
        reason: str,
        op: str,
        actor: str,
        at: datetime,
    ) -> Record | None:
        with self._tx(scope.tenant) as conn:
            changed = conn.execute(
                "UPDATE records SET expired_at = %(at)s, superseded_by = %(by)s, "
                "valid_to = CASE WHEN %(end)s::timestamptz IS NULL THEN valid_to "
                "WHEN valid_to IS NULL OR valid_to > %(end)s THEN greatest(%(end)s, valid_from) "
                "ELSE valid_to END WHERE tenant_id = %(t)s AND user_id = %(u)s "
                "AND agent_id = %(a)s AND id = %(id)s AND expired_at IS NULL "
                "RETURNING quarantined",
                {
                    "at": aware(at),
                    "by": superseded_by,
                    "end": valid_to,
                    "t": scope.tenant,
                    "u": scope.user,
                    "a": scope.agent or "",
                    "id": record_id,
                },
            ).fetchone()
            if changed is not None:
                if not changed["quarantined"]:
                    self._bump(conn, scope, "record_revision", [record_id])
                self._log(
                    conn,
                    scope,
                    at=at,
                    op=op,
                    target="record",
                    target_id=record_id,
                    before=None,
                    after=reason,
                    actor=actor,
                )
        return self.get_record(scope, record_id)

    def restate(
        self, scope: Scope, record_id: str, *, source: str, reason: str, actor: str, at: datetime
    ) -> Record | None:
        with self._tx(scope.tenant) as conn:
            row = conn.execute(
                f"SELECT metadata FROM records WHERE {SCOPE_SQL} AND id = %s FOR UPDATE",
                (*key(scope), record_id),
            ).fetchone()
            if row is None:
                return None
            metadata = with_source(dict(row["metadata"]), source)
            conn.execute(
                f"UPDATE records SET mentions = mentions + 1, metadata = %s "
                f"WHERE {SCOPE_SQL} AND id = %s",
                (json.dumps(metadata), *key(scope), record_id),
            )
            self._log(
                conn,
                scope,
                at=at,
                op="merge",
                target="record",
                target_id=record_id,
                before=None,
                after=reason,
                actor=actor,
            )
        return self.get_record(scope, record_id)

    def current_facts(self, scope: Scope, *, key: str) -> list[Record]:
        rows = self._read(
            scope,
            f"SELECT {RECORD_COLUMNS} FROM records r WHERE {scoped('r')} AND r.fact_key = %s "
            "AND r.expired_at IS NULL AND NOT r.quarantined ORDER BY r.pk",
            (scope.tenant, scope.user, scope.agent or "", key),
        )
        return [record_of(row) for row in rows]

    def set_consolidation(
        self, scope: Scope, record_id: str, outcome: str, other: str | None
    ) -> None:
        with self._tx(scope.tenant) as conn:
            conn.execute(
                f"UPDATE records SET consolidation = %s, consolidated_with = %s "
                f"WHERE {SCOPE_SQL} AND id = %s",
                (outcome, other, *key(scope), record_id),
            )

    def newer_facts(self, scope: Scope, record_ids: Sequence[str]) -> list[Record]:
        if not record_ids:
            return []
        rows = self._read(
            scope,
            f"SELECT {RECORD_COLUMNS} FROM records r WHERE {scoped('r')} "
            "AND r.consolidated_with IS NOT NULL AND r.consolidated_with = ANY(%s) "
            "AND r.consolidation = 'kept-both' AND NOT r.quarantined ORDER BY r.pk",
            (scope.tenant, scope.user, scope.agent or "", list(record_ids)),
        )
        return [record_of(row) for row in rows]

    def set_quarantined(
        self, scope: Scope, record_id: str, held: bool, *, actor: str, at: datetime
    ) -> Record | None:
        with self._tx(scope.tenant) as conn:
            changed = conn.execute(
                f"UPDATE records SET quarantined = %s WHERE {SCOPE_SQL} AND id = %s "
                "AND quarantined <> %s RETURNING pk",
                (held, *key(scope), record_id, held),
            ).fetchone()
            if changed is not None:
                self._bump(conn, scope, "record_revision", [record_id])
                self._log(
                    conn,
                    scope,
                    at=at,
                    op="quarantine" if held else "release",
                    target="record",
                    target_id=record_id,
                    before=None,
                    after=None,
                    actor=actor,
                )
        return self.get_record(scope, record_id)
