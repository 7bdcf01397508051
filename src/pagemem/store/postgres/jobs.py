"""Claiming jobs on PostgreSQL: any number of workers claim at once with SKIP LOCKED;
and turning messages marked for extraction into jobs."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from pagemem.models import Scope
from pagemem.store.base import Job
from pagemem.store.postgres.base import ANY_TENANT, PostgresBase, aware
from pagemem.store.sql_jobs import JobsMixin

__all__ = ["ClaimMixin"]


class ClaimMixin(JobsMixin, PostgresBase):
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
        return None if row is None else self._job_of(row)

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
