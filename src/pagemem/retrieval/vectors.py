"""Vectors of one scope's notes in memory: exact centred cosine, approximate when large.

Rows are aligned with the BM25 document numbers, in two parts: a base mapped from a
file, never written (a removed row is only marked), and the rows added since, which
grow by doubling. The base is a snapshot's rows, or, in a scope past `ann_threshold`
with an index folder, the spill file: the added rows but the latest 8,192 move there
every 32,768 (an unnamed file, gone with the process). Past the threshold a search
reads its candidates' rows alone, so at a million notes the rows (1.5 GB) need not be
held; `mapped.MappedRows` gives their pages back after each pass. Adding a note never
copies the base. Centring (subtracting the scope's mean vector) is applied
algebraically at query time, so the mean can move with every insert without rewriting
rows:

    cos_c(m, q) = (m.q' - mu.q') / (|m - mu| |q'|),  q' = q - mu,
    |m - mu|^2 = 1 - 2 m.mu + |mu|^2                 (rows are unit length)

From `scan_threshold` live rows below the graph's threshold, every row is scored from
its int8 code (`codes.Codes`, a quarter of the bytes to read) and the `ann_candidates`
nearest by code exactly; their centred norms come from the codes too.

Above `ann_threshold` live rows, a usearch HNSW index (int8) over the raw vectors
picks the candidates and only those are scored exactly, their centred norms worked out
for them alone (below it, every row's norm is kept until a write moves the mean). It is
built at the first search that needs it, catches up on new rows in one batch per
search, and never removes: deleted rows are filtered by the live mask.
"""

from __future__ import annotations

import contextlib
import logging
import tempfile
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from pagemem.retrieval import blas
from pagemem.retrieval.bm25 import FloatArray
from pagemem.retrieval.codes import Codes
from pagemem.retrieval.embed import Vectors
from pagemem.retrieval.mapped import BLOCK_ROWS as PASS_ROWS
from pagemem.retrieval.mapped import Blocks, MappedRows, spill

__all__ = ["Part", "VectorSet", "usearch_index"]

_RECENT_COPIED = 8_192  # the latest rows, kept in memory when the rest is mapped
_ANN_BATCH = 65_536  # rows added to the HNSW graph in one call
_SPILL_ROWS = 32_768  # added rows moved to the spill file at once
_log = logging.getLogger(__name__)

Part = Vectors | Blocks  # some rows, in memory or to be read from a file a block at a time


class VectorSet:
    """A growable, row-aligned matrix of unit vectors with an optional ANN index."""

    def __init__(
        self,
        dim: int,
        *,
        ann_threshold: int = 50_000,
        ann_candidates: int = 1000,
        scan_threshold: int | None = None,
        spill: Path | None = None,
    ):
        self.dim = dim
        self.ann_threshold = ann_threshold
        self.ann_candidates = ann_candidates
        # from this many live rows (below ann_threshold) every row is scored from int8
        # codes and the ann_candidates nearest exactly; None: every row exactly
        self.scan_threshold = scan_threshold
        self._codes: Codes | None = None
        # past the threshold, rows but the latest move to an unnamed file in this folder
        self._spill_dir = spill
        self._spill: IO[bytes] | None = None
        self._base: MappedRows | None = None  # mapped: from a snapshot or the spill file
        self._at = 0  # rows [0, _at) are the base's; [_at, _size) the added rows'
        self._rows = np.zeros((16, dim), dtype=np.float32)  # rows added, from _at on
        self._live = np.zeros(16, dtype=bool)  # every row's, base and added alike
        self._size = 0
        self._sum = np.zeros(dim, dtype=np.float64)
        self._count = 0
        self._ann: Any = None
        self._ann_size = 0  # rows [0, _ann_size) are in the HNSW index
        # (size, from the codes, |row - mean|, row . mean) for the current mean
        self._norms: tuple[int, bool, FloatArray, FloatArray] | None = None

    def __len__(self) -> int:
        return self._count

    @property
    def approximate(self) -> bool:
        return self._count >= self.ann_threshold or self._ann is not None

    def _coded(self) -> Codes | None:
        """The int8 codes of every row so far, past `scan_threshold` and below the graph
        (None elsewhere: every row is scored exactly, or the graph picks candidates)."""
        at = self.scan_threshold
        if at is None or self._count < at or self.approximate:
            self._codes = None
            return None
        if self._codes is None:
            self._codes = Codes(self.dim)
        for part, start in zip(self._parts(), self._part_starts(), strict=True):
            done = len(self._codes) - start
            if done < len(part):
                self._codes.extend(part[max(0, done) :])
        return self._codes

    def _part_starts(self) -> list[int]:
        """The first row of each of `_parts`."""
        return [0, self._at] if self._base is not None else [self._at]

    def add(self, doc: int, vector: Vectors | None) -> None:
        """Store the vector of document `doc` (documents without one never match)."""
        matrix = np.zeros((1, self.dim), dtype=np.float32)
        if vector is not None:
            matrix[0] = vector
        self.add_many(doc, matrix, np.asarray([vector is not None]))

    def add_many(self, first: int, matrix: Vectors, present: npt.NDArray[np.bool_]) -> None:
        """Store the rows of documents `first`.. at once; `present` marks those that have
        a vector (the others never match)."""
        end = first + len(matrix)
        if first < self._at:
            raise ValueError("rows read from a snapshot are not written again")
        if end - self._at > len(self._rows):
            self._grow(end)
        self._size = max(self._size, end)
        self._rows[first - self._at : end - self._at] = np.where(present[:, None], matrix, 0.0)
        self._live[first:end] = present
        if self._codes is not None:
            self._codes.truncate(first)
        self._sum += matrix[present].sum(axis=0, dtype=np.float64)
        self._count += int(present.sum())
        self._norms = None
        if self._spill_dir is not None and self._size >= self.ann_threshold:
            self._move_to_file()

    def _move_to_file(self) -> None:
        """Move the added rows but the latest to the spill file (mapped, resident only
        while read): past the threshold a search reads its candidates' rows alone."""
        added = self._size - self._at
        if added < _SPILL_ROWS + _RECENT_COPIED or (self._base is not None and self._spill is None):
            return  # few to move, or the base is a snapshot's (a file not to append to)
        moved = added - _RECENT_COPIED
        try:
            if self._spill is None:
                assert self._spill_dir is not None
                self._spill_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
                # unnamed: gone with the process, however it ends; closed with the set
                self._spill = tempfile.TemporaryFile(dir=self._spill_dir)  # noqa: SIM115
                weakref.finalize(self, self._spill.close)
            base = spill(self._spill, self._rows[:moved], kept=self._at, dim=self.dim)
        except OSError as error:  # a full disk: the rows stay in memory
            _log.warning("vectors stay in memory, the spill file failed: %s", error)
            self._spill_dir = None
            return
        rows = np.zeros((max(16, 2 * _RECENT_COPIED), self.dim), dtype=np.float32)
        rows[: added - moved] = self._rows[moved:added]
        self._base, self._at, self._rows = base, self._at + moved, rows
        if len(self._live) < self._at + len(rows):
            live = np.zeros(self._at + len(rows), dtype=bool)
            live[: self._size] = self._live[: self._size]
            self._live = live

    def _grow(self, end: int) -> None:
        """Room for rows up to `end`; the new ones zero (a copy of the added rows only)."""
        added = self._size - self._at
        rows = np.zeros((max(len(self._rows) * 2, end - self._at), self.dim), dtype=np.float32)
        rows[:added] = self._rows[:added]
        live = np.zeros(self._at + len(rows), dtype=bool)
        live[: self._size] = self._live[: self._size]
        self._rows, self._live = rows, live

    def rows(self, docs: list[int]) -> Vectors:
        return self._take(np.asarray(docs, dtype=np.int64))

    def _take(self, docs: npt.NDArray[np.int64]) -> Vectors:
        """The rows of these documents, wherever each is kept."""
        if self._base is None:
            picked: Vectors = self._rows[docs]
            return picked
        out = np.empty((len(docs), self.dim), dtype=np.float32)
        based = docs < self._at
        # without the graph every search reads every row: its pages stay resident
        out[based] = self._base.take(docs[based], resident=self._ann is None)
        out[~based] = self._rows[docs[~based] - self._at]
        return out

    def _parts(self) -> list[Vectors]:
        """Every row so far, as views of the parts that hold them."""
        added = self._rows[: self._size - self._at]
        return [self._base.array, added] if self._base is not None else [added]

    def remove(self, doc: int) -> None:
        if doc < self._size and self._live[doc]:
            self._live[doc] = False
            self._sum -= self._take(np.asarray([doc], dtype=np.int64))[0]
            self._count -= 1
            self._norms = None

    def export(self, keep: npt.NDArray[np.bool_]) -> dict[str, npt.NDArray[Any] | list[Part]]:
        """The rows `keep` marks (renumbered 0.. in order), as the parts that hold them
        (rows stacked: no copy of the whole matrix; mapped rows read a block at a time
        when written), and which of them have a vector."""
        every = bool(keep[: self._size].all())
        pick = slice(None) if every else keep[: self._size]
        added = self._rows[: self._size - self._at]
        parts: list[Part] = [added if every else added[keep[self._at : self._size]]]
        if self._base is not None:
            parts.insert(0, Blocks(self._base, None if every else keep[: self._at]))
        return {
            "vectors": parts,
            "vectors_present": self._live[: self._size][pick],
            "vectors_sum": self._sum.copy(),  # of the live rows: those kept
        }

    def restore(self, arrays: Mapping[str, Any]) -> None:
        """Fill an empty set from what `export` wrote: the rows mapped from a snapshot's
        file, or in memory (one array, or the parts `export` gave)."""
        stored = arrays["vectors"]
        mapped = stored if isinstance(stored, MappedRows) else None
        if mapped is None:
            parts = stored if isinstance(stored, list) else [stored]
            whole = [part.whole() if isinstance(part, Blocks) else part for part in parts]
            rows = np.concatenate(whole).astype(np.float32, copy=False)
        else:
            rows = mapped.array
        present = np.asarray(arrays["vectors_present"], dtype=bool)
        if rows.ndim != 2 or rows.shape[1] != self.dim or len(present) != len(rows):
            raise ValueError(f"the snapshot's vectors are not {self.dim}-dimensional rows")
        # mapped: read when used, never written; but the latest rows, which every write
        # compares itself with (`nearest_recent`), are copied: products over mapped pages
        # ran 3x slower (0.65 against 0.21 ms over 4,000 rows). So are all of them in a
        # set below the graph's threshold, which every search reads whole: anonymous
        # memory is backed by huge pages, a file's mapping is not (92,000 rows: 32.5
        # against 11.2 ms a product on one thread, 14.3 against 5.7 through `blas`)
        count = int(present.sum())
        keep = len(rows) if count < self.ann_threshold else min(len(rows), _RECENT_COPIED)
        at = len(rows) - keep if mapped is not None else 0
        self._base = mapped.head(at) if mapped is not None and at else None
        self._at = at
        self._rows = np.zeros((max(16, 2 * (len(rows) - at)), self.dim), dtype=np.float32)
        # a block at a time, the mapping's pages given back after each: the copy does not
        # hold the rows twice
        for start in range(at, len(rows), PASS_ROWS):
            stop = min(len(rows), start + PASS_ROWS)
            self._rows[start - at : stop - at] = rows[start:stop]
            if mapped is not None:
                mapped.release()
        self._live = np.zeros(at + len(self._rows), dtype=bool)  # room for the added too
        self._live[: len(rows)] = present
        self._size = len(rows)
        self._sum = np.asarray(arrays["vectors_sum"], dtype=np.float64)
        if self._sum.shape != (self.dim,):
            raise ValueError("the snapshot's vector sum has the wrong shape")
        self._count = count
        self._norms = None

    @property
    def graph(self) -> tuple[Any, int] | None:
        """The HNSW index and how many rows it covers, once built."""
        return None if self._ann is None else (self._ann, self._ann_size)

    def adopt_graph(self, ann: Any, size: int) -> None:
        """Use an HNSW index over rows [0, size) built earlier (read from a snapshot)."""
        if size > self._size:
            raise ValueError("the graph covers rows the set does not have")
        self._ann, self._ann_size = ann, size

    def _ann_index(self) -> Any:
        """The HNSW index over every row so far, or None below the threshold."""
        if self._ann is None and self._count < self.ann_threshold:
            return None
        if self._ann is None:
            self._ann = usearch_index()(
                ndim=self.dim, metric="cos", dtype="i8", expansion_search=256
            )
        if self._ann_size < self._size:
            fresh = np.arange(self._ann_size, self._size)
            fresh = fresh[self._live[fresh]]
            # in batches: the rows handed over are a copy, and a copy of every row at
            # once was 1.5 GB more at the peak of a million-note build
            for start in range(0, len(fresh), _ANN_BATCH):
                batch = fresh[start : start + _ANN_BATCH]
                self._ann.add(batch.astype(np.uint64), self._take(batch))
            self._ann_size = self._size
        return self._ann

    def scores(
        self, query: Vectors, *, centre: bool
    ) -> tuple[FloatArray, npt.NDArray[np.bool_], FloatArray]:
        """Cosine of each row to `query` (centred on the mean row if asked), the mask of
        rows that were scored, and the plain cosine of each (the same when not centred):
        how close a row is in absolute terms, whatever the rest of the scope."""
        n = self._size
        if not self._count:
            nothing = np.zeros(n)
            return nothing, np.zeros(n, dtype=bool), nothing
        ann = self._ann_index()
        if ann is None:  # every row, in place: no copy of the matrix or of its columns
            codes = self._coded()
            if codes is None:
                raw, near = self._cosines(slice(0, n), query, centre)
            else:  # every row from its code, the nearest exactly
                raw, near = self._coded_cosines(codes, query, centre)
            live = self._live[:n]
            if not live.all():
                raw[~live] = 0.0
                near[~live] = 0.0  # the same array when not centred
            return raw, live.copy(), near
        found = ann.search(query, min(self.ann_candidates, len(ann)))
        rows = np.asarray(found.keys, dtype=np.int64)
        out, scored = np.zeros(n), np.zeros(n, dtype=bool)
        out[rows], near = self._cosines(rows, query, centre)
        plain = out
        if centre:
            plain = np.zeros(n)
            plain[rows] = near
            plain[~self._live[:n]] = 0.0
        scored[rows] = self._live[rows]
        out[~scored] = 0.0
        return out, scored, plain

    def nearest(
        self, query: Vectors, *, centre: bool
    ) -> tuple[npt.NDArray[np.int64], FloatArray, FloatArray]:
        """`scores` of the graph's candidates alone (only above the threshold): their
        documents (live, ascending), cosines (centred if asked) and plain cosines. The
        same numbers, without arrays the size of the scope."""
        ann = self._ann_index()
        if ann is None:
            raise ValueError("nearest needs the graph: the set is below its threshold")
        found = ann.search(query, min(self.ann_candidates, len(ann)))
        docs = np.unique(np.asarray(found.keys, dtype=np.int64))
        docs = docs[self._live[docs]]
        raw, plain = self._cosines(docs, query, centre and self._count > 0)
        return docs, raw, plain

    def _coded_cosines(
        self, codes: Codes, query: Vectors, centre: bool
    ) -> tuple[FloatArray, FloatArray]:
        """`_cosines` of every row from the codes' products (within about 0.005 of the
        exact ones), then the `ann_candidates` best of them worked out exactly."""
        n = self._size
        plain = codes.products(query)[:n]
        if centre:
            mean = (self._sum / self._count).astype(np.float32)
            norm_q = float(np.linalg.norm(query - mean)) or 1.0
            norms, dots = self._row_norms(mean, codes)
            raw = (plain - dots) / (norms * norm_q)
        else:
            raw = plain
        count = min(self.ann_candidates, self._count)  # live rows
        if count:
            best = np.argpartition(np.where(self._live[:n], -raw, np.inf), count - 1)[:count]
            best = np.sort(best.astype(np.int64))
            exact, exact_plain = self._cosines(best, query, centre)
            raw[best] = exact
            plain[best] = exact_plain  # the same array as raw when not centred
        return raw, plain

    def scores_of(
        self, query: Vectors, docs: npt.NDArray[np.int64], *, centre: bool
    ) -> tuple[FloatArray, FloatArray]:
        """`scores` for these live rows only: their cosine to `query` (centred if asked)
        and their plain cosine. A second look at a search's best rows costs their
        number, not the scope's."""
        return self._cosines(docs, query, centre and self._count > 0)

    def _cosines(
        self, rows: npt.NDArray[np.int64] | slice, query: Vectors, centre: bool
    ) -> tuple[FloatArray, FloatArray]:
        """The cosine of the set's `rows` (a slice: every row) to `query`, centred on the
        mean row if asked, and the plain cosine (the same when not centred)."""
        parts = self._parts() if isinstance(rows, slice) else [self._take(rows)]

        def products(vector: Vectors) -> FloatArray:
            done = [blas.product(part, vector) for part in parts]
            return done[0] if len(done) == 1 else np.concatenate(done)

        if not centre:
            raw: FloatArray = products(query).astype(np.float64)
            return raw, raw
        mean = (self._sum / self._count).astype(np.float32)
        shifted = query - mean
        norm_q = float(np.linalg.norm(shifted)) or 1.0
        if isinstance(rows, slice):  # every row is scored: their norms, kept until a write
            norms, dots = self._row_norms(mean)
            norms, dots = norms[rows], dots[rows]
        else:  # some rows only: theirs, not a pass over every row per write
            norms, dots = _centred(parts[0], mean)
        product = products(shifted)
        # row . query = row . (query - mean) + row . mean
        return product / (norms * norm_q), product + dots

    def nearest_recent(
        self, queries: Vectors, k: int, *, window: int, mask: npt.NDArray[np.bool_]
    ) -> list[list[tuple[int, float]]]:
        """For each query row, the k rows closest to it (plain dot product) among the
        last `window` rows that `mask` allows: the neighbours of notes about to be
        written, at a cost that does not grow with the scope."""
        n = self._size
        start = max(0, n - window)
        allowed = self._live[start:n] & mask[start:n]
        count = min(k, int(allowed.sum()))
        if not count:
            return [[] for _ in range(len(queries))]
        # rows @ queries.T, not queries @ rows.T: the latter runs 5-7x slower in numpy's
        # OpenBLAS on one thread (4.3 against 0.65 ms over 4,000 rows)
        at = max(start, min(self._at, n))
        parts = [self._rows[at - self._at : n - self._at]]
        if self._base is not None and start < at:
            parts.insert(0, self._base.window(start, at, release=self._ann is not None))
        products = np.concatenate([part @ queries.T for part in parts if len(part)]).T
        near = np.where(allowed[None, :], products, -np.inf)
        head = np.argpartition(-near, count - 1, axis=1)[:, :count]
        return [
            [(start + int(i), float(near[row, i])) for i in head[row]]
            for row in range(len(queries))
        ]

    def _row_norms(
        self, mean: Vectors, codes: Codes | None = None
    ) -> tuple[FloatArray, FloatArray]:
        """|row - mean| and row . mean for every row, kept until the next add or remove
        moves the mean; from the `codes` when given (within about 0.005, for rows scored
        from their codes: no pass over the float32 rows after each write)."""
        coded = codes is not None
        if self._norms is None or self._norms[:2] != (self._size, coded):
            if codes is None:
                each = [_centred(part, mean) for part in self._parts()]
                norms, dots = (np.concatenate(half) for half in zip(*each, strict=True))
            else:
                dots = codes.products(mean)[: self._size]
                norms = _norms(dots, mean)
            self._norms = (self._size, coded, norms, dots)
        return self._norms[2], self._norms[3]


def usearch_index() -> Any:
    """usearch's `Index`, with onnxruntime imported first where it is installed:
    importing onnxruntime after usearch ends the process with a segmentation fault
    (onnxruntime 1.32, usearch 2.26), as any process that built or read a graph and then
    loaded the bundled model would."""
    with contextlib.suppress(ImportError):
        import onnxruntime  # noqa: F401
    from usearch.index import Index

    return Index


def _centred(rows: Vectors, mean: Vectors) -> tuple[FloatArray, FloatArray]:
    """|row - mean| and row . mean of unit rows: |row - mean|^2 = 1 - 2 row.mean + |mean|^2."""
    dots = blas.product(rows, mean).astype(np.float64)
    return _norms(dots, mean), dots


def _norms(dots: FloatArray, mean: Vectors) -> FloatArray:
    """|row - mean| of unit rows from row . mean."""
    squared = 1.0 - 2.0 * dots + float(mean @ mean)
    norms: FloatArray = np.sqrt(np.maximum(squared, 1e-12))
    return norms
