"""Background work beside an application: the job queue's runner, and retention.

Work that must not slow a write (fact extraction, then consolidation of what it
found) is queued in the store in the write's own transaction. `JobRunner` takes
jobs one at a time under a lease: a job's records are written and the job marked
done in one transaction, so a crash leaves it to be retried, never half-applied;
consolidation is idempotent, so retrying it is safe. A failing job is retried with
backoff and given up after five attempts. `JobWorker` runs the runner in a thread.

Retention is idempotent too (a pass deletes what is past its age and nothing else),
so `RetentionJob` needs no queue: a crash mid-pass is repaired by the next pass.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from typing import Self

from pagemem.errors import InvalidInputError
from pagemem.memory import Expired, Memory
from pagemem.models import Scope
from pagemem.store.base import Job

__all__ = ["JobRunner", "JobWorker", "RetentionJob"]

KINDS = ("extract", "consolidate")

log = logging.getLogger(__name__)


class _Periodic:
    """Calls `run_once` every `interval` in a daemon thread until stopped; a failing pass
    is logged, counted and retried at the next interval."""

    name = "pagemem-periodic"

    def __init__(self, interval: timedelta) -> None:
        if not isinstance(interval, timedelta) or interval <= timedelta(0):
            raise InvalidInputError(f"interval must be a positive timedelta, got {interval!r}")
        self.interval = interval
        self.passes = 0
        self.failures = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run_once(self) -> object:
        raise NotImplementedError

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.run_once()
                self.passes += 1
            except Exception:
                self.failures += 1
                log.exception("%s pass failed", self.name)
            self._stop.wait(self.interval.total_seconds())

    def start(self) -> Self:
        if self._thread is not None and self._thread.is_alive():
            raise RuntimeError(f"{self.name} is already running")
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, name=self.name, daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float | None = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class RetentionJob(_Periodic):
    """Applies every scope's retention rules every `interval`, in a daemon thread."""

    name = "pagemem-retention"

    def __init__(
        self, memory: Memory, interval: timedelta = timedelta(hours=1), *, tenant: str | None = None
    ) -> None:
        super().__init__(interval)
        self.memory = memory
        self.tenant = tenant

    def run_once(self) -> dict[Scope, Expired]:
        done = self.memory.apply_retention(tenant=self.tenant)
        for scope, expired in done.items():
            log.info(
                "retention: %s lost %d notes, %d messages", scope, expired.notes, expired.messages
            )
        return done


class JobRunner:
    """Takes queued jobs and does them; safe to run in many threads or processes."""

    def __init__(self, memory: Memory, *, lease_seconds: float = 300.0) -> None:
        self.memory = memory
        self.lease_seconds = lease_seconds
        self.done = 0
        self.failed = 0

    def run_pending(self, limit: int | None = None) -> int:
        """Do ready jobs until none is left (or `limit` were done); return how many.
        Messages marked for extraction are made into jobs first."""
        self.memory.store.sweep(at=self.memory.now())
        count = 0
        while limit is None or count < limit:
            job = self.memory.store.claim(
                KINDS, at=self.memory.now(), lease_seconds=self.lease_seconds
            )
            if job is None:
                break
            self.run(job)
            count += 1
        return count

    def run(self, job: Job) -> None:
        store = self.memory.store
        try:
            if job.kind == "extract":
                self._extract(job)
            elif job.kind == "consolidate":
                me = self.memory.scope(job.scope.tenant, job.scope.user, job.scope.agent)
                records = job.payload.get("records")  # none: the whole scope
                me.consolidate(only=None if records is None else [str(i) for i in records])
                store.finish(job, actor="consolidation", at=self.memory.now())
            else:
                raise ValueError(f"unknown job kind {job.kind!r}")
            self.done += 1
        except Exception as exc:  # the job is retried later; the runner goes on
            self.failed += 1
            log.exception("job %s (%s) failed", job.id, job.kind)
            store.fail(
                job,
                f"{type(exc).__name__}: {exc}",
                at=self.memory.now(),
                retry_after=min(3600.0, 2.0**job.attempts),
            )

    def _extract(self, job: Job) -> None:
        memory = self.memory
        me = memory.scope(job.scope.tenant, job.scope.user, job.scope.agent)
        ids = [str(i) for i in job.payload.get("messages", [])]
        messages = memory.store.get_messages(job.scope, ids)
        facts = memory.extractor(messages)
        name = type(memory.extractor).__name__
        records = [
            me.archive.prepare(
                fact.text,
                origin="user",
                kind=fact.kind,
                source=f"messages {', '.join(fact.sources)}",
                metadata={"extracted_from": list(fact.sources), "extractor": name},
            )
            for fact in facts
        ]
        memory.store.finish(
            job, records=records, follow_up="consolidate", actor="extraction", at=memory.now()
        )


class JobWorker(_Periodic):
    """Runs a `JobRunner` in a daemon thread, polling the queue every `interval`."""

    name = "pagemem-jobs"

    def __init__(self, memory: Memory, interval: timedelta = timedelta(seconds=1)) -> None:
        super().__init__(interval)
        self.runner = JobRunner(memory)

    def run_once(self) -> int:
        return self.runner.run_pending()
