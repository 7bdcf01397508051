"""What a SQLite file offers the search indexes of the processes that open it: a folder
beside it for their snapshots, the database's id, and a moment with no writes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pagemem.store.sqlite.base import SQLiteBase

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
