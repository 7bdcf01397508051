"""What a SQLite file offers the search indexes of the processes that open it: a folder
beside it for their snapshots, the database's id, and a moment with no writes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pagemem.models import Scope
from pagemem.store.base import Collection
from pagemem.store.sqlite_base import SQLiteBase
from pagemem.store.sqlite_rows import _COLLECTIONS, _EPOCH, _key, _scoped

__all__ = ["IndexCacheMixin"]


class IndexCacheMixin(SQLiteBase):
    def index_folder(self) -> Path | None:
        if self.path == ":memory:" or self.path.startswith("file:"):
            return None
        return Path(self.path + ".index")

    def instance(self) -> str:
        rows = self._read("SELECT value FROM meta WHERE key = 'instance'", ())
        return str(rows[0][0])

    @contextmanager
    def writes_held(self) -> Iterator[None]:
        with self._write():
            yield

    def index_keys(self, scope: Scope, collection: Collection) -> list[tuple[str, float, bool]]:
        table, _, _, _, extra, _ = _COLLECTIONS[collection]
        if collection == "records":
            columns = f"{_EPOCH.format('t.valid_to')}, t.expired_at IS NOT NULL"
        else:
            columns = "NULL, 0"
        rows = self._read(
            f"SELECT t.id, {columns} FROM {table} t WHERE {_scoped('t')}{extra} ORDER BY t.pk",
            _key(scope),
        )
        return [(row[0], float("inf") if row[1] is None else row[1], bool(row[2])) for row in rows]
