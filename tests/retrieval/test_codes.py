"""Int8 codes of unit rows: products close to the exact ones, built in any pieces."""

from __future__ import annotations

import numpy as np

from pagemem.retrieval import blas
from pagemem.retrieval.codes import Codes


def _unit(rng: np.random.Generator, count: int, dim: int) -> np.ndarray:
    rows = rng.normal(size=(count, dim)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_products_from_codes_are_within_a_hundredth_of_the_exact_ones() -> None:
    rng = np.random.default_rng(11)
    rows = _unit(rng, 5_000, 384)
    codes = Codes(384)
    codes.extend(rows)
    for query in _unit(rng, 20, 384):
        exact = rows @ query
        coded = codes.products(query)
        assert coded.shape == exact.shape
        assert float(np.abs(coded - exact).max()) < 0.01
        # the nearest rows by code are the nearest rows
        assert set(np.argsort(-coded)[:5]) & set(np.argsort(-exact)[:5])


def test_codes_built_in_pieces_equal_codes_built_at_once() -> None:
    rng = np.random.default_rng(12)
    rows = _unit(rng, 2 * blas.BLOCK_ROWS + 50, 32)
    rows[7] = 0.0  # a row without a vector: no division by zero, products of zero
    whole, pieces = Codes(32), Codes(32)
    whole.extend(rows)
    for start in range(0, len(rows), 3_001):
        pieces.extend(rows[start : start + 3_001])
    query = _unit(rng, 1, 32)[0]
    assert len(whole) == len(pieces) == len(rows)
    assert np.array_equal(whole.products(query), pieces.products(query))
    assert whole.products(query)[7] == 0.0


def test_codes_of_rows_written_again_are_made_again() -> None:
    rng = np.random.default_rng(13)
    rows = _unit(rng, 100, 16)
    codes = Codes(16)
    codes.extend(rows)
    replaced = _unit(rng, 40, 16)
    codes.truncate(60)
    codes.extend(replaced)
    fresh = Codes(16)
    fresh.extend(np.concatenate([rows[:60], replaced]))
    query = _unit(rng, 1, 16)[0]
    assert len(codes) == 100
    assert np.array_equal(codes.products(query), fresh.products(query))


def test_a_zero_query_gives_zero_products() -> None:
    codes = Codes(8)
    codes.extend(_unit(np.random.default_rng(14), 10, 8))
    assert not codes.products(np.zeros(8, dtype=np.float32)).any()
