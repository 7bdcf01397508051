"""Background work that runs beside an application: for now, the retention job.

Retention is idempotent (a pass deletes what is past its age and nothing else), so
the job needs no queue: a crash mid-pass is repaired by the next pass.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

from pagemem.errors import InvalidInputError
from pagemem.memory import Expired, Memory
from pagemem.models import Scope

__all__ = ["RetentionJob"]

log = logging.getLogger(__name__)


class RetentionJob:
    """Applies every scope's retention rules every `interval`, in a daemon thread."""

    def __init__(
        self, memory: Memory, interval: timedelta = timedelta(hours=1), *, tenant: str | None = None
    ) -> None:
        if not isinstance(interval, timedelta) or interval <= timedelta(0):
            raise InvalidInputError(f"interval must be a positive timedelta, got {interval!r}")
        self.memory = memory
        self.interval = interval
        self.tenant = tenant
        self.passes = 0
        self.failures = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run_once(self) -> dict[Scope, Expired]:
        done = self.memory.apply_retention(tenant=self.tenant)
        self.passes += 1
        for scope, expired in done.items():
            log.info(
                "retention: %s lost %d notes, %d messages", scope, expired.notes, expired.messages
            )
        return done

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.run_once()
            except Exception:  # a failed pass is retried at the next interval
                self.failures += 1
                log.exception("retention pass failed")
            self._stop.wait(self.interval.total_seconds())

    def start(self) -> RetentionJob:
        if self._thread is not None and self._thread.is_alive():
            raise RuntimeError("the retention job is already running")
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, name="pagemem-retention", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float | None = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> RetentionJob:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
