"""One validation boundary: what is stored can be read back, on both backends, and what
cannot is refused with the field named, before anything is written."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from pagemem import InvalidInputError, Memory, ScopedMemory

SURROGATE = "\ud800"


@pytest.fixture
def me(db_target: str) -> ScopedMemory:
    memory = Memory(db_target, embedder=None)
    return memory.scope("acme", "priya")


def everything_reads(me: ScopedMemory) -> None:
    """Every read of the scope works (the failures this module guards against broke all
    of them at once)."""
    for record in me.archive.list(limit=1000):
        me.archive.get(record.id)
    me.archive.search("anything at all", k=5)
    me.archive.search("tea", k=5, as_of=datetime(2020, 1, 1, tzinfo=UTC))
    lines = list(me.export())
    assert lines[-1]["type"] == "end"
    me.blocks.list()


@pytest.mark.parametrize("year", [1, 9, 999, 1000, 9999])
def test_any_year_round_trips_and_sorts(me: ScopedMemory, year: int) -> None:
    when = datetime(year, 6, 1, tzinfo=UTC)
    first = me.archive.insert("I like green tea", valid_from=datetime(2024, 1, 1, tzinfo=UTC))
    note = me.archive.insert("An old fact about tea", valid_from=when, consolidate=False)
    assert me.archive.get(note).valid_from == when
    everything_reads(me)
    then = {h.record.id for h in me.archive.search("tea", k=5, as_of=when + timedelta(days=1))}
    # text order is time order: only what had started by then is found
    assert then == ({note} if year < 2024 else {note, first})


def test_a_time_outside_the_calendar_once_in_utc_is_refused(me: ScopedMemory) -> None:
    ahead = timezone(timedelta(hours=5))
    with pytest.raises(InvalidInputError, match="valid_from"):
        me.archive.insert("x", valid_from=datetime(1, 1, 1, 1, tzinfo=ahead))
    with pytest.raises(InvalidInputError, match="valid_to"):
        me.archive.insert(
            "x", valid_to=datetime(9999, 12, 31, 23, tzinfo=timezone(-timedelta(hours=5)))
        )
    assert me.archive.count() == 0


@pytest.mark.parametrize(
    ("metadata", "named"),
    [
        ({"k": SURROGATE}, "metadata"),
        ({SURROGATE: "v"}, "metadata key"),
        ({"k": {"deep": [1, SURROGATE]}}, r"metadata\['k'\]\['deep'\]\[1\]"),
        ({1: "v"}, "metadata key"),
        ({"k": "\x00"}, "NUL"),
        ({"k": float("nan")}, "metadata"),
        ({"k": object()}, "metadata"),
        ({"k": "x" * 70_000}, "bytes"),
    ],
)
def test_metadata_that_cannot_round_trip_is_refused_and_nothing_is_written(
    me: ScopedMemory, metadata: dict[object, object], named: str
) -> None:
    kept = me.archive.insert("I like green tea", metadata={"ok": ["fine", 1, None]})
    with pytest.raises(InvalidInputError, match=named):
        me.archive.insert("Another note", metadata=metadata)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match=named):
        me.archive.insert_many(["fine", {"text": "Another note", "metadata": metadata}])
    assert [r.id for r in me.archive.list()] == [kept]
    assert me.archive.get(kept).metadata == {"ok": ["fine", 1, None]}
    everything_reads(me)


def test_block_descriptions_are_checked(me: ScopedMemory) -> None:
    with pytest.raises(InvalidInputError, match="description"):
        me.blocks.set("human", "Name: Priya", description=f"bad {SURROGATE}")
    with pytest.raises(InvalidInputError, match="description"):
        me.blocks.set("human", "Name: Priya", description="x" * 5000)
    with pytest.raises(InvalidInputError, match="description"):
        me.blocks.set("human", "Name: Priya", description=3)  # type: ignore[arg-type]
    assert [b.label for b in me.blocks.list() if b.label == "human"] in ([], ["human"])
    everything_reads(me)


def test_agent_settings_are_checked_before_anything_is_stored(db_target: str) -> None:
    memory = Memory(db_target, embedder=None)
    with pytest.raises(InvalidInputError, match="system prompt"):
        memory.agents("acme", "priya").create("helper", system=f"You help {SURROGATE}")
    with pytest.raises(InvalidInputError, match="max_tokens"):
        memory.agents("acme", "priya").create("helper", system="ok", max_tokens=0)
    with pytest.raises(InvalidInputError, match="agent"):
        memory.agents("acme", "priya").create("", system="ok")
    assert memory.agents("acme", "priya").list() == []
    made = memory.agents("acme", "priya").create("helper", system="You help.", max_tokens=900)
    assert memory.agents("acme", "priya").get("helper") == made
    assert [a.name for a in memory.agents("acme", "priya").list()] == ["helper"]
    memory.close()


def test_message_names_and_call_ids_are_checked(me: ScopedMemory) -> None:
    for kwargs in ({"name": SURROGATE}, {"tool_call_id": "x\x00"}, {"name": "n" * 300}):
        with pytest.raises(InvalidInputError, match=r"name|tool_call_id"):
            me.recall.append("tool", "result", **kwargs)  # type: ignore[arg-type]
    assert me.recall.in_context() == []
    everything_reads(me)
