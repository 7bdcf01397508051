"""What a search index reads of a scope: its rows in order, with their vectors. The same
statement on both backends (see `store/sql_core.py`); how a stored vector becomes bytes
is each backend's `_vector_bytes`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pagemem.models import Scope
from pagemem.store.base import Collection, IndexRow
from pagemem.store.common import origin_of_role
from pagemem.store.sql_core import SQLCore, key, scoped

__all__ = ["COLLECTIONS", "IndexRowsMixin", "Tables"]


@dataclass(frozen=True, slots=True)
class Tables:
    """Where a collection's rows and their vectors are kept."""

    rows: str
    vectors: str
    key: str  # the vector table's column naming the row
    hidden: str  # the flag of rows no index holds (quarantined notes, messages in context)


COLLECTIONS: dict[str, Tables] = {
    "records": Tables("records", "vectors", "record_pk", "quarantined"),
    "recall": Tables("messages", "message_vectors", "message_pk", "in_context"),
}


class IndexRowsMixin(SQLCore):
    vector_column: str  # the vector tables' column holding the vector

    def _vector_bytes(self, stored: Any) -> bytes:
        """A stored vector as float32 bytes."""
        raise NotImplementedError

    def _values(self, row: Any) -> Sequence[Any]:
        """A row's values in the order of its columns (rows by name are dicts here)."""
        return tuple(row.values())

    def index_rows(
        self,
        scope: Scope,
        *,
        after: int,
        limit: int,
        collection: Collection = "records",
        model_id: str | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[IndexRow]:
        if ids is not None and not ids:
            return []
        d = self.dialect
        tables = COLLECTIONS[collection]
        if collection == "records":
            columns = (
                f"t.text AS text, t.origin AS origin, "
                f"{d.json_text.format('t.metadata', 'speaker')} AS speaker, t.flags AS flags, "
                f"{d.epoch.format('t.valid_from')} AS valid_from, "
                f"{d.epoch.format('t.valid_to')} AS valid_to, "
                "t.expired_at IS NOT NULL AS expired, t.kind = 'episodic' AS episodic"
            )
        else:  # a message's origin follows its role; its speaker is its name
            columns = (
                "t.content AS text, t.role AS origin, t.name AS speaker, '[]' AS flags, "
                f"NULL AS valid_from, NULL AS valid_to, {d.false} AS expired, "
                f"{d.true} AS episodic"
            )
        among, chosen = d.among("t.id", ids) if ids is not None else ("", [])
        rows = self._select(
            scope,
            f"SELECT t.pk AS pk, t.id AS id, {columns}, "
            f"{d.epoch.format('t.created_at')} AS created, v.{self.vector_column} AS vector "
            f"FROM {tables.rows} t LEFT JOIN {tables.vectors} v ON v.{tables.key} = t.pk "
            f"AND v.model_id = ? WHERE {scoped('t')} AND t.{tables.hidden} = {d.false} "
            f"AND t.pk > ? {f'AND {among} ' if among else ''}ORDER BY t.pk LIMIT ?",
            (model_id or "", *key(scope), after, *chosen, limit),
        )
        records, json_list = collection == "records", d.json_list
        out = []
        for row in rows:  # by position: a scope's first load reads every row
            (
                pk,
                item,
                text,
                origin,
                speaker,
                flags,
                start,
                end,
                expired,
                episodic,
                created,
                vector,
            ) = self._values(row)
            out.append(
                IndexRow(
                    pk=pk,
                    id=item,
                    text=text,
                    created_at=created,
                    origin=origin if records else origin_of_role(origin),
                    speaker=speaker if isinstance(speaker, str) else None,
                    vector=None if vector is None else self._vector_bytes(vector),
                    flags=tuple(json_list(flags)),
                    valid_from=float("-inf") if start is None else start,
                    valid_to=_end(end),
                    expired=bool(expired),
                    episodic=bool(episodic),
                )
            )
        return out

    def index_keys(self, scope: Scope, collection: Collection) -> list[tuple[str, float, bool]]:
        d = self.dialect
        tables = COLLECTIONS[collection]
        if collection == "records":
            columns = f"{d.epoch.format('t.valid_to')} AS valid_to, t.expired_at IS NOT NULL"
        else:
            columns = f"NULL AS valid_to, {d.false}"
        rows = self._select(
            scope,
            f"SELECT t.id AS id, {columns} AS expired FROM {tables.rows} t "
            f"WHERE {scoped('t')} AND t.{tables.hidden} = {d.false} ORDER BY t.pk",
            key(scope),
        )
        return [(row["id"], _end(row["valid_to"]), bool(row["expired"])) for row in rows]


def _end(valid_to: float | None) -> float:
    return float("inf") if valid_to is None else valid_to
