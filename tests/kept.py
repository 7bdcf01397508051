"""The suite-wide invariant: an acknowledged write is kept.

Every id that `archive.insert`, `insert_many`, `update` or `put` hands back is remembered
with the text it stored. Before the memory closes (and at the end of the test for
memories left open) each one must still read back the same text under the same id,
unless the note was deleted, forgotten or expired by retention, which the history
says.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from pagemem import Memory, NotFoundError
from pagemem.memory.archive import Archive

_GONE = {"delete", "forget_all"}


class Ledger:
    def __init__(self) -> None:
        self.writes: dict[int, tuple[Memory, list[tuple[Any, str, str]]]] = {}
        self.closed: set[int] = set()
        self.lost: list[str] = []

    def note(self, archive: Archive, ids: list[str]) -> None:
        owner = archive._owner
        memory = owner.memory
        entry = self.writes.setdefault(id(memory), (memory, []))
        records = {r.id: r for r in memory.store.get_records(owner.scope, ids)}
        for record_id in ids:
            record = records.get(record_id)
            if record is None:
                self.lost.append(f"{owner.scope} {record_id}: acknowledged but not stored")
                continue
            entry[1].append((owner, record_id, record.text))

    def verify(self, memory: Memory) -> None:
        entry = self.writes.pop(id(memory), None)
        if entry is None or id(memory) in self.closed:
            return
        for owner, record_id, text in entry[1]:
            try:
                stored = owner.archive.get(record_id).text
            except NotFoundError:
                ops = {e.op for e in owner.history(record_id)} | {
                    e.op for e in owner.history(limit=100_000) if e.op == "forget_all"
                }
                if not ops & _GONE:
                    self.lost.append(f"{owner.scope} {record_id}: {text!r} is gone")
                continue
            if stored != text:
                self.lost.append(f"{owner.scope} {record_id}: {text!r} became {stored!r}")

    def verify_open(self) -> None:
        for memory, _ in list(self.writes.values()):
            try:
                self.verify(memory)
            except Exception as exc:  # a store the test closed or broke on purpose
                self.lost.append(f"could not read back: {exc!r}")


def watch(monkeypatch: Any) -> Ledger:
    ledger = Ledger()

    def remember(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def wrapper(self: Archive, *args: Any, **kwargs: Any) -> Any:
            result = method(self, *args, **kwargs)
            ledger.note(self, list(result) if isinstance(result, list) else [result])
            return result

        return wrapper

    for name in ("insert", "insert_many", "update", "put"):
        monkeypatch.setattr(Archive, name, remember(getattr(Archive, name)))
    close = Memory.close

    def closing(self: Memory) -> None:
        if id(self) not in ledger.closed:
            ledger.verify(self)
            ledger.closed.add(id(self))
        close(self)

    monkeypatch.setattr(Memory, "close", closing)
    return ledger
