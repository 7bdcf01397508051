from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest

from pagemem.retrieval import mapped as mapped_module
from pagemem.retrieval import vectors as vectors_module
from pagemem.retrieval.mapped import Blocks, MappedRows, spill
from pagemem.retrieval.vectors import Part, VectorSet


def _unit(rng: np.random.Generator, count: int, dim: int) -> np.ndarray:
    rows = rng.normal(size=(count, dim)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.mark.parametrize("copied", [8, 10_000])  # the snapshot's rows mapped, or all copied
@pytest.mark.parametrize("ann", [False, True])
def test_a_restored_set_that_grows_answers_as_one_built_whole(
    copied: int, ann: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows read from a snapshot stay where they are (read-only here: a write would
    raise) and rows added after them live apart; every answer is the one a set
    holding all of them in one matrix gives."""
    monkeypatch.setattr(vectors_module, "_RECENT_COPIED", copied)
    rng = np.random.default_rng(5)
    dim, first, later = 16, 300, 90
    rows = _unit(rng, first + later, dim)
    threshold = 100 if ann else 10**9
    whole = VectorSet(dim, ann_threshold=threshold, ann_candidates=400)
    whole.add_many(0, rows, np.ones(len(rows), bool))
    built = VectorSet(dim, ann_threshold=threshold, ann_candidates=400)
    built.add_many(0, rows[:first], np.ones(first, bool))
    snapshot = built.export(np.ones(first, bool))
    snapshot["vectors"] = _mapped_rows(_stacked(snapshot["vectors"]))  # as read from a file
    restored = VectorSet(dim, ann_threshold=threshold, ann_candidates=400)
    restored.restore(snapshot)
    for start in range(first, first + later, 30):  # added in a few batches: it grows
        restored.add_many(start, rows[start : start + 30], np.ones(30, bool))
    for gone in (3, 150, first - 1, first + 5):  # removed from both parts
        whole.remove(gone)
        restored.remove(gone)

    assert len(restored) == len(whole)
    docs = [0, 7, first - 1, first, first + 40, first + later - 1]
    assert np.array_equal(restored.rows(docs), whole.rows(docs))
    query = _unit(rng, 1, dim)[0]
    for centre in (False, True):
        _assert_same_scores(restored, whole, query, centre=centre, exact=not ann)
        picked = np.asarray([1, first - 2, first + 10], dtype=np.int64)
        for a, b in zip(
            restored.scores_of(query, picked, centre=centre),
            whole.scores_of(query, picked, centre=centre),
            strict=True,
        ):
            assert np.allclose(a, b, atol=1e-5)
    mask = np.ones(first + later, bool)
    mask[first + 1] = False  # the caller's mask counts too
    for window in (20, 150, 10_000):  # within the added rows, across both parts, all
        _assert_same_neighbours(restored, whole, query, window=window, mask=mask)
    for keep in (np.ones(first + later, bool), mask):  # every row, or some left out
        mine, theirs = restored.export(keep), whole.export(keep)
        assert mine.keys() == theirs.keys()
        for name, array in mine.items():
            assert np.array_equal(_stacked(array), _stacked(theirs[name]))


def _stacked(array: np.ndarray | list[Part]) -> np.ndarray:
    if not isinstance(array, list):
        return array
    return np.concatenate([part.whole() if isinstance(part, Blocks) else part for part in array])


def _assert_same_scores(
    got_set: VectorSet, want_set: VectorSet, query: np.ndarray, *, centre: bool, exact: bool
) -> None:
    """`scores` agree; two graphs built apart may pick a few candidates apart."""
    got, got_scored, got_plain = got_set.scores(query, centre=centre)
    want, want_scored, want_plain = want_set.scores(query, centre=centre)
    both = got_scored & want_scored
    assert not exact or np.array_equal(got_scored, want_scored)
    assert both.sum() >= 0.9 * want_scored.sum()
    assert np.allclose(got[both], want[both], atol=1e-5)
    assert np.allclose(got_plain[both], want_plain[both], atol=1e-5)


def _assert_same_neighbours(
    got_set: VectorSet, want_set: VectorSet, query: np.ndarray, *, window: int, mask: np.ndarray
) -> None:
    got = sorted(got_set.nearest_recent(np.stack([query]), 5, window=window, mask=mask)[0])
    want = sorted(want_set.nearest_recent(np.stack([query]), 5, window=window, mask=mask)[0])
    assert [doc for doc, _ in got] == [doc for doc, _ in want]
    assert [value for _, value in got] == pytest.approx([value for _, value in want])


def _mapped_rows(rows: np.ndarray) -> MappedRows:
    """The rows as a snapshot's file gives them: mapped, read-only."""
    with tempfile.TemporaryFile() as handle:
        return spill(handle, rows, kept=0, dim=rows.shape[1])


def test_a_set_past_its_threshold_keeps_its_rows_in_a_file_and_answers_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the threshold the rows but the latest move to an unnamed file in the index
    folder, mapped; every answer is the one a set holding them in memory gives, and a
    snapshot written from it reads back the same."""
    from pagemem.retrieval.snapshot import _mapped, _save_npz

    monkeypatch.setattr(vectors_module, "_SPILL_ROWS", 40)
    monkeypatch.setattr(vectors_module, "_RECENT_COPIED", 16)
    monkeypatch.setattr(mapped_module, "_RELEASE_ROWS", 50)  # pages given back often
    monkeypatch.setattr(mapped_module, "BLOCK_ROWS", 64)
    rng = np.random.default_rng(8)
    dim, count = 16, 500
    rows = _unit(rng, count, dim)
    present = rng.random(count) > 0.05  # a few notes without a vector
    # the graph's candidates are every row: both score (nearly) the same rows
    held = VectorSet(dim, ann_threshold=100, ann_candidates=count)
    filed = VectorSet(dim, ann_threshold=100, ann_candidates=count, spill=tmp_path / "index")
    for start in range(0, count, 30):
        stop = min(count, start + 30)
        held.add_many(start, rows[start:stop], present[start:stop])
        filed.add_many(start, rows[start:stop], present[start:stop])
    assert isinstance(filed._base, MappedRows)
    assert len(filed._base) >= count - 16 - 40 - 30
    assert list((tmp_path / "index").iterdir()) == []  # unnamed: nothing left behind
    for gone in (3, 250, count - 2):
        held.remove(gone)
        filed.remove(gone)

    assert len(filed) == len(held)
    docs = [0, 7, 250, 301, count - 1]
    assert np.array_equal(filed.rows(docs), held.rows(docs))
    query = _unit(rng, 1, dim)[0]
    for centre in (False, True):
        _assert_same_scores(filed, held, query, centre=centre, exact=False)
    mask = np.ones(count, bool)
    for window in (10, 100, 10_000):  # in memory, across the file and memory, all
        _assert_same_neighbours(filed, held, query, window=window, mask=mask)
    keep = np.ones(count, bool)
    keep[[5, 200]] = False
    for kept in (np.ones(count, bool), keep):
        exported = filed.export(kept)
        assert isinstance(exported["vectors"], list)
        assert isinstance(exported["vectors"][0], Blocks)  # read a block at a time
        assert np.array_equal(_stacked(exported["vectors"]), _stacked(held.export(kept)["vectors"]))
        path = tmp_path / "s.npz"
        with path.open("wb") as handle:
            _save_npz(handle, exported)
        again = VectorSet(dim, ann_threshold=100, ann_candidates=400)
        again.restore(_mapped(path))
        picked = np.flatnonzero(kept)
        assert np.array_equal(again.rows(list(range(len(picked)))), held.rows(list(picked)))


def test_rows_read_from_a_snapshot_are_never_written_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(vectors_module, "_RECENT_COPIED", 0)
    restored = VectorSet(4, ann_threshold=4)  # past the threshold: the rows stay mapped
    restored.restore(
        {
            "vectors": _mapped_rows(np.eye(4, dtype=np.float32)),
            "vectors_present": np.ones(4, bool),
            "vectors_sum": np.ones(4),
        }
    )
    with pytest.raises(ValueError, match="not written again"):
        restored.add_many(2, np.eye(4, dtype=np.float32)[:1], np.ones(1, bool))


def test_a_snapshot_below_the_threshold_is_read_into_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every search reads such a set whole, and a product over a file's mapping ran at a
    third of the speed: its rows are copied, and written like any added row."""
    monkeypatch.setattr(vectors_module, "_RECENT_COPIED", 0)
    rows = np.eye(4, dtype=np.float32)
    restored = VectorSet(4, ann_threshold=5)
    restored.restore(
        {
            "vectors": _mapped_rows(rows),
            "vectors_present": np.ones(4, bool),
            "vectors_sum": np.ones(4),
        }
    )
    assert restored._base is None
    restored.add_many(4, rows[:1], np.ones(1, bool))
    assert np.array_equal(restored.rows([0, 1, 2, 3, 4]), np.vstack([rows, rows[:1]]))
    scores, scored, _ = restored.scores(rows[2], centre=False)
    assert scored.all()
    assert scores[2] == pytest.approx(1.0)
    assert scores[1] == pytest.approx(0.0)


def test_a_process_that_built_a_graph_can_still_load_the_model() -> None:
    """Importing onnxruntime after usearch ended the process (a segmentation fault): a
    graph built or read first must not keep the bundled model from loading."""
    import subprocess
    import sys

    script = (
        "import numpy as np\n"
        "from pagemem.retrieval.vectors import VectorSet\n"
        "rows = np.random.default_rng(1).normal(size=(64, 8)).astype(np.float32)\n"
        "rows /= np.linalg.norm(rows, axis=1, keepdims=True)\n"
        "graph = VectorSet(8, ann_threshold=10)\n"
        "graph.add_many(0, rows, np.ones(64, bool))\n"
        "graph.scores(rows[0], centre=True)\n"
        "from pagemem.retrieval.embed import OnnxEmbedder\n"
        "print(OnnxEmbedder().embed(['a note']).shape)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "(1, 384)"


def test_mapped_rows_are_read_from_the_file_in_any_order() -> None:
    """Scattered rows, runs, repeats and reversed runs come back as the rows themselves
    (read with pread, not through the mapping); a row past the end is an error."""
    rows = np.random.default_rng(3).standard_normal((300, 8)).astype(np.float32)
    mapped = _mapped_rows(rows)
    for docs in ([5], [0, 1, 2, 3], [299, 7, 8, 9, 150, 150, 2], [9, 8, 7], []):
        picked = np.asarray(docs, dtype=np.int64)
        assert np.array_equal(mapped.take(picked), rows[picked])
    assert np.array_equal(mapped.head(10).take(np.arange(10)), rows[:10])
    for bad in ([300], [-1], [0, 10_000]):
        with pytest.raises(IndexError):
            mapped.take(np.asarray(bad, dtype=np.int64))
    with pytest.raises(IndexError):
        mapped.head(10).take(np.asarray([10], dtype=np.int64))
    assert np.array_equal(
        mapped.take(np.asarray([7, 3], dtype=np.int64), resident=True), rows[[7, 3]]
    )


def test_past_the_scan_threshold_rows_are_scored_from_codes_and_the_nearest_exactly() -> None:
    """Every live row is scored (close to its exact cosine) and the candidates, the
    nearest by code, exactly: the best rows and their order are the exact ones."""
    rng = np.random.default_rng(21)
    dim, count = 64, 3_000
    rows = _unit(rng, count, dim)
    exact = VectorSet(dim, ann_threshold=10**9)
    coded = VectorSet(dim, ann_threshold=10**9, ann_candidates=100, scan_threshold=1_000)
    for vs in (exact, coded):
        vs.add_many(0, rows, np.ones(count, bool))
        vs.remove(5)
    assert not coded.approximate  # every row competes: nothing is narrowed
    for i in rng.choice(count, 20, replace=False):
        query = rows[i] + 0.5 * _unit(rng, 1, dim)[0]
        query /= np.linalg.norm(query)
        for centre in (True, False):
            want, want_scored, want_plain = exact.scores(query, centre=centre)
            got, scored, plain = coded.scores(query, centre=centre)
            assert np.array_equal(scored, want_scored)
            assert not scored[5]
            assert got[5] == 0.0
            assert plain[5] == 0.0
            assert float(np.abs(got - want).max()) < 0.03
            assert float(np.abs(plain - want_plain).max()) < 0.03
            best = np.argsort(-want, kind="stable")[:10]
            assert np.array_equal(got[best], want[best])  # the nearest are exact
            assert np.array_equal(np.argsort(-got, kind="stable")[:10], best)
    assert coded._codes is not None
    assert len(coded._codes) == count


def test_codes_follow_rows_added_after_a_search() -> None:
    rng = np.random.default_rng(22)
    rows = _unit(rng, 1_201, 32)
    coded = VectorSet(32, ann_threshold=10**9, ann_candidates=20, scan_threshold=1_000)
    coded.add_many(0, rows[:1_200], np.ones(1_200, bool))
    coded.scores(rows[0], centre=True)
    coded.add(1_200, rows[1_200])
    got, scored, _ = coded.scores(rows[1_200], centre=False)
    assert scored[1_200]
    assert int(np.argmax(got)) == 1_200
    assert got[1_200] == pytest.approx(1.0, abs=1e-6)  # scored exactly, not from its code


def test_below_the_scan_threshold_and_past_the_graph_there_are_no_codes() -> None:
    rng = np.random.default_rng(23)
    rows = _unit(rng, 600, 16)
    below = VectorSet(16, ann_threshold=10**9, scan_threshold=1_000)
    graph = VectorSet(16, ann_threshold=500, ann_candidates=50, scan_threshold=100)
    for vs in (below, graph):
        vs.add_many(0, rows, np.ones(len(rows), bool))
        vs.scores(rows[0], centre=True)
    assert below._codes is None
    assert not below.approximate
    assert graph._codes is None
    assert graph.approximate


def test_a_coded_search_after_a_write_reads_no_float_rows_but_its_candidates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A write moves the mean; every row's centred norm then comes from the codes too,
    not from a pass over the float32 rows (7 ms at 100,000 notes, after every write)."""
    rng = np.random.default_rng(24)
    rows = _unit(rng, 1_501, 32)
    coded = VectorSet(32, ann_threshold=10**9, ann_candidates=40, scan_threshold=1_000)
    exact = VectorSet(32, ann_threshold=10**9)
    for vs in (coded, exact):
        vs.add_many(0, rows[:1_500], np.ones(1_500, bool))
    coded.scores(rows[0], centre=True)
    product = vectors_module.blas.product

    def candidates_only(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
        assert len(matrix) <= 40, "a pass over every float32 row"
        return product(matrix, vector)

    monkeypatch.setattr(vectors_module.blas, "product", candidates_only)
    coded.add(1_500, rows[1_500])
    exact.add(1_500, rows[1_500])
    got, _, _ = coded.scores(rows[1_500], centre=True)
    monkeypatch.setattr(vectors_module.blas, "product", product)
    want, _, _ = exact.scores(rows[1_500], centre=True)
    assert int(np.argmax(got)) == 1_500
    assert got[1_500] == want[1_500]
    assert float(np.abs(got - want).max()) < 0.03
