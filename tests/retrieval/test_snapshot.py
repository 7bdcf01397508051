"""A scope's index saved beside its SQLite file: the next process starts from it, ranks
exactly as a fresh build would, and no snapshot keeps a note that was removed."""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pagemem import Memory
from pagemem.retrieval.config import RetrievalConfig
from tests.test_isolation_concurrent import HashEmbedder

QUERIES = ("where does Priya live", "dog", "flight gate", "tea", "zanzibarite")
SAVING = RetrievalConfig(snapshot_min=1)
NEVER = RetrievalConfig(snapshot_min=float("inf"))
NOTES = [
    "Priya lives in Seattle",
    "Priya's dog is Miso",
    "Gate B12 for the flight to Lisbon",
    "Priya drinks green tea every morning",
    "the dog Miso likes the beach",
    "a rare zanzibarite crystal sits on the shelf",
    *(f"note number {n} about the garden and the allotment" for n in range(30)),
]


def ranked(memory: Memory) -> list[list[tuple[str, tuple[str, ...]]]]:
    me = memory.scope("acme", "priya")
    return [[(h.record.id, h.flags) for h in me.archive.search(q, k=8)] for q in QUERIES]


def fresh(path: Path) -> list[list[tuple[str, tuple[str, ...]]]]:
    """What an index built from the store alone ranks."""
    with Memory(path, embedder=HashEmbedder(), retrieval=NEVER) as memory:
        return ranked(memory)


def opened(path: Path, config: RetrievalConfig = SAVING) -> Memory:
    return Memory(path, embedder=HashEmbedder(), retrieval=config)


def snapshot_files(path: Path) -> list[Path]:
    folder = Path(str(path) + ".index")
    return sorted(folder.iterdir()) if folder.exists() else []


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """A file with notes and a snapshot of its index, written when the memory closed."""
    target = tmp_path / "m.db"
    with opened(target) as memory:
        memory.scope("acme", "priya").archive.insert_many(
            [{"text": t, "origin": "user"} for t in NOTES]
        )
        assert ranked(memory)
    assert [p.suffix for p in snapshot_files(target)] == [".npz"]
    return target


def test_a_new_process_starts_from_the_snapshot_and_ranks_as_a_fresh_build(path: Path) -> None:
    with opened(path) as memory:
        assert ranked(memory) == fresh(path)
        assert (memory.ranker.restored, memory.ranker.rebuilds) == (1, 0)


def test_what_another_writer_changed_since_is_applied_from_the_feed(path: Path) -> None:
    with opened(path, NEVER) as writer:
        me = writer.scope("acme", "priya")
        me.archive.insert("Priya lives in Portland now", origin="user")  # closes Seattle
        me.archive.insert_many(["flight gate changed to C3", "oolong tea is her favourite"])
        held = me.archive.insert("Priya's dog Miso is a corgi", origin="user")
        me.archive.hold(held)
    with opened(path) as memory:
        assert ranked(memory) == fresh(path)
        assert (memory.ranker.restored, memory.ranker.rebuilds) == (1, 0)
        assert memory.ranker.caught_up >= 4


def test_beyond_the_feed_the_snapshot_is_checked_against_the_store(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pagemem.store.sql_core.CHANGES_KEPT", 2)  # the feed reaches back 2
    with opened(path, NEVER) as writer:
        me = writer.scope("acme", "priya")
        me.archive.insert("Priya lives in Portland now", origin="user")
        me.archive.insert_many([f"another garden note {n}" for n in range(5)])
        me.archive.delete("a3")
    with opened(path) as memory:
        assert ranked(memory) == fresh(path)
        assert (memory.ranker.restored, memory.ranker.rebuilds) == (1, 0)


def test_a_delete_removes_the_snapshot_and_no_later_one_holds_the_note(path: Path) -> None:
    assert any(b"zanzibarit" in p.read_bytes() for p in snapshot_files(path))
    with opened(path) as memory:
        me = memory.scope("acme", "priya")
        crystal = me.archive.search("zanzibarite", k=1)[0].record
        assert "zanzibarite" in crystal.text  # restored: the crystal is found
        me.archive.delete(crystal.id)
        assert snapshot_files(path) == []  # at once, not at close
        me.archive.insert("Priya waters the garden on Sundays", origin="user")
        assert crystal.id not in {i for hits in ranked(memory) for i, _ in hits}
    kept = snapshot_files(path)
    assert kept
    assert not any(b"zanzibarit" in p.read_bytes() for p in kept)
    with opened(path) as memory:
        assert ranked(memory) == fresh(path)
        assert memory.ranker.restored == 1


def test_a_forget_removes_every_snapshot_of_the_scope(path: Path) -> None:
    with opened(path) as memory:
        memory.scope("acme", "priya").forget("zanzibarite", confirm=True)
        assert snapshot_files(path) == []
    assert not any(b"zanzibarit" in p.read_bytes() for p in snapshot_files(path))


def test_a_snapshot_of_another_database_or_model_is_not_used(path: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with opened(other, NEVER) as memory:
        memory.scope("acme", "priya").archive.insert_many(NOTES[:3])
    shutil.copytree(str(path) + ".index", str(other) + ".index")
    with opened(other) as memory:
        assert memory.ranker.restored == 0
        assert ranked(memory) == fresh(other)
        assert memory.ranker.restored == 0
    with Memory(path, embedder=None, retrieval=SAVING) as memory:  # words alone
        ranked(memory)
        assert (memory.ranker.restored, memory.ranker.rebuilds) == (0, 1)


def test_a_damaged_snapshot_is_ignored_with_a_warning(
    path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (snapshot,) = snapshot_files(path)
    snapshot.write_bytes(snapshot.read_bytes()[: snapshot.stat().st_size // 2])
    with caplog.at_level(logging.WARNING), opened(path) as memory:
        assert ranked(memory) == fresh(path)
        assert (memory.ranker.restored, memory.ranker.rebuilds) == (0, 1)
    assert "ignoring the index snapshot" in caplog.text


def test_a_snapshot_taken_before_a_write_is_not_put_in_place(path: Path) -> None:
    with opened(path) as memory:
        ranked(memory)
        ranker = memory.ranker
        scope = memory.scope("acme", "priya").scope
        index = ranker._indexes[(scope, "records")]
        snapshots = ranker._snapshots
        assert snapshots is not None
        snapshots.drop(scope, "records")
        kept = snapshots.write(
            ranker._stamp(scope, "records"),
            scope,
            "records",
            index.export(),
            index.revision,
            None,
            lambda: index.revision + 1,  # a write committed while it was being written
        )
        assert not kept
        assert snapshot_files(path) == []


def test_the_hnsw_graph_is_saved_and_read_back(tmp_path: Path) -> None:
    target = tmp_path / "m.db"
    config = RetrievalConfig(snapshot_min=1, ann_threshold=10)
    with opened(target, config) as memory:
        memory.scope("acme", "priya").archive.insert_many(
            [{"text": t, "origin": "user"} for t in NOTES]
        )
        before = ranked(memory)
    assert sorted(p.suffix for p in snapshot_files(target)) == [".npz", ".usearch"]
    with opened(target, config) as memory:
        index = memory.ranker._restore(memory.scope("acme", "priya").scope, "records", 0)
        assert index is None  # taken at a revision the store has not reached: not used
        assert ranked(memory) == before
        loaded = memory.ranker._indexes[(memory.scope("acme", "priya").scope, "records")]
        assert loaded.vectors.graph is not None
        assert memory.ranker.rebuilds == 0
        # a graph read back is not a new one: the first search does not write it all again
        # (at a million notes that rewrite took 6.4 of a restart's 11.8 s)
        assert memory.ranker.restored == 1
        assert memory.ranker.saved == 0


def test_two_processes_one_writing_one_starting_from_the_snapshot(path: Path) -> None:
    """Another process deletes and adds notes after the snapshot was taken; this one
    starts from the snapshot and ranks as a fresh build, and the deleted note's
    snapshot is gone."""
    script = (
        "import sys; from pagemem import Memory;"
        "from pagemem.retrieval.config import RetrievalConfig;"
        "from tests.test_isolation_concurrent import HashEmbedder;"
        "m = Memory(sys.argv[1], embedder=HashEmbedder(), "
        "retrieval=RetrievalConfig(snapshot_min=1));"
        "me = m.scope('acme', 'priya');"
        "me.archive.delete(me.archive.search('zanzibarite', k=1)[0].record.id);"
        "me.archive.insert_many(['the allotment shed needs a new roof', 'tea at four']);"
        "m.close()"
    )
    subprocess.run(
        [sys.executable, "-c", script, str(path)],
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert not any(b"zanzibarit" in p.read_bytes() for p in snapshot_files(path))
    with opened(path) as memory:
        assert ranked(memory) == fresh(path)
        found = memory.scope("acme", "priya").archive.search("zanzibarite", k=8)
        assert not any("zanzibarite" in hit.record.text for hit in found)


def test_a_snapshot_file_is_mapped_array_by_array_as_numpy_wrote_it(tmp_path: Path) -> None:
    """Arrays are mapped from the file (read when used), equal to what np.load reads;
    a compressed or cut-short file is refused, so the index is built instead."""
    import zipfile

    import numpy as np
    import pytest

    from pagemem.retrieval.snapshot import _mapped

    arrays = {
        "vectors": np.arange(12, dtype=np.float32).reshape(3, 4),
        "fortran": np.asfortranarray(np.arange(6, dtype=np.int64).reshape(2, 3)),
        "empty": np.zeros((0, 4), dtype=np.float32),
        "text": np.frombuffer(b"a1\na2", dtype=np.uint8),
    }
    path = tmp_path / "s.npz"
    np.savez(path, **arrays)
    mapped = _mapped(path)
    assert sorted(mapped) == sorted(arrays)
    rows = mapped.pop("vectors")  # rows, never written through the mapping
    assert np.array_equal(rows.array, arrays["vectors"])
    assert not rows.array.flags.writeable
    assert np.array_equal(rows.take(np.asarray([2, 0])), arrays["vectors"][[2, 0]])
    rows.release()  # pages given back are read again when used
    assert np.array_equal(rows.array, arrays["vectors"])
    for name, array in mapped.items():
        assert array.dtype == arrays[name].dtype
        assert np.array_equal(array, arrays[name])
    mapped["fortran"][0, 0] = 99  # copy on write: the file keeps what it had
    assert np.load(path)["fortran"][0, 0] == 0
    np.savez_compressed(tmp_path / "c.npz", **arrays)
    with pytest.raises(ValueError, match="uncompressed"):
        _mapped(tmp_path / "c.npz")
    blob = path.read_bytes()
    cut = tmp_path / "cut.npz"
    cut.write_bytes(blob[: len(blob) // 2])
    with pytest.raises((ValueError, OSError, zipfile.BadZipFile)):
        _mapped(cut)


def test_arrays_given_in_parts_are_written_as_one_without_joining_them(tmp_path: Path) -> None:
    """A snapshot's vectors come as the parts that hold them (rows mapped from the last
    snapshot, rows added since): the file holds them as one array, for np.load and for
    mapping alike."""
    import numpy as np

    from pagemem.retrieval.mapped import Blocks, spill
    from pagemem.retrieval.snapshot import _mapped, _save_npz

    whole = np.arange(20, dtype=np.float32).reshape(5, 4)
    added = whole[3:]
    with (tmp_path / "base.bin").open("w+b") as file:
        base = spill(file, whole[:3], kept=0, dim=4)  # rows mapped from a file
    path = tmp_path / "s.npz"
    for kept in (None, np.asarray([True, False, True])):
        with path.open("wb") as handle:
            parts = [Blocks(base, kept), added]
            _save_npz(handle, {"vectors": parts, "live": np.ones(5, bool)})
        want = whole if kept is None else whole[[0, 2, 3, 4]]
        assert np.array_equal(np.load(path)["vectors"], want)
        assert np.array_equal(_mapped(path)["vectors"].array, want)
        assert np.array_equal(np.load(path)["live"], np.ones(5, bool))


def test_the_snapshot_written_at_close_holds_the_last_writes(path: Path) -> None:
    """This process's writes reach its index when the index is next used; closing uses
    it, so the next process has nothing to catch up on."""
    with opened(path) as memory:
        me = memory.scope("acme", "priya")
        assert ranked(memory)  # loaded
        me.archive.insert("Priya's locker code is 4471", origin="user")
        me.archive.insert_many(["the allotment shed needs a new lock", "tea on Fridays"])
    with opened(path) as memory:
        assert ranked(memory) == fresh(path)
        assert (memory.ranker.restored, memory.ranker.caught_up, memory.ranker.rebuilds) == (
            1,
            0,
            0,
        )
