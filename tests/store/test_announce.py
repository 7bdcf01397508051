"""The store tells this process's listeners what each committed write changed: once,
after the commit, in order; nothing for a write that failed."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pagemem.models import Scope
from pagemem.store import open_store
from pagemem.store.announce import Announcer
from pagemem.store.base import NewRecord, Store

SCOPE = Scope("acme", "priya")
AT = datetime(2026, 1, 1, tzinfo=UTC)
Heard = list[tuple[Scope, str, list[str] | None]]


def note(text: str) -> NewRecord:
    return NewRecord(
        text=text,
        kind="semantic",
        origin="user",
        source="",
        created_at=AT,
        valid_from=AT,
        valid_to=None,
        tags=(),
        metadata={},
        flags=(),
    )


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    target = (
        str(request.getfixturevalue("postgres_url"))
        if request.param == "postgres"
        else str(tmp_path / "m.db")
    )
    opened = open_store(target)
    yield opened
    opened.close()


def listen(store: Store) -> Heard:
    heard: Heard = []

    def listener(scope: Scope, collection: str, items: Sequence[str] | None) -> None:
        heard.append((scope, collection, None if items is None else list(items)))

    store.listen(listener)
    return heard


def test_every_kind_of_write_is_told_after_it_commits(store: Store) -> None:
    heard = listen(store)
    a, b = store.insert_records(SCOPE, [note("one"), note("two")], actor="user")
    assert heard == [(SCOPE, "records", [a.id, b.id])]
    store.retire(
        SCOPE, a.id, valid_to=AT, superseded_by=b.id, reason="", op="supersede", actor="u", at=AT
    )
    store.set_quarantined(SCOPE, b.id, True, actor="reviewer", at=AT)
    store.delete_record(SCOPE, a.id, actor="user", at=AT)
    retired, held, deleted = [a.id], [b.id], [a.id]
    assert heard[1:] == [(SCOPE, "records", ids) for ids in (retired, held, deleted)]
    store.reset(SCOPE)  # a forget or retention: every index reads the scope afresh
    assert heard[-2:] == [(SCOPE, "records", None), (SCOPE, "recall", None)]


def test_a_transaction_that_fails_tells_nothing() -> None:
    announcer = Announcer()
    heard: Heard = []
    announcer.listen(lambda s, c, items: heard.append((s, c, None)))

    def failing() -> None:
        with announcer.transaction():
            announcer.stage(SCOPE, "records", ["a1"])
            raise RuntimeError("rolled back")

    with pytest.raises(RuntimeError, match="rolled back"):
        failing()
    assert heard == []
    with announcer.transaction():  # and the next one starts clean
        announcer.stage(SCOPE, "records", ["a2"])
    assert heard == [(SCOPE, "records", None)]


def test_what_one_transaction_staged_is_told_once_per_scope_in_order() -> None:
    announcer = Announcer()
    heard: Heard = []
    announcer.listen(lambda s, c, items: heard.append((s, c, None if items is None else [*items])))
    other = Scope("acme", "sam")
    with announcer.transaction():
        announcer.stage(SCOPE, "records", ["a1"])
        with announcer.transaction():  # nested: told with the outermost
            announcer.stage(other, "records", ["a1"])
            announcer.stage(SCOPE, "records", ["a2", "a3"])
        assert heard == []
    assert heard == [(SCOPE, "records", ["a1", "a2", "a3"]), (other, "records", ["a1"])]
    heard.clear()
    with announcer.transaction():
        announcer.stage(SCOPE, "records", ["a4"])
        announcer.stage(SCOPE, "records", None)  # the whole collection stands for all
    assert heard == [(SCOPE, "records", None)]


def test_a_failing_listener_cannot_undo_a_committed_write(
    caplog: pytest.LogCaptureFixture,
) -> None:
    announcer = Announcer()
    heard: Heard = []

    def broken(scope: Scope, collection: str, items: Sequence[str] | None) -> None:
        raise RuntimeError("index exploded")

    announcer.listen(broken)
    announcer.listen(lambda s, c, items: heard.append((s, c, None)))
    with announcer.transaction():
        announcer.stage(SCOPE, "records", ["a1"])
    assert heard == [(SCOPE, "records", None)]  # the next listener is still told
    assert "index exploded" in caplog.text


def test_a_change_staged_outside_a_transaction_is_refused() -> None:
    # told at once, a listener would read a write that has not committed yet
    announcer = Announcer()
    with pytest.raises(RuntimeError, match="outside"):
        announcer.stage(SCOPE, "records", ["a1"])
