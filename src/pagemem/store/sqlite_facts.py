"""Facts that change and notes held for review: retire, restate, keyed lookups, quarantine."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from pagemem.models import Record, Scope
from pagemem.store.common import with_source
from pagemem.store.sqlite_base import SQLiteBase
from pagemem.store.sqlite_rows import _RECORD_COLUMNS, _SCOPE_SQL, _key, _record, _scoped, _ts

__all__ = ["FactsMixin"]


class FactsMixin(SQLiteBase):
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
        with self._write() as conn:
            changed = conn.execute(
                f"UPDATE records SET expired_at = ?, superseded_by = ?, "
                "valid_to = CASE WHEN ? IS NULL THEN valid_to "
                "WHEN valid_to IS NULL OR valid_to > ? THEN max(?, valid_from) ELSE valid_to END "
                f"WHERE {_SCOPE_SQL} AND id = ? AND expired_at IS NULL RETURNING quarantined",
                (
                    _ts(at),
                    superseded_by,
                    None if valid_to is None else _ts(valid_to),
                    None if valid_to is None else _ts(valid_to),
                    None if valid_to is None else _ts(valid_to),
                    *_key(scope),
                    record_id,
                ),
            ).fetchone()
            if changed is not None:
                if not changed[0]:
                    self._bump_revision(conn, scope, [record_id])
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
        with self._write() as conn:
            row = conn.execute(
                f"SELECT metadata FROM records WHERE {_SCOPE_SQL} AND id = ?",
                (*_key(scope), record_id),
            ).fetchone()
            if row is None:
                return None
            metadata = with_source(json.loads(row[0]), source)
            conn.execute(
                f"UPDATE records SET mentions = mentions + 1, metadata = ? "
                f"WHERE {_SCOPE_SQL} AND id = ?",
                (json.dumps(metadata), *_key(scope), record_id),
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
            f"SELECT {_RECORD_COLUMNS} FROM records r WHERE {_scoped('r')} AND r.fact_key = ? "
            "AND r.expired_at IS NULL AND r.quarantined = 0 ORDER BY r.pk",
            (*_key(scope), key),
        )
        return [_record(row) for row in rows]

    def set_consolidation(
        self, scope: Scope, record_id: str, outcome: str, other: str | None
    ) -> None:
        with self._write() as conn:
            conn.execute(
                f"UPDATE records SET consolidation = ?, consolidated_with = ? "
                f"WHERE {_SCOPE_SQL} AND id = ?",
                (outcome, other, *_key(scope), record_id),
            )

    def newer_facts(self, scope: Scope, record_ids: Sequence[str]) -> list[Record]:
        rows = []
        for start in range(0, len(record_ids), 500):
            chunk = list(record_ids[start : start + 500])
            rows += self._read(
                f"SELECT {_RECORD_COLUMNS} FROM records r WHERE {_scoped('r')} "
                f"AND r.consolidated_with IN ({', '.join('?' * len(chunk))}) "
                "AND r.consolidation = 'kept-both' AND r.quarantined = 0",
                # no ORDER BY: it would trade the link index away
                (*_key(scope), *chunk),
            )
        return sorted((_record(row) for row in rows), key=lambda r: int(r.id[1:]))

    def set_quarantined(
        self, scope: Scope, record_id: str, held: bool, *, actor: str, at: datetime
    ) -> Record | None:
        with self._write() as conn:
            changed = conn.execute(
                f"UPDATE records SET quarantined = ? WHERE {_SCOPE_SQL} AND id = ? "
                "AND quarantined != ? RETURNING pk",
                (int(held), *_key(scope), record_id, int(held)),
            ).fetchone()
            if changed is not None:
                self._bump_revision(conn, scope, [record_id])
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
