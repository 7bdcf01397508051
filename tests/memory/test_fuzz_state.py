"""Stateful fuzzing of the Python API: arbitrary valid-looking values are written (texts
with odd Unicode, metadata of any JSON shape, times anywhere in the calendar and any
offset, tags, sources, blocks, messages), and after every step every read of the
scope must work: get, list, search (now and as of a past time), history, recall,
blocks and a complete export. A write either succeeds or raises `PagememError`;
anything else is a bug. Bounded and derandomized, so `make test` runs the same cases."""

from __future__ import annotations

import math
import shutil
import tempfile
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from pagemem import Memory, PagememError
from pagemem.memory.transfer import line_digest

ODD = ["\ud800", "\udfff", "\x00", "\u2028", "\ufeff", "\U0001f600", "\u0301", "\u202e", "'", '"']
CHARS = st.one_of(st.characters(), st.sampled_from(ODD))
TEXT = st.text(CHARS, max_size=40)
WORDS = st.text(st.sampled_from("abcdefg  .:"), min_size=1, max_size=30)
KEYS = st.one_of(TEXT, st.integers(), st.none())
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    TEXT,
)
JSONISH = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
    max_leaves=8,
)
METADATA = st.one_of(st.none(), st.dictionaries(KEYS, JSONISH, max_size=3))
OFFSETS = st.builds(
    lambda minutes: timezone(timedelta(minutes=minutes)), st.integers(-23 * 60, 23 * 60)
)
TIMES = st.one_of(
    st.none(),
    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31)),
    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31), timezones=OFFSETS),
)
TAGS = st.one_of(st.none(), st.lists(TEXT, max_size=3))
LABELS = st.one_of(st.sampled_from(["human", "persona", "project"]), TEXT)


class MemoryMachine(RuleBasedStateMachine):
    target = ""  # set per backend before a run

    def __init__(self) -> None:
        super().__init__()
        self.memory = Memory(self.target, embedder=None)
        self.me = self.memory.scope("fuzz", f"u{id(self)}")
        self.ids: list[str] = []

    def _write(self, action: Any) -> Any:
        try:
            return action()
        except PagememError:
            return None

    @rule(
        text=st.one_of(TEXT, WORDS),
        metadata=METADATA,
        tags=TAGS,
        source=TEXT,
        valid_from=TIMES,
        origin=st.sampled_from(["user", "agent", "tool", "web", "system", "rumour"]),
        kind=st.sampled_from(["semantic", "episodic", "procedural"]),
    )
    def insert(
        self,
        text: str,
        metadata: Any,
        tags: Any,
        source: str,
        valid_from: datetime | None,
        origin: str,
        kind: str,
    ) -> None:
        found = self._write(
            lambda: self.me.archive.insert(
                text,
                metadata=metadata,
                tags=tags,
                source=source,
                valid_from=valid_from,
                origin=origin,  # type: ignore[arg-type]
                kind=kind,  # type: ignore[arg-type]
            )
        )
        if found is not None:
            self.ids.append(found)
            assert self.me.archive.get(found).id == found

    @rule(
        items=st.lists(
            st.one_of(WORDS, st.fixed_dictionaries({"text": TEXT, "metadata": METADATA})),
            max_size=3,
        )
    )
    def insert_many(self, items: list[Any]) -> None:
        found = self._write(lambda: self.me.archive.insert_many(items))
        if found:
            self.ids += found

    @rule(data=st.data(), text=st.one_of(TEXT, WORDS))
    def update(self, data: st.DataObject, text: str) -> None:
        if self.ids:
            target = data.draw(st.sampled_from(self.ids))
            found = self._write(lambda: self.me.archive.update(target, text))
            if found is not None:
                self.ids.append(found)

    @rule(data=st.data())
    def delete(self, data: st.DataObject) -> None:
        if self.ids:
            target = data.draw(st.sampled_from(self.ids))
            self._write(lambda: self.me.archive.delete(target))

    @rule(
        label=LABELS,
        value=TEXT,
        description=st.one_of(st.none(), TEXT),
        limit=st.one_of(st.none(), st.integers(-1, 3000)),
    )
    def set_block(self, label: str, value: str, description: str | None, limit: int | None) -> None:
        self._write(lambda: self.me.blocks.set(label, value, description=description, limit=limit))

    @rule(
        role=st.sampled_from(["user", "assistant", "tool", "system", "narrator"]),
        content=TEXT,
        name=st.one_of(st.none(), TEXT),
    )
    def message(self, role: str, content: str, name: str | None) -> None:
        def append() -> None:
            self.me.recall.append(role, content, name=name)  # type: ignore[arg-type]
            in_context = [m.id for m in self.me.recall.in_context()]
            self.me.recall.evict(in_context[:-2])

        self._write(append)

    @rule(query=st.one_of(TEXT, WORDS), k=st.integers(-1, 60), as_of=TIMES)
    def search(self, query: str, k: int, as_of: datetime | None) -> None:
        self._write(lambda: self.me.archive.search(query, k, as_of=as_of))

    @rule(name=TEXT, system=TEXT, max_tokens=st.integers(0, 3000))
    def agent(self, name: str, system: str, max_tokens: int) -> None:
        agents = self.memory.agents("fuzz", self.me.scope.user)
        self._write(lambda: agents.create(name, system=system, max_tokens=max_tokens))

    @invariant()
    def every_read_works(self) -> None:
        me = self.me
        listed = me.archive.list(limit=1000, quarantined=None)
        for record in listed:
            assert me.archive.get(record.id).text == record.text
            assert me.archive.history(record.id)
        me.archive.search("a b c", k=5)
        me.archive.search("a", k=5, as_of=datetime(1990, 1, 1, tzinfo=UTC))
        me.recall.list(limit=1000)
        me.recall.search("a", order="relevance")
        me.blocks.list()
        me.history()
        self.memory.agents("fuzz", me.scope.user).list()
        lines = list(me.export())
        end = lines[-1]
        assert end["type"] == "end"
        assert end["lines"] == len(lines) - 1
        for line in lines[:-1]:
            line_digest(line)  # every line serialises
        ids = {line["id"] for line in lines if line["type"] == "note"}
        assert ids == {r.id for r in listed}
        for line in lines:
            if line["type"] == "note":
                assert all(not isinstance(v, float) or math.isfinite(v) for v in line.values())

    def teardown(self) -> None:
        self.memory.close()


FUZZ = settings(
    max_examples=60,
    stateful_step_count=15,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


def test_the_python_api_reads_back_whatever_it_accepted(db_target: str) -> None:
    folder = tempfile.mkdtemp(prefix="pagemem-fuzz-")
    try:
        MemoryMachine.target = (
            db_target if db_target.startswith("postgresql") else str(Path(folder) / "f.db")
        )
        run_state_machine_as_test(MemoryMachine, settings=FUZZ)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
