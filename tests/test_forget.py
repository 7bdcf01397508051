"""Forgetting removes the text from every table, index, summary and file page."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pagemem import Context, Memory, ScopedMemory
from pagemem.retrieval.config import RetrievalConfig


def _files(path: Path) -> bytes:
    """The database, its journal, and its index snapshots."""
    found = [p for p in path.parent.glob(path.name + "*") if p.is_file()]
    found += [p for p in path.parent.glob(path.name + ".index/*") if p.is_file()]
    return b"".join(p.read_bytes() for p in found)


def _fill(me: ScopedMemory, word: str) -> Context:
    me.archive.insert(f"Priya's dog is called {word} and loves the beach", origin="user")
    me.archive.insert("Priya prefers aisle seats", origin="user")
    me.blocks.set("human", f"Name: Priya. Dog: {word}.")
    ctx = Context(me, max_tokens=60, system="You help.", summary_tokens=20, envelope=False)
    for i in range(6):
        ctx.append("user", f"Story {i} about {word} the dog at the park")
    assert word in me.recall.summary()
    assert me.recall.search(word)
    return ctx


def test_forget_all_leaves_no_byte_behind(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    # every index is saved beside the file, as large scopes' are
    with Memory(path, retrieval=RetrievalConfig(snapshot_min=1)) as mem:
        me, other = mem.scope("acme", "priya"), mem.scope("acme", "sam")
        _fill(me, "Kumquatzilla")
        _fill(other, "Persimmonia")
        mem.ranker.close()  # snapshots of both scopes, before the forget
        assert len(list(path.parent.glob(path.name + ".index/*.npz"))) >= 2  # their notes
        counts = me.forget_all(actor="priya")
        assert counts["records"] == 2
        assert counts["messages"] == 6
        assert me.archive.count() == 0
        assert me.archive.search("dog") == []
        assert me.recall.search("dog") == []
        assert me.recall.in_context() == []
        assert me.recall.summary() == ""
        assert me.blocks.list() == []
        assert [(e.op, e.actor, e.before, e.after) for e in me.history()] == [
            ("forget_all", "priya", None, None)
        ]
        assert other.archive.count() == 2  # the other user keeps everything
        assert "Persimmonia" in other.recall.summary()
        assert me.archive.insert("a new note") == "a3"  # ids are never reused
    raw = _files(path)
    assert b"Kumquatzilla" not in raw
    assert b"kumquatzilla" not in raw.lower()
    assert b"Persimmonia" in raw  # the grep can see text that is still stored
    with sqlite3.connect(path) as conn:
        conn.execute("VACUUM")
    assert b"kumquatzilla" not in _files(path).lower()


def test_forget_a_phrase_previews_then_removes(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with Memory(path) as mem:
        me = mem.scope("acme", "priya")
        _fill(me, "Kumquatzilla")
        plan = me.forget("kumquatZILLA")
        assert not plan.done
        assert [r.id for r in plan.records] == ["a1"]
        assert len(plan.messages) == 6
        assert plan.blocks == ["human"]
        assert me.archive.count() == 2  # a preview changes nothing
        done = me.forget("kumquatzilla", confirm=True)
        assert done.done
        assert [r.id for r in me.archive.list()] == ["a2"]
        assert me.blocks.get("human").value == "Name: Priya. Dog: [forgotten]."
        assert "Kumquatzilla" not in me.recall.summary()
        assert me.recall.search("Kumquatzilla") == []
        assert me.recall.search("story", order="relevance") == []
        assert all(
            "kumquatzilla" not in (entry.before or "").lower()
            and "kumquatzilla" not in (entry.after or "").lower()
            for entry in me.history()
        )
        assert [h.record.id for h in me.archive.search("aisle seats")] == ["a2"]
    with sqlite3.connect(path) as conn:
        conn.execute("VACUUM")
    assert b"kumquatzilla" not in _files(path).lower()


def test_forget_tenant(db_target: str) -> None:
    with Memory(db_target, embedder=None) as mem:
        for user in ("priya", "sam"):
            mem.scope("acme", user).archive.insert(f"{user} likes tea")
        mem.scope("globex", "ann").archive.insert("ann likes tea")
        assert mem.forget_tenant("acme") == 2
        assert mem.scope("acme", "priya").archive.count() == 0
        assert mem.scope("acme", "sam").archive.count() == 0
        assert mem.scope("globex", "ann").archive.count() == 1
