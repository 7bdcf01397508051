"""The durable job queue: enqueue, claim with a lease, finish atomically, fail with retry.

A claimed job is leased, not owned: a worker that crashes loses its lease and
the job is claimed again. `finish` writes the job's records and marks it done
in one transaction, so a job is applied whole or not at all.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from pagemem.models import Record, Scope
from pagemem.store.base import Job, NewRecord
from pagemem.store.sqlite_base import SQLiteBase
from pagemem.store.sqlite_rows import _key, _ts

__all__ = ["JobsMixin"]

MAX_ATTEMPTS = 5


def _job(row: sqlite3.Row) -> Job:
    return Job(
        id=row["id"],
        scope=Scope(row["tenant_id"], row["user_id"], row["agent_id"] or None),
        kind=row["kind"],
        payload=json.loads(row["payload"]),
        attempts=row["attempts"],
        status=row["status"],
        error=row["error"],
    )


class JobsMixin(SQLiteBase):
    def enqueue(self, scope: Scope, kind: str, payload: dict[str, Any], *, at: datetime) -> int:
        with self._write() as conn:
            return self._enqueue(conn, scope, kind, payload, _ts(at))

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
        return _job(claimed)

    def finish(
        self,
        job: Job,
        *,
        records: Sequence[NewRecord] = (),
        follow_up: str | None = None,
        actor: str,
        at: datetime,
    ) -> list[Record]:
        # one transaction: insert_records joins it (the lock is re-entrant); the index
        # hears of the notes once it has committed
        with self.announcer.transaction(), self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                done = self._conn.execute(
                    "UPDATE jobs SET status = 'done', finished_at = ?, locked_until = NULL, "
                    "error = NULL WHERE id = ? AND status = 'running' RETURNING id",
                    (_ts(at), job.id),
                ).fetchone()
                if done is None:  # lost the lease to another worker: write nothing
                    self._conn.execute("ROLLBACK")
                    return []
                stored = self._insert_records_in(self._conn, job.scope, records, actor=actor)
                if follow_up is not None and stored:
                    payload = {"records": [r.id for r in stored]}
                    self._enqueue(self._conn, job.scope, follow_up, payload, _ts(at))
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
        return stored

    def fail(self, job: Job, error: str, *, at: datetime, retry_after: float | None) -> None:
        with self._write() as conn:
            if retry_after is not None and job.attempts < MAX_ATTEMPTS:
                conn.execute(
                    "UPDATE jobs SET status = 'pending', run_after = ?, locked_until = NULL, "
                    "error = ? WHERE id = ?",
                    (_ts(at + timedelta(seconds=retry_after)), error[:2000], job.id),
                )
            else:
                conn.execute(
                    "UPDATE jobs SET status = 'failed', finished_at = ?, locked_until = NULL, "
                    "error = ? WHERE id = ?",
                    (_ts(at), error[:2000], job.id),
                )

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
                self._enqueue(conn, scope, "extract", {"messages": ids}, _ts(at))
            conn.executemany(
                "UPDATE messages SET extract_pending = 0 WHERE pk = ?", [(row[0],) for row in rows]
            )
        return len(by_scope)

    def jobs(self, *, scope: Scope | None = None, status: str | None = None) -> list[Job]:
        sql, params = "SELECT * FROM jobs WHERE 1 = 1", []
        if scope is not None:
            sql += " AND tenant_id = ? AND user_id = ? AND agent_id = ?"
            params += list(_key(scope))
        if status is not None:
            sql += " AND status = ?"
            params.append(status)
        return [_job(row) for row in self._read(sql + " ORDER BY id", params)]
