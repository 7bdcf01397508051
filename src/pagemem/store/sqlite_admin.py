"""What SQLite does its own way for whole scopes: restoring a dump into an empty scope,
and reclaiming the space (and any trace) of what was forgotten."""

from __future__ import annotations

from datetime import datetime

from pagemem.models import Scope
from pagemem.store.base import ScopeDump
from pagemem.store.sqlite_base import SQLiteBase
from pagemem.store.sqlite_restore import restore_scope

__all__ = ["RestoreMixin"]


class RestoreMixin(SQLiteBase):
    def purge(self) -> None:
        with self._lock:
            # Rewrite the message index so no old segment keeps a forgotten term; freed
            # pages are zeroed (secure_delete), and the WAL is emptied.
            self._conn.execute("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')")
            if self.path != ":memory:":
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def restore(self, scope: Scope, dump: ScopeDump, *, actor: str, at: datetime) -> None:
        with self._write() as conn:
            restore_scope(conn, scope, dump, actor=actor, at=at)
            self._changed_whole(scope)
