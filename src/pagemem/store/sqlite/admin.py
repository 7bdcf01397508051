"""What SQLite does its own way for a forget: reclaiming the space, and any trace, of
what was deleted."""

from __future__ import annotations

from pagemem.store.sqlite.base import SQLiteBase

__all__ = ["PurgeMixin"]


class PurgeMixin(SQLiteBase):
    def purge(self) -> None:
        with self._lock:
            # Rewrite the message index so no old segment keeps a forgotten term; freed
            # pages are zeroed (secure_delete), and the WAL is emptied.
            self._conn.execute("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')")
            if self.path != ":memory:":
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
