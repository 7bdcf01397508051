"""Claiming jobs on SQLite (one writer at a time: the first ready job), and turning
messages marked for extraction into jobs."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from pagemem.models import Scope
from pagemem.store.base import Job
from pagemem.store.sql_jobs import JobsMixin
from pagemem.store.sqlite.base import SQLiteBase
from pagemem.store.sqlite.rows import _ts

__all__ = ["ClaimMixin"]


class ClaimMixin(JobsMixin, SQLiteBase):
    def claim(self, kinds: Sequence[str], *, at: datetime, lease_seconds: float) -> Job | None:
        now = _ts(at)
        until = _ts(at + timedelta(seconds=lease_seconds))
        marks = ", ".join("?" * len(kinds))
        with self._write() as conn:
            row = conn.execute(
                f"SELECT * FROM jobs WHERE kind IN ({marks}) AND ("
                "(status = 'pending' AND run_after <= ?) OR "
                "(status = 'running' AND locked_until < ?)) ORDER BY id LIMIT 1",
                (*kinds, now, now),
            ).fetchone()
            if row is None:
                return None
            conn.execute(
                "UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = ? "
                "WHERE id = ?",
                (until, row["id"]),
            )
            claimed = conn.execute("SELECT * FROM jobs WHERE id = ?", (row["id"],)).fetchone()
        return self._job_of(claimed)

    def sweep(self, *, at: datetime, limit: int = 500) -> int:
        with self._write() as conn:
            rows = conn.execute(
                "SELECT pk, tenant_id, user_id, agent_id, id FROM messages "
                "WHERE extract_pending = 1 ORDER BY pk LIMIT ?",
                (limit,),
            ).fetchall()
            by_scope: dict[tuple[str, str, str], list[str]] = {}
            for row in rows:
                by_scope.setdefault((row[1], row[2], row[3]), []).append(row[4])
            for (tenant, user, agent), ids in by_scope.items():
                scope = Scope(tenant, user, agent or None)
                self._enqueue(conn, scope, "extract", {"messages": ids}, at)
            conn.executemany(
                "UPDATE messages SET extract_pending = 0 WHERE pk = ?", [(row[0],) for row in rows]
            )
        return len(by_scope)
