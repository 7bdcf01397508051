"""Extraction: the rule extractor, the LLM extractor's checks, and the durable job queue."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

import pytest

from pagemem import InvalidInputError, Memory
from pagemem.extract import LLMExtractor, RuleExtractor
from pagemem.jobs import JobRunner, JobWorker
from pagemem.models import Message

T = datetime(2026, 1, 1, tzinfo=UTC)


def msg(mid: str, content: str, role: str = "user") -> Message:
    return Message(mid, role, content, T, int(mid[1:]))  # type: ignore[arg-type]


def test_rule_extractor_keeps_first_person_facts_and_instructions() -> None:
    found = RuleExtractor()(
        [
            msg("m1", "Hi! I live in Seattle. Can you find me a dentist?"),
            msg("m2", "I live in the cloud.", role="assistant"),
            msg("m3", "Actually I moved to Austin last week. My dog is called Miso."),
            msg("m4", "From now on, answer in French please. If I move to Paris, then what?"),
            msg("m5", "I'm allergic to peanuts. The weather is nice. Call me Sam."),
        ]
    )
    assert [(f.text, f.kind, f.sources) for f in found] == [
        ("I live in Seattle", "semantic", ("m1",)),
        ("I moved to Austin last week", "semantic", ("m3",)),
        ("My dog is called Miso", "semantic", ("m3",)),
        ("From now on, answer in French please", "procedural", ("m4",)),
        ("I'm allergic to peanuts", "semantic", ("m5",)),
        ("Call me Sam", "procedural", ("m5",)),
    ]


def scripted(*replies: str) -> tuple[list[list[dict[str, str]]], LLMExtractor]:
    seen: list[list[dict[str, str]]] = []
    answers = iter(replies)

    def chat(messages: list[dict[str, str]]) -> str:
        seen.append(messages)
        return next(answers)

    return seen, LLMExtractor(chat)


def test_llm_extractor_maps_numbers_back_to_ids() -> None:
    seen, extractor = scripted(
        '```json\n{"facts": [{"text": "Lives in Lisbon", "kind": "semantic", '
        '"messages": [2]}]}\n```'
    )
    found = extractor([msg("m7", "hello"), msg("m9", "I live in Lisbon")])
    assert [(f.text, f.sources) for f in found] == [("Lives in Lisbon", ("m9",))]
    assert "[2] user: I live in Lisbon" in seen[0][1]["content"]
    assert "m9" not in seen[0][1]["content"]  # the model never sees our ids


def test_llm_extractor_retries_once_then_skips() -> None:
    good = json.dumps({"facts": [{"text": "Vegan", "kind": "semantic", "messages": [1]}]})
    seen, extractor = scripted("not json", good)
    assert [f.text for f in extractor([msg("m1", "I'm vegan")])] == ["Vegan"]
    assert "That was not valid: not JSON" in seen[1][-1]["content"]
    _, extractor = scripted("nope", '{"facts": "x"}')
    assert extractor([msg("m1", "I'm vegan")]) == []


def test_llm_extractor_drops_invented_ids_and_bad_items() -> None:
    reply = json.dumps(
        {
            "facts": [
                {"text": "Real", "kind": "semantic", "messages": [1]},
                {"text": "Invented", "kind": "semantic", "messages": [7]},
                {"text": "", "kind": "semantic", "messages": [1]},
                {"text": "Bad kind", "kind": "rumour", "messages": [1]},
                "not an object",
            ]
        }
    )
    _, extractor = scripted(reply)
    assert [f.text for f in extractor([msg("m1", "x")])] == ["Real"]


@pytest.fixture
def mem(db_target: str) -> Memory:
    return Memory(db_target, embedder=None)


def test_appending_marks_messages_and_a_runner_extracts_later(db_target: str) -> None:
    mem = Memory(db_target)  # the bundled embedder: a move shares no word with a home
    me = mem.scope("acme", "priya")
    me.recall.append("user", "I live in Seattle. My dog is called Miso.", extract=True)
    me.recall.append("assistant", "Nice!", extract=True)  # only user messages are queued
    me.recall.append("user", "Quick update: I moved to Austin.", extract=True)
    assert me.archive.count() == 0  # nothing is extracted on the write path
    assert mem.store.sweep(at=mem.now()) == 1  # one job for the scope's marked messages
    (job,) = mem.store.jobs(status="pending")
    assert job.payload == {"messages": ["m1", "m3"]}
    assert mem.store.sweep(at=mem.now()) == 0  # marks are cleared with the sweep
    runner = JobRunner(mem)
    assert runner.run_pending() == 2  # one extraction, one consolidation
    notes = {r.text: r for r in me.archive.list()}
    assert notes["My dog is called Miso"].metadata["extracted_from"] == ["m1"]
    assert notes["My dog is called Miso"].source == "messages m1"
    moved = notes["I moved to Austin"]
    assert notes["I live in Seattle"].superseded_by == moved.id
    assert (moved.consolidation, moved.consolidated_with) == (
        "superseded",
        notes["I live in Seattle"].id,
    )
    found = [h.record.text for h in me.archive.search("where do I live", k=5)]
    assert "I moved to Austin" in found
    assert "I live in Seattle" not in found
    assert runner.run_pending() == 0
    mem.close()


def test_a_crashed_worker_leaves_the_job_to_be_retried_whole(mem: Memory) -> None:
    me = mem.scope("acme", "priya")
    message = me.recall.append("user", "I work at Acme. I prefer window seats.")
    me.extract([message])
    job = mem.store.claim(["extract"], at=mem.now(), lease_seconds=0.01)
    assert job is not None  # this worker "crashes" here: nothing is written
    assert me.archive.count() == 0
    time.sleep(0.05)
    later = JobRunner(mem)
    assert later.run_pending() == 2
    assert me.archive.count() == 2
    # the crashed worker wakes up and tries to finish: it lost the lease, nothing is written
    assert mem.store.finish(job, records=[], actor="x", at=mem.now()) == []
    assert me.archive.count() == 2


def test_a_worker_whose_lease_was_taken_cannot_finish_or_fail_the_job(mem: Memory) -> None:
    """The job was claimed again (and is still running there): the first worker's late
    finish or fail changes nothing, on both backends."""
    me = mem.scope("acme", "priya")
    me.extract([me.recall.append("user", "I work at Acme.")])
    first = mem.store.claim(["extract"], at=mem.now(), lease_seconds=0.01)
    assert first is not None
    time.sleep(0.05)
    second = mem.store.claim(["extract"], at=mem.now(), lease_seconds=60)
    assert second is not None
    assert (second.id, second.attempts) == (first.id, first.attempts + 1)
    assert mem.store.finish(first, records=[], actor="x", at=mem.now()) == []
    mem.store.fail(first, "late", at=mem.now(), retry_after=None)
    (job,) = [j for j in mem.store.jobs() if j.id == first.id]
    assert (job.status, job.attempts, job.error) == ("running", 2, None)


def test_a_failing_extractor_is_retried_then_given_up(db_target: str) -> None:
    clock = {"now": T}

    def boom(messages: object) -> list[object]:
        raise RuntimeError("model down")

    memory = Memory(db_target, embedder=None, clock=lambda: clock["now"], extractor=boom)  # type: ignore[arg-type]
    me = memory.scope("acme", "priya")
    me.extract([me.recall.append("user", "I live in Oslo")])
    runner = JobRunner(memory)
    for _ in range(5):
        assert runner.run_pending() == 1
        clock["now"] += timedelta(hours=2)
    (job,) = memory.store.jobs()
    assert (job.status, job.attempts) == ("failed", 5)
    assert "model down" in (job.error or "")
    assert runner.run_pending() == 0


def test_extract_checks_its_messages(mem: Memory) -> None:
    me = mem.scope("acme", "priya")
    with pytest.raises(InvalidInputError, match="no messages"):
        me.extract([])
    with pytest.raises(InvalidInputError, match="no message 'm9'"):
        me.extract(["m9"])
    other = mem.scope("acme", "sam").recall.append("user", "I live in Rome")
    with pytest.raises(InvalidInputError, match="no message"):
        me.extract([other])


def test_the_worker_thread_drains_the_queue(mem: Memory) -> None:
    me = mem.scope("acme", "priya")
    me.recall.append("user", "I live in Porto.", extract=True)
    with JobWorker(mem, timedelta(milliseconds=20)):
        deadline = time.monotonic() + 10
        while me.archive.count() == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
    assert [r.text for r in me.archive.list()] == ["I live in Porto"]


def test_jobs_command_runs_and_reports(db_target: str) -> None:
    from click.testing import CliRunner

    from pagemem.cli import cli

    path = db_target
    with Memory(path, embedder=None) as memory:
        memory.scope("acme", "priya").recall.append("user", "I live in Oslo.", extract=True)
    out = CliRunner().invoke(cli, ["jobs", "--db", str(path), "--run", "--status", "done"])
    assert out.exit_code == 0, out.output
    assert "ran 2 jobs: 2 done, 0 failed" in out.output
    assert "extract      done     1" in out.output
    with Memory(path, embedder=None) as memory:
        assert memory.scope("acme", "priya").archive.count() == 1


def test_a_queued_whole_scope_consolidation(mem: Memory) -> None:
    me = mem.scope("acme", "priya")
    me.archive.insert_many(["I like green tea", "I like green tea"])
    mem.store.enqueue(me.scope, "consolidate", {}, at=mem.now())
    assert JobRunner(mem).run_pending() == 1
    assert [r.mentions for r in me.archive.list() if r.expired_at is None] == [2]
