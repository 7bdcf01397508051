"""Int8 codes of a scope's rows: every row scored from a quarter of its bytes.

An exact scan is bound by the bytes it reads (100,000 x 384 float32 rows on two cores:
about 7 ms; their int8 codes: 2.5). From `scan_threshold` live notes, below the graph's
threshold, `VectorSet` scores every row from its code (within about 0.005 of the exact
cosine) and then the nearest by code again exactly, so every note still competes and
the notes that can win are exact. Each row is scaled by its largest component before
rounding, which keeps about seven bits of every row however its values are spread.

The products run through NumKong (the SIMD kernels usearch is built on), in blocks
split over the cores as `blas.product` splits the float32 ones.
"""

from __future__ import annotations

import numpy as np

from pagemem.retrieval import blas
from pagemem.retrieval.bm25 import FloatArray
from pagemem.retrieval.embed import Vectors

__all__ = ["Codes"]

_LEVELS = 127  # int8 codes run from -127 to 127: a row and its negation code alike


class Codes:
    """A growable int8 copy of unit rows, each with the scale that restores it."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._codes = np.zeros((0, dim), dtype=np.int8)
        self._scales = np.zeros(0, dtype=np.float32)
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def extend(self, rows: Vectors) -> None:
        """Code the rows after those already coded (in blocks: no float copy of them all)."""
        end = self._size + len(rows)
        if end > len(self._codes):
            room = max(end, 2 * len(self._codes), 1_024)
            codes = np.zeros((room, self.dim), dtype=np.int8)
            scales = np.zeros(room, dtype=np.float32)
            codes[: self._size], scales[: self._size] = (
                self._codes[: self._size],
                self._scales[: self._size],
            )
            self._codes, self._scales = codes, scales
        # in place a block at a time: 60 against 100 ms for 100,000 rows with copies
        work = np.empty((min(len(rows), blas.BLOCK_ROWS), self.dim), dtype=np.float32)
        for start in range(0, len(rows), blas.BLOCK_ROWS):
            block = np.asarray(rows[start : start + blas.BLOCK_ROWS], dtype=np.float32)
            at, scaled = self._size + start, work[: len(block)]
            peak = np.maximum(block.max(axis=1), -block.min(axis=1))
            scale = np.where(peak > 0, peak / _LEVELS, 1.0).astype(np.float32)
            np.multiply(block, (1.0 / scale)[:, None], out=scaled)
            self._codes[at : at + len(block)] = np.rint(scaled, out=scaled)
            self._scales[at : at + len(block)] = scale
        self._size = end

    def truncate(self, size: int) -> None:
        """Forget the codes of rows from `size` on (those rows were written again)."""
        self._size = min(self._size, size)

    def products(self, vector: Vectors) -> FloatArray:
        """Each coded row's dot product with `vector`, from the codes (within about
        0.005 of the exact one for unit rows and vector)."""
        peak = float(np.abs(vector).max())
        scale = peak / _LEVELS if peak > 0 else 1.0
        code = np.rint(vector / scale).astype(np.int8)
        exact_sums = blas.product_int8(self._codes[: self._size], code)
        products: FloatArray = exact_sums * (self._scales[: self._size] * scale)
        return products
