"""The durable job queue: enqueue, finish atomically, fail with retry, list. The same
statements on both backends (see `store/sql_core.py`); claiming, and sweeping messages
marked for extraction into jobs, are each backend's own (PostgreSQL skips locked rows
so any number of workers claim at once).

A claimed job is leased, not owned: a worker that crashes loses its lease and the job is
claimed again (its attempts go up). `finish` and `fail` act only on the claim this worker
made (the same attempt), and `finish` writes the job's records and marks it done in one
transaction, so a job is applied whole, once, or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from pagemem.models import Record, Scope
from pagemem.store.base import Job, NewRecord
from pagemem.store.sql_core import SQLCore, key

__all__ = ["MAX_ATTEMPTS", "JobsMixin"]

MAX_ATTEMPTS = 5


class JobsMixin(SQLCore):
    def enqueue(self, scope: Scope, kind: str, payload: dict[str, Any], *, at: datetime) -> int:
        with self._transaction(scope) as conn:
            return self._enqueue(conn, scope, kind, payload, at)

    def _enqueue(
        self, conn: Any, scope: Scope, kind: str, payload: dict[str, Any], at: datetime
    ) -> int:
        """One job, in the caller's transaction; its id."""
        row = self._run(
            conn,
            "INSERT INTO jobs (tenant_id, user_id, agent_id, kind, payload, run_after, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (*key(scope), kind, json.dumps(payload), self.dialect.time(at), self.dialect.time(at)),
        ).fetchone()
        return int(row["id"])

    def finish(
        self,
        job: Job,
        *,
        records: Sequence[NewRecord] = (),
        follow_up: str | None = None,
        actor: str,
        at: datetime,
    ) -> list[Record]:
        # one transaction: the job marked done, its notes and the follow-up; the indexes
        # hear of the notes once it has committed
        with self._transaction(job.scope) as conn:
            done = self._run(
                conn,
                "UPDATE jobs SET status = 'done', finished_at = ?, locked_until = NULL, "
                "error = NULL WHERE id = ? AND status = 'running' AND attempts = ? RETURNING id",
                (self.dialect.time(at), job.id, job.attempts),
            ).fetchone()
            if done is None:  # lost the lease to another worker: write nothing
                return []
            stored = self._insert_records_in(conn, job.scope, records, actor=actor)
            if follow_up is not None and stored:
                self._enqueue(conn, job.scope, follow_up, {"records": [r.id for r in stored]}, at)
        return stored

    def fail(self, job: Job, error: str, *, at: datetime, retry_after: float | None) -> None:
        d = self.dialect
        with self._transaction(job.scope) as conn:
            if retry_after is not None and job.attempts < MAX_ATTEMPTS:
                self._run(
                    conn,
                    "UPDATE jobs SET status = 'pending', run_after = ?, locked_until = NULL, "
                    "error = ? WHERE id = ? AND attempts = ?",
                    (
                        d.time(at + timedelta(seconds=retry_after)),
                        error[:2000],
                        job.id,
                        job.attempts,
                    ),
                )
            else:
                self._run(
                    conn,
                    "UPDATE jobs SET status = 'failed', finished_at = ?, locked_until = NULL, "
                    "error = ? WHERE id = ? AND attempts = ?",
                    (d.time(at), error[:2000], job.id, job.attempts),
                )

    def jobs(self, *, scope: Scope | None = None, status: str | None = None) -> list[Job]:
        sql, params = "SELECT * FROM jobs WHERE 1 = 1", list[Any]()
        if scope is not None:
            sql += " AND tenant_id = ? AND user_id = ? AND agent_id = ?"
            params += list(key(scope))
        if status is not None:
            sql += " AND status = ?"
            params.append(status)
        return [self._job_of(row) for row in self._select(scope, sql + " ORDER BY id", params)]

    def _job_of(self, row: Any) -> Job:
        return Job(
            id=row["id"],
            scope=Scope(row["tenant_id"], row["user_id"], row["agent_id"] or None),
            kind=row["kind"],
            payload=self.dialect.json_value(row["payload"]),
            attempts=row["attempts"],
            status=row["status"],
            error=row["error"],
        )
