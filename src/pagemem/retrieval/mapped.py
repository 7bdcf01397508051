"""Vector rows kept in a file and read through a mapping, resident only while used.

Past the graph threshold a search reads the rows of its candidates alone (a few
thousand of a million), and the rows are otherwise read in passes: the HNSW graph
taking them a batch at a time, a snapshot writing them out. Held in memory they were
1.5 GB of a million-note process. Mapped from a file they cost only the pages in use;
but every page a process reads through a mapping counts in its resident set until it
unmaps it, and the kernel maps the 16 pages around each page read (fault-around: 50,000
random rows of a million made the whole 1.5 GB file resident, `MADV_RANDOM` or not).
With large folios in the page cache it maps more: a thousand random rows of a million
made 1.1 GB resident. So scattered rows (a search's candidates, a write's neighbours)
are read from the file with `pread`, which is as fast (2.1 against 2.3-2.6 ms for a
thousand rows) and leaves nothing mapped; runs of rows are read in one call. Passes
(a window of the latest rows, a snapshot written, a graph built) read through the
mapping, and `release` gives its pages back once about two thousand rows have been
read that way (`MADV_DONTNEED`, 0.3-0.4 ms over 1.5 GB; rows are never written
through it, so the next read finds them in the file, usually still in the page cache).
"""

from __future__ import annotations

import mmap
import os
import weakref
from collections.abc import Iterator
from typing import IO

import numpy as np
import numpy.typing as npt

from pagemem.retrieval.embed import Vectors

__all__ = ["Blocks", "MappedRows", "spill"]

_RELEASE_ROWS = 2_048  # rows read through the mapping between two releases
BLOCK_ROWS = 65_536  # rows of a pass (a snapshot written, a graph built) read at once


class MappedRows:
    """Float32 rows of `dim` columns at `offset` in a mapped file; never written.
    `fd` is the file's descriptor (this keeps a duplicate of its own)."""

    def __init__(self, mapping: mmap.mmap, offset: int, rows: int, dim: int, fd: int) -> None:
        self._mapping = mapping
        self._fd = os.dup(fd)
        weakref.finalize(self, os.close, self._fd)
        self._offset = offset
        self._bytes = rows * dim * 4
        array = np.frombuffer(mapping, np.float32, rows * dim, offset).reshape(rows, dim)
        array.flags.writeable = False
        self.array: Vectors = array
        self._read = 0  # rows read through the mapping since the last release

    def __len__(self) -> int:
        return len(self.array)

    def head(self, rows: int) -> MappedRows:
        """The first `rows` rows, over the same mapping."""
        return MappedRows(self._mapping, self._offset, rows, self.array.shape[1], self._fd)

    def take(self, docs: npt.NDArray[np.int64], *, resident: bool = False) -> Vectors:
        """A copy of these rows, read from the file, not through the mapping; unless
        the mapping is `resident` anyway (a set without a graph reads every row on
        every search), where reading through it is faster (0.2 against 2.4 ms for the
        500 rows a search takes at 100,000 notes)."""
        if resident:
            picked: Vectors = self.array[docs]
            return picked
        count, dim = len(docs), self.array.shape[1]
        out: Vectors = np.empty((count, dim), dtype=np.float32)
        if not count:
            return out
        if int(docs.min()) < 0 or int(docs.max()) >= len(self.array):
            raise IndexError(f"rows {docs.min()}..{docs.max()} of {len(self.array)}")
        size = dim * 4
        # a run of consecutive rows is one read
        breaks = (np.flatnonzero(np.diff(docs) != 1) + 1).tolist()
        for start, stop in zip([0, *breaks], [*breaks, count], strict=True):
            wanted = (stop - start) * size
            data = os.pread(self._fd, wanted, self._offset + int(docs[start]) * size)
            if len(data) != wanted:
                raise OSError(f"the rows file ended {wanted - len(data)} bytes early")
            out[start:stop] = np.frombuffer(data, np.float32).reshape(stop - start, dim)
        return out

    def window(self, start: int, stop: int, *, release: bool = True) -> Vectors:
        """Rows [start, stop) as a view (for a few thousand rows read at once); the pages
        read before are given back first, when there are enough of them."""
        if release and self._read >= _RELEASE_ROWS:
            self.release()
        self._read += max(0, stop - start)
        return self.array[start:stop]

    def blocks(self, keep: npt.NDArray[np.bool_] | None = None) -> Iterator[Vectors]:
        """Every row (those `keep` marks, if given), a block at a time, the pages of
        each given back once the next is asked for."""
        for start in range(0, len(self.array), BLOCK_ROWS):
            block = self.array[start : start + BLOCK_ROWS]
            yield block if keep is None else block[keep[start : start + BLOCK_ROWS]]
            self.release()

    def release(self) -> None:
        """Give back the mapping's resident pages (they are read again when used)."""
        self._read = 0
        if not self._bytes:
            return
        start = self._offset - self._offset % mmap.PAGESIZE
        self._mapping.madvise(mmap.MADV_DONTNEED, start, self._offset + self._bytes - start)


class Blocks:
    """Rows of a `MappedRows` to be written out a block at a time (what `export` gives
    for them, so that writing a snapshot does not make the mapped rows resident)."""

    def __init__(self, rows: MappedRows, keep: npt.NDArray[np.bool_] | None) -> None:
        self.rows = rows
        self.keep = keep
        self.dtype = np.dtype(np.float32)
        count = len(rows) if keep is None else int(keep.sum())
        self.shape = (count, rows.array.shape[1])

    def __len__(self) -> int:
        return self.shape[0]

    def __iter__(self) -> Iterator[Vectors]:
        return self.rows.blocks(self.keep)

    def whole(self) -> Vectors:
        """Every row in one array (a copy: for sets small enough to hold)."""
        parts = list(self)
        return np.concatenate(parts) if parts else np.zeros(self.shape, np.float32)


def spill(handle: IO[bytes], rows: Vectors, *, kept: int, dim: int) -> MappedRows:
    """Append `rows` to a file that holds `kept` rows already; the file's rows mapped.

    `handle` is a file of this process's own (unnamed, in the index folder)."""
    handle.seek(kept * dim * 4)
    handle.write(np.ascontiguousarray(rows, dtype=np.float32).data)
    handle.flush()
    total = kept + len(rows)
    mapping = mmap.mmap(handle.fileno(), total * dim * 4, access=mmap.ACCESS_READ)
    return MappedRows(mapping, 0, total, dim, handle.fileno())
