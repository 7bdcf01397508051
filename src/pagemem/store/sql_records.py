"""Writing archival notes and reading them: by id, by filter, counted. The same
statements on both backends (see `store/sql_core.py`); how tags are stored (a table, an
array) is each backend's `_tagged`, how a row is written its `_insert_records_in`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pagemem.models import Record, Scope
from pagemem.store.base import NewRecord, RecordFilter
from pagemem.store.sql_core import SQLCore, chunks, key, scoped

__all__ = ["RecordsMixin"]


class RecordsMixin(SQLCore):
    def insert_record(self, scope: Scope, record: NewRecord, *, actor: str) -> Record:
        return self.insert_records(scope, [record], actor=actor)[0]

    def insert_records(
        self, scope: Scope, records: Sequence[NewRecord], *, actor: str
    ) -> list[Record]:
        if not records:
            return []
        with self._transaction(scope) as conn:
            return self._insert_records_in(conn, scope, records, actor=actor)

    def get_records(self, scope: Scope, record_ids: Sequence[str]) -> list[Record]:
        rows: list[Any] = []
        for chunk in chunks(record_ids):
            among, values = self.dialect.among("r.id", chunk)
            rows += self._select(
                scope,
                f"SELECT {self.record_columns} FROM records r WHERE {scoped('r')} AND {among}",
                (*key(scope), *values),
            )
        return [self._record_of(row) for row in rows]

    def list_records(
        self,
        scope: Scope,
        where: RecordFilter,
        *,
        limit: int,
        offset: int,
        newest_first: bool = False,
    ) -> list[Record]:
        clause, params = self._record_where(scope, where)
        order = "DESC" if newest_first else "ASC"
        rows = self._select(
            scope,
            f"SELECT {self.record_columns} FROM records r WHERE {clause} "
            f"ORDER BY r.pk {order} LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )
        return [self._record_of(row) for row in rows]

    def count_records(self, scope: Scope, where: RecordFilter) -> int:
        clause, params = self._record_where(scope, where)
        rows = self._select(scope, f"SELECT count(*) AS n FROM records r WHERE {clause}", params)
        return int(rows[0]["n"])

    def filter_record_ids(self, scope: Scope, where: RecordFilter) -> set[str]:
        clause, params = self._record_where(scope, where)
        rows = self._select(scope, f"SELECT r.id FROM records r WHERE {clause}", params)
        return {row["id"] for row in rows}

    def _record_where(self, scope: Scope, where: RecordFilter) -> tuple[str, list[Any]]:
        """The scope's notes that pass the filter: a condition and its parameters."""
        d = self.dialect
        parts, params = [scoped("r")], list[Any](key(scope))
        for column, values in (("r.kind", where.kinds), ("r.origin", where.origins)):
            if values:
                among, found = d.among(column, values)
                parts.append(among)
                params.extend(found)
        if where.tags:
            tagged, found = self._tagged(where.tags)
            parts.append(tagged)
            params.extend(found)
        if where.source is not None:
            parts.append("r.source = ?")
            params.append(where.source)
        if where.start is not None:
            parts.append("r.created_at >= ?")
            params.append(d.time(where.start))
        if where.end is not None:
            parts.append("r.created_at < ?")
            params.append(d.time(where.end))
        if where.quarantined is not None:
            parts.append("r.quarantined = ?")
            params.append(d.flag(where.quarantined))
        if where.key is not None:
            parts.append("r.fact_key = ?")
            params.append(where.key)
        if where.current is not None:
            parts.append(f"r.expired_at IS {'' if where.current else 'NOT '}NULL")
        return " AND ".join(parts), params
