from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pagemem import InvalidInputError, Memory
from pagemem.jobs import RetentionJob
from pagemem.models import RetentionRule


def test_retention_job_applies_rules_in_the_background(db_target: str) -> None:
    now = {"t": datetime(2026, 1, 1, tzinfo=UTC)}
    memory = Memory(db_target, embedder=None, clock=lambda: now["t"])
    me = memory.scope("acme", "priya")
    me.archive.insert("a web page about ferries", origin="web")
    me.retention.set([RetentionRule("notes", 30, ("web",))])
    now["t"] += timedelta(days=31)
    with RetentionJob(memory, timedelta(milliseconds=20)) as job:
        deadline = time.monotonic() + 10
        while me.archive.count() and time.monotonic() < deadline:
            time.sleep(0.01)
    assert me.archive.count() == 0
    assert job.passes >= 1
    assert job.failures == 0


def test_a_failing_pass_is_counted_and_the_job_goes_on(db_target: str) -> None:
    memory = Memory(db_target, embedder=None)
    job = RetentionJob(memory, timedelta(milliseconds=10))
    calls = {"n": 0}

    def flaky(*, tenant: str | None = None) -> dict[object, object]:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("disk hiccup")
        return {}

    memory.apply_retention = flaky  # type: ignore[method-assign,assignment]
    job.start()
    deadline = time.monotonic() + 10
    while job.passes < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    job.stop()
    assert job.failures == 1
    assert job.passes >= 2


def test_bad_interval(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="positive timedelta"):
        RetentionJob(Memory(tmp_path / "m.db", embedder=None), timedelta(0))
