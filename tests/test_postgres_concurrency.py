"""Several processes on one PostgreSQL memory at once: inserts, searches, racing
supersedes, deletes and forgetting over many users of several tenants, and workers
sharing the job queue. Every acknowledged write must be there, no key may end with
two current facts, and no call may see another scope's notes."""

from __future__ import annotations

import multiprocessing
import queue
import random
import time
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from pagemem import Memory
from pagemem.store.base import NewRecord

PROCESSES = 4
OPERATIONS = 300  # per process: 1,200 in all
RACE = 40  # of which this many supersede one shared fact back to back
TENANTS = ("acme", "globex", "initech")
USERS = ("u0", "u1", "u2", "u3", "u4")
CITIES = ("Austin", "Boston", "Chicago", "Denver", "Eugene", "Fresno", "Gary", "Houston")


def _marker(tenant: str, user: str) -> str:
    return f"mark{tenant}{user}"


def _worker(url: str, number: int, seed: int, out: Any) -> None:
    """One process's share of mixed operations; reports what it wrote and saw."""
    rng = random.Random(seed)
    memory = Memory(url, embedder=None)
    written: list[tuple[str, str, str, str]] = []  # tenant, user, id, text
    deleted: list[tuple[str, str, str]] = []
    forgotten: list[tuple[str, str, str]] = []  # tenant, user, phrase
    violations: list[str] = []
    counts: Counter[str] = Counter()
    racer = memory.scope("acme", "racer")
    for step in range(RACE):  # every process rewrites one user's city at the same time
        racer.archive.insert(f"home city is {CITIES[step % len(CITIES)]}", key="user.home_city")
        counts["supersede"] += 1
    for step in range(OPERATIONS - RACE):
        tenant, user = rng.choice(TENANTS), rng.choice(USERS)
        me = memory.scope(tenant, user)
        op = rng.choices(["insert", "supersede", "search", "delete", "forget"], [4, 3, 4, 1, 1])[0]
        counts[op] += 1
        if op == "insert":
            text = f"{_marker(tenant, user)} note {number}-{step} about kumquat{step % 7}"
            rid = me.archive.insert(text, origin="user", kind="episodic")
            written.append((tenant, user, rid, text))
        elif op == "supersede":
            me.archive.insert(
                f"home city is {rng.choice(CITIES)}", origin="user", key="user.home_city"
            )
        elif op == "search":
            query = f"kumquat{rng.randrange(7)} {rng.choice(CITIES)} note"
            for hit in me.archive.search(query, k=10):
                scope = hit.record.scope
                if (scope.tenant, scope.user) != (tenant, user):
                    violations.append(f"{tenant}/{user} got {scope}")
                if "mark" in hit.record.text and _marker(tenant, user) not in hit.record.text:
                    violations.append(f"{tenant}/{user} saw {hit.record.text!r}")
            if me.archive.count() < 0:
                violations.append("negative count")
        elif op == "delete":
            mine = [w for w in written if w[:2] == (tenant, user) and (*w[:3],) not in deleted]
            if mine:
                _, _, rid, _ = rng.choice(mine)
                me.archive.delete(rid)
                deleted.append((tenant, user, rid))
        else:
            phrase = f"ephemeral{number}x{step}"
            me.archive.insert(f"{_marker(tenant, user)} {phrase}", origin="user", kind="episodic")
            me.forget(phrase, confirm=True)
            forgotten.append((tenant, user, phrase))
    memory.close()
    out.put((written, deleted, forgotten, violations, dict(counts)))


def _job_worker(url: str, out: Any) -> None:
    """Claims jobs until none is left, finishing each with one record."""
    memory = Memory(url, embedder=None)
    store = memory.store
    done: list[int] = []
    while (job := store.claim(["probe"], at=datetime.now(UTC), lease_seconds=600)) is not None:
        record = NewRecord(
            text=f"job {job.id} done",
            kind="episodic",
            origin="system",
            source=f"job {job.id}",
            created_at=datetime.now(UTC),
            valid_from=datetime.now(UTC),
            valid_to=None,
            tags=(),
            metadata={},
            flags=(),
        )
        if store.finish(job, records=[record], actor="worker", at=datetime.now(UTC)):
            done.append(job.id)
    memory.close()
    out.put(done)


def _run(target: Any, args_list: list[tuple[Any, ...]]) -> list[Any]:
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    processes = [context.Process(target=target, args=(*args, out)) for args in args_list]
    for process in processes:
        process.start()
    results: list[Any] = []
    deadline = time.monotonic() + 300
    while len(results) < len(processes):
        try:
            results.append(out.get(timeout=1))
        except queue.Empty:
            crashed = [p.exitcode for p in processes if p.exitcode not in (None, 0)]
            assert not crashed, f"a worker process failed (exit codes {crashed})"
            assert time.monotonic() < deadline, "the workers did not finish in 300 s"
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    return results


def test_processes_racing_on_one_database_keep_every_invariant(postgres_url: str) -> None:
    Memory(postgres_url, embedder=None).close()  # migrate once before the race
    results = _run(_worker, [(postgres_url, n, 1000 + n) for n in range(PROCESSES)])
    written = [w for r in results for w in r[0]]
    deleted = {d for r in results for d in r[1]}
    forgotten = [f for r in results for f in r[2]]
    violations = [v for r in results for v in r[3]]
    counts = sum((Counter(r[4]) for r in results), Counter())
    assert sum(counts.values()) == PROCESSES * OPERATIONS
    assert violations == []

    memory = Memory(postgres_url, embedder=None)
    racer = memory.scope("acme", "racer")
    assert len(memory.store.current_facts(racer.scope, key="user.home_city")) == 1
    # every write kept under its own id: a new version, or a restatement of the current one
    raced = racer.archive.list(limit=1000)
    assert len({r.id for r in raced}) == PROCESSES * RACE
    restated = [r for r in raced if r.consolidation == "restated"]
    assert all(r.consolidated_with is not None for r in restated)
    for tenant in TENANTS:
        for user in USERS:
            me = memory.scope(tenant, user)
            records = me.archive.list(limit=10_000)
            ids = [r.id for r in records]
            assert len(ids) == len(set(ids))  # ids never collide, whoever wrote
            # no lost writes: every acknowledged insert that was not deleted is there, intact
            by_id = {r.id: r.text for r in records}
            for w_tenant, w_user, rid, text in written:
                if (w_tenant, w_user) == (tenant, user) and (tenant, user, rid) not in deleted:
                    assert by_id.get(rid) == text
            for d_tenant, d_user, rid in deleted:
                if (d_tenant, d_user) == (tenant, user):
                    assert rid not in by_id
            # racing supersedes leave exactly one current home city per user
            current = memory.store.current_facts(me.scope, key="user.home_city")
            keyed = [r for r in records if r.key == "user.home_city"]
            assert len(current) == (1 if keyed else 0)
            assert all(r.expired_at is not None for r in keyed if r.id != current[0].id)
            # every note of the scope carries only its own marker
            assert all(_marker(tenant, user) in r.text for r in records if "mark" in r.text)
    for tenant, user, phrase in forgotten:
        me = memory.scope(tenant, user)
        assert me.archive.search(phrase) == []
        assert memory.store.find_text(me.scope, phrase) == ([], [])
    memory.close()


def test_workers_share_the_job_queue_without_doing_a_job_twice(postgres_url: str) -> None:
    memory = Memory(postgres_url, embedder=None)
    scopes = [memory.scope(t, u).scope for t in TENANTS for u in USERS]
    jobs = [
        memory.store.enqueue(scopes[n % len(scopes)], "probe", {"n": n}, at=datetime.now(UTC))
        for n in range(200)
    ]
    results = _run(_job_worker, [(postgres_url,) for _ in range(PROCESSES)])
    done = [job for r in results for job in r]
    assert sorted(done) == sorted(jobs)  # each job finished once, by one worker
    assert sum(1 for r in results if r) >= 2  # the work was really shared
    assert {j.status for j in memory.store.jobs()} == {"done"}
    written = sum(memory.store.count_messages(s) for s in scopes)
    assert written == 0
    notes = [r for s in scopes for r in memory.scope(s.tenant, s.user).archive.list(limit=1000)]
    assert sorted(r.text for r in notes) == sorted(f"job {j} done" for j in jobs)
    memory.close()
