"""The durable job queue on PostgreSQL: any number of workers claim with SKIP LOCKED.

A claimed job is leased, not owned: a worker that crashes loses its lease and
the job is claimed again. `finish` writes the job's records and marks it done in
one transaction, and only if the job is still the claim this worker made.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from pagemem.models import Record, Scope
from pagemem.store.base import Job, NewRecord
from pagemem.store.pg_base import ANY_TENANT, PostgresBase, Row, aware

__all__ = ["JobsMixin"]

MAX_ATTEMPTS = 5


def _job(row: Row) -> Job:
    return Job(
        id=row["id"],
        scope=Scope(row["tenant_id"], row["user_id"], row["agent_id"] or None),
        kind=row["kind"],
        payload=row["payload"],
        attempts=row["attempts"],
        status=row["status"],
        error=row["error"],
    )


class JobsMixin(PostgresBase):
    def enqueue(self, scope: Scope, kind: str, payload: dict[str, Any], *, at: datetime) -> int:
        with self._tx(scope.tenant) as conn:
            return self._enqueue(conn, scope, kind, payload, at)

    def claim(self, kinds: Sequence[str], *, at: datetime, lease_seconds: float) -> Job | None:
        with self._tx(ANY_TENANT) as conn:
            row = conn.execute(
                "UPDATE jobs SET status = 'running', attempts = attempts + 1, "
                "locked_until = %(until)s WHERE id = (SELECT id FROM jobs "
                "WHERE kind = ANY(%(kinds)s) AND ((status = 'pending' AND run_after <= %(now)s) OR "
                "(status = 'running' AND locked_until < %(now)s)) ORDER BY id LIMIT 1 "
                "FOR UPDATE SKIP LOCKED) RETURNING *",
                {
                    "until": aware(at) + timedelta(seconds=lease_seconds),
                    "kinds": list(kinds),
                    "now": at,
                },
            ).fetchone()
        return None if row is None else _job(row)

    def finish(
        self,
        job: Job,
        *,
        records: Sequence[NewRecord] = (),
        follow_up: str | None = None,
        actor: str,
        at: datetime,
    ) -> list[Record]:
        with self._tx(job.scope.tenant) as conn:
            done = conn.execute(
                "UPDATE jobs SET status = 'done', finished_at = %s, locked_until = NULL, "
                "error = NULL WHERE id = %s AND status = 'running' AND attempts = %s RETURNING id",
                (aware(at), job.id, job.attempts),
            ).fetchone()
            if done is None:  # lost the lease to another worker: write nothing
                return []
            stored = self._insert_records_in(conn, job.scope, records, actor=actor)
            if follow_up is not None and stored:
                self._enqueue(conn, job.scope, follow_up, {"records": [r.id for r in stored]}, at)
        return stored

    def fail(self, job: Job, error: str, *, at: datetime, retry_after: float | None) -> None:
        with self._tx(job.scope.tenant) as conn:
            if retry_after is not None and job.attempts < MAX_ATTEMPTS:
                conn.execute(
                    "UPDATE jobs SET status = 'pending', run_after = %s, locked_until = NULL, "
                    "error = %s WHERE id = %s AND attempts = %s",
                    (
                        aware(at) + timedelta(seconds=retry_after),
                        error[:2000],
                        job.id,
                        job.attempts,
                    ),
                )
            else:
                conn.execute(
                    "UPDATE jobs SET status = 'failed', finished_at = %s, locked_until = NULL, "
                    "error = %s WHERE id = %s AND attempts = %s",
                    (aware(at), error[:2000], job.id, job.attempts),
                )

    def sweep(self, *, at: datetime, limit: int = 500) -> int:
        with self._tx(ANY_TENANT) as conn:
            rows = conn.execute(
                "UPDATE messages SET extract_pending = false WHERE pk IN (SELECT pk FROM messages "
                "WHERE extract_pending ORDER BY pk LIMIT %s FOR UPDATE SKIP LOCKED) "
                "RETURNING pk, tenant_id, user_id, agent_id, id",
                (limit,),
            ).fetchall()
            by_scope: dict[tuple[str, str, str], list[tuple[int, str]]] = {}
            for row in rows:
                scope_key = (row["tenant_id"], row["user_id"], row["agent_id"])
                by_scope.setdefault(scope_key, []).append((row["pk"], row["id"]))
            for (tenant, user, agent), found in by_scope.items():
                ids = [message_id for _, message_id in sorted(found)]
                self._enqueue(
                    conn, Scope(tenant, user, agent or None), "extract", {"messages": ids}, at
                )
        return len(by_scope)

    def jobs(self, *, scope: Scope | None = None, status: str | None = None) -> list[Job]:
        sql, params = "SELECT * FROM jobs WHERE true", list[Any]()
        if scope is not None:
            sql += " AND tenant_id = %s AND user_id = %s AND agent_id = %s"
            params += [scope.tenant, scope.user, scope.agent or ""]
        if status is not None:
            sql += " AND status = %s"
            params.append(status)
        return [_job(row) for row in self._read(scope, sql + " ORDER BY id", params)]
