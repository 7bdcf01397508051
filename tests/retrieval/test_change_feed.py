"""Another writer's changes reach this process's index through the store's change feed:
applied item by item, never a rebuild, and the results are those of a fresh index."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from pagemem import Memory
from pagemem.retrieval.config import RetrievalConfig
from tests.test_isolation_concurrent import HashEmbedder

QUERIES = ("where does Priya live", "dog", "flight gate", "tea")


def ranked(memory: Memory, user: str = "priya") -> list[list[tuple[str, tuple[str, ...]]]]:
    me = memory.scope("acme", user)
    return [[(h.record.id, h.flags) for h in me.archive.search(q, k=10)] for q in QUERIES]


@pytest.fixture
def target(db_target: str) -> str:
    return db_target


def test_a_foreign_writer_is_caught_up_without_a_rebuild(target: str) -> None:
    writer = Memory(target, embedder=HashEmbedder())
    reader = Memory(target, embedder=HashEmbedder())
    me = writer.scope("acme", "priya")
    for text in ("Priya lives in Seattle", "Priya's dog is Miso", "Gate B12 for the flight"):
        me.archive.insert(text, origin="user")
    assert ranked(reader)  # loads the index once
    assert reader.ranker.rebuilds == 1
    gone = me.archive.insert("Priya drinks green tea", origin="user")
    me.archive.insert("Priya lives in Portland now", origin="user")  # closes Seattle
    me.archive.insert_many(["the dog Miso likes the beach", "flight gate changed to C3"])
    me.archive.delete(gone)
    held = me.archive.insert("Priya's favourite tea is oolong", origin="user")
    me.archive.hold(held)
    assert ranked(reader) == ranked(Memory(target, embedder=HashEmbedder()))
    assert reader.ranker.rebuilds == 1
    assert reader.ranker.caught_up >= 6
    me.archive.release(held)
    assert ranked(reader) == ranked(Memory(target, embedder=HashEmbedder()))
    assert reader.ranker.rebuilds == 1


def test_a_forget_elsewhere_makes_the_reader_rebuild(target: str) -> None:
    writer = Memory(target, embedder=HashEmbedder())
    reader = Memory(target, embedder=HashEmbedder())
    writer.scope("acme", "priya").archive.insert("Priya lives in Seattle")
    assert ranked(reader)[0]
    writer.scope("acme", "priya").forget("Seattle", confirm=True)
    assert ranked(reader) == [[] for _ in QUERIES]
    assert reader.ranker.rebuilds == 2  # read afresh: no word of it stays in its index
    index = reader.ranker._indexes[(reader.scope("acme", "priya").scope, "records")]
    assert "seattl" not in index.bm25._postings


def test_this_process_follows_its_own_writes_through_the_store_alone(target: str) -> None:
    """No caller keeps the index in step: the store tells the ranker after each commit,
    and the index is what a fresh one would be, with no catch-up and no rebuild."""
    memory = Memory(target, embedder=HashEmbedder())
    me = memory.scope("acme", "priya")
    me.archive.insert("Priya lives in Seattle", origin="user")
    assert ranked(memory)  # loads the index once
    me.archive.insert("Priya lives in Portland now", origin="user")  # closes Seattle
    me.archive.insert_many(["the dog Miso likes the beach", "flight gate changed to C3"])
    tea = me.archive.insert("Priya drinks green tea", origin="user")
    me.archive.hold(tea)
    me.recall.append("user", "my gate is C3")
    assert ranked(memory) == ranked(Memory(target, embedder=HashEmbedder()))
    assert (memory.ranker.rebuilds, memory.ranker.caught_up) == (1, 0)
    me.archive.release(tea)
    me.archive.delete(tea)
    assert ranked(memory) == ranked(Memory(target, embedder=HashEmbedder()))
    assert (memory.ranker.rebuilds, memory.ranker.caught_up) == (1, 0)
    # a write is searchable, its vector stored, before any search loads the scope
    other = memory.scope("acme", "sam")
    note = other.archive.insert("Sam's locker code is 4471")
    model = memory.ranker.embedder_id
    assert memory.store.index_rows(other.scope, after=0, limit=5, model_id=model)[0].vector
    assert [h.record.id for h in other.archive.search("locker code")] == [note]


def test_recall_follows_another_process_too(target: str) -> None:
    writer = Memory(target, embedder=HashEmbedder())
    reader = Memory(target, embedder=HashEmbedder())
    me, other = writer.scope("acme", "priya"), reader.scope("acme", "priya")
    first = me.recall.append("user", "my flight leaves from gate B12")
    me.recall.evict([first.id])
    assert [m.id for m in other.recall.search("gate", order="relevance")] == [first.id]
    second = me.recall.append("user", "the gate moved to C3 this morning")
    me.recall.evict([second.id])
    found = [m.id for m in other.recall.search("gate", order="relevance")]
    assert set(found) == {first.id, second.id}
    assert reader.ranker.rebuilds == 1


def test_another_process_writing_costs_the_reader_no_rebuild(tmp_path: Path) -> None:
    """Two real processes on one SQLite file."""
    db = tmp_path / "two.db"
    reader = Memory(db, embedder=HashEmbedder())
    reader.scope("acme", "priya").archive.insert("Priya lives in Seattle")
    assert ranked(reader)
    script = (
        "import sys; sys.path.insert(0, sys.argv[2]);"
        "from pagemem import Memory;"
        "from tests.test_isolation_concurrent import HashEmbedder;"
        "m = Memory(sys.argv[1], embedder=HashEmbedder());"
        "me = m.scope('acme', 'priya');"
        "[me.archive.insert(f'note {i} about the dog Miso', kind='episodic') for i in range(20)];"
        "me.archive.insert('Priya lives in Portland now', origin='user')"
    )
    root = str(Path(__file__).resolve().parents[2])
    subprocess.run([sys.executable, "-c", script, str(db), root], check=True, timeout=120)
    assert ranked(reader) == ranked(Memory(db, embedder=HashEmbedder()))
    assert reader.ranker.rebuilds == 1
    assert reader.ranker.caught_up >= 21  # each insert (and any fact it closed), one by one


# every note scored from its int8 code and the two nearest exactly (as past 50,000)
CODED = RetrievalConfig(scan_threshold=1, ann_candidates=2)


@pytest.mark.parametrize("config", [None, CODED], ids=["exact", "coded"])
def test_a_note_held_and_released_ranks_as_in_a_fresh_index(
    target: str, config: RetrievalConfig | None
) -> None:
    """Neighbours follow the order notes were written, not the index's: a released note
    (added again at the end of the index) keeps its place in the conversation, and the
    same notes rank the same after a restart and after export and import."""
    turns = [
        "we talked about the trip to Lisbon",
        "the hotel is near the river",
        "Priya booked the flight for May",
        "the dog Miso stays with Sam",
        "dinner on Friday at the Thai place",
        "the train to Porto leaves at nine",
    ]
    memory = Memory(target, embedder=HashEmbedder(), retrieval=config)
    me = memory.scope("acme", "priya")
    ids = [me.archive.insert(t, kind="episodic") for t in turns]
    queries = ("river hotel", "flight May", "Miso", "train Porto", "Lisbon trip")

    def ranks(m: Memory, user: str = "priya") -> list[list[tuple[str, float]]]:
        scope = m.scope("acme", user)
        return [
            [(h.record.id, round(h.score, 6)) for h in scope.archive.search(q, k=6)]
            for q in queries
        ]

    before = ranks(memory)
    me.archive.hold(ids[2])
    me.archive.release(ids[2])
    assert (
        ranks(memory) == ranks(Memory(target, embedder=HashEmbedder(), retrieval=config)) == before
    )
    exported = io.StringIO()
    me.export_jsonl(exported)
    memory.scope("acme", "priya-copy").restore(exported.getvalue().splitlines())
    assert ranks(memory, "priya-copy") == before


def test_writes_nothing_reads_between_wait_in_small_amounts(target: str) -> None:
    """This process's writes reach a loaded index at its next use; with none between
    them (messages appended one after another, episodes noted) they are taken now and
    then, so what waits stays bounded, and a search after them sees every one."""
    from pagemem.retrieval import keeper

    memory = Memory(target, embedder=HashEmbedder())
    me = memory.scope("acme", "priya")
    me.archive.insert("Priya's gate is C3", kind="episodic")
    assert me.archive.search("gate")  # the index is loaded
    waiting = []
    for n in range(3 * keeper._PENDING_LIMIT):  # episodes: no lookup before each write
        me.archive.insert(f"note number {n} about the allotment", kind="episodic")
        waiting.append(
            sum(len(items) for items, _ in memory.ranker._pending.get((me.scope, "records"), []))
        )
    assert max(waiting) < keeper._PENDING_LIMIT
    assert (memory.ranker.rebuilds, memory.ranker.caught_up) == (1, 0)
    found = me.archive.search("note number 700 allotment", k=3)
    assert any("number 700 " in hit.record.text for hit in found)
