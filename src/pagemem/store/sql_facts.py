"""A stored note's life after it is written: closed by a change, restated, held for
review, deleted. The same statements on both backends (see `store/sql_core.py`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from pagemem.models import Record, Scope
from pagemem.store.common import with_source
from pagemem.store.sql_core import SCOPE_SQL, SQLCore, chunks, key, scoped

__all__ = ["FactsMixin"]


class FactsMixin(SQLCore):
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
        d = self.dialect
        end = None if valid_to is None else d.time(valid_to)
        with self._transaction(scope) as conn:
            changed = self._run(
                conn,
                "UPDATE records SET expired_at = ?, superseded_by = ?, "
                f"valid_to = CASE WHEN {d.time_param} IS NULL THEN valid_to "
                f"WHEN valid_to IS NULL OR valid_to > ? THEN {d.greatest}(?, valid_from) "
                f"ELSE valid_to END WHERE {SCOPE_SQL} AND id = ? AND expired_at IS NULL "
                "RETURNING quarantined",
                (d.time(at), superseded_by, end, end, end, *key(scope), record_id),
            ).fetchone()
            if changed is not None:
                if not changed["quarantined"]:  # a held note is in no index
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
        with self._transaction(scope) as conn:
            row = self._run(
                conn,
                f"SELECT metadata FROM records WHERE {SCOPE_SQL} AND id = ?{self.dialect.lock_row}",
                (*key(scope), record_id),
            ).fetchone()
            if row is None:
                return None
            metadata = with_source(self.dialect.json_value(row["metadata"]), source)
            self._run(
                conn,
                f"UPDATE records SET mentions = mentions + 1, metadata = ? "
                f"WHERE {SCOPE_SQL} AND id = ?",
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
        rows = self._select(
            scope,
            f"SELECT {self.record_columns} FROM records r WHERE {scoped('r')} "
            f"AND r.fact_key = ? AND r.expired_at IS NULL AND r.quarantined = {self.dialect.false} "
            "ORDER BY r.pk",
            (scope.tenant, scope.user, scope.agent or "", key),
        )
        return [self._record_of(row) for row in rows]

    def set_consolidation(
        self, scope: Scope, record_id: str, outcome: str, other: str | None
    ) -> None:
        with self._transaction(scope) as conn:
            self._run(
                conn,
                f"UPDATE records SET consolidation = ?, consolidated_with = ? "
                f"WHERE {SCOPE_SQL} AND id = ?",
                (outcome, other, *key(scope), record_id),
            )

    def newer_facts(self, scope: Scope, record_ids: Sequence[str]) -> list[Record]:
        rows = []
        for chunk in chunks(record_ids):
            among, values = self.dialect.among("r.consolidated_with", chunk)
            rows += self._select(
                scope,
                f"SELECT {self.record_columns} FROM records r WHERE {scoped('r')} AND {among} "
                f"AND r.consolidation = 'kept-both' AND r.quarantined = {self.dialect.false}",
                # no ORDER BY: it would trade the link index away
                (*key(scope), *values),
            )
        return sorted((self._record_of(row) for row in rows), key=lambda r: _number(r.id))

    def set_quarantined(
        self, scope: Scope, record_id: str, held: bool, *, actor: str, at: datetime
    ) -> Record | None:
        flag = self.dialect.flag(held)
        with self._transaction(scope) as conn:
            changed = self._run(
                conn,
                f"UPDATE records SET quarantined = ? WHERE {SCOPE_SQL} AND id = ? "
                "AND quarantined <> ? RETURNING pk",
                (flag, *key(scope), record_id, flag),
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

    def delete_record(self, scope: Scope, record_id: str, *, actor: str, at: datetime) -> bool:
        return self.delete_records(scope, [record_id], actor=actor, at=at) == 1

    def delete_records(
        self, scope: Scope, record_ids: Sequence[str], *, actor: str, at: datetime
    ) -> int:
        removed = 0
        with self._transaction(scope) as conn:
            for record_id in dict.fromkeys(record_ids):
                deleted = self._run(
                    conn,
                    f"DELETE FROM records WHERE {SCOPE_SQL} AND id = ? RETURNING quarantined",
                    (*key(scope), record_id),
                ).fetchone()
                if deleted is None:
                    continue
                removed += 1
                if not deleted["quarantined"]:  # a held record was never searchable
                    self._bump_revision(conn, scope, [record_id])
                # The history keeps that the record existed, never what it said.
                self._run(
                    conn,
                    "UPDATE history SET before = NULL, after = NULL "
                    f"WHERE {SCOPE_SQL} AND target = 'record' AND target_id = ?",
                    (*key(scope), record_id),
                )
                self._log(
                    conn,
                    scope,
                    at=at,
                    op="delete",
                    target="record",
                    target_id=record_id,
                    before=None,
                    after=None,
                    actor=actor,
                )
        return removed


def _number(record_id: str) -> int:
    return int(record_id[1:]) if record_id[1:].isdigit() else 0
