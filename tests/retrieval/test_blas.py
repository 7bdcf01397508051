from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from pagemem.retrieval import blas


@pytest.mark.parametrize("rows", [0, 1, 1000, 2 * blas.BLOCK_ROWS + 7])
def test_a_product_in_blocks_equals_the_whole_product(rows: int) -> None:
    blas.single_threaded()
    rng = np.random.default_rng(rows)
    matrix = rng.standard_normal((rows, 48)).astype(np.float32)
    vector = rng.standard_normal(48).astype(np.float32)
    pair = rng.standard_normal((48, 2)).astype(np.float32)
    assert np.allclose(blas.product(matrix, vector), matrix @ vector, atol=1e-4)
    assert blas.product(matrix, pair).shape == (rows, 2)
    assert np.allclose(blas.product(matrix, pair), matrix @ pair, atol=1e-4)


def test_a_rows_product_does_not_depend_on_the_rows_beside_it() -> None:
    """A note's cosine is the same number in a whole scan, a split scan and a second look
    at a few rows: rankings do not move with how a product was cut."""
    blas.single_threaded()
    rng = np.random.default_rng(3)
    matrix = rng.standard_normal((3 * blas.BLOCK_ROWS + 11, 384)).astype(np.float32)
    vector = rng.standard_normal(384).astype(np.float32)
    whole = blas.product(matrix, vector)
    picked = np.asarray([0, 5, blas.BLOCK_ROWS + 3, len(matrix) - 1])
    assert np.array_equal(blas.product(matrix[picked], vector), whole[picked])
    assert np.array_equal(blas.product(matrix[: blas.BLOCK_ROWS], vector), whole[: blas.BLOCK_ROWS])
    wide = blas.product(matrix, vector.astype(np.float64))  # another type: BLAS's product
    assert wide.dtype == np.float64
    assert np.allclose(wide, whole, atol=1e-3)


_COUNT = """
import threading
import numpy as np
from threadpoolctl import ThreadpoolController
from pagemem import Memory
def count():
    return [i["num_threads"] for i in ThreadpoolController().select(user_api="blas").info()]
"""


def _in_a_process(script: str, setting: str | None = None) -> str:
    """What `script` prints in a fresh Python whose BLAS starts on two threads."""
    env = {k: v for k, v in os.environ.items() if k != "PAGEMEM_BLAS_THREADS"}
    env["OPENBLAS_NUM_THREADS"] = "2"
    if setting is not None:
        env["PAGEMEM_BLAS_THREADS"] = setting
    return subprocess.run(
        [sys.executable, "-c", _COUNT + script],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


@pytest.mark.parametrize(("setting", "one"), [(None, True), ("keep", False)])
def test_opening_a_memory_runs_blas_on_one_thread_unless_told_to_keep_it(
    setting: str | None, one: bool
) -> None:
    shown = _in_a_process('Memory(":memory:", embedder=None).close()\nprint(count())', setting)
    assert shown == ("[1]" if one else "[2]")


def test_a_memory_on_another_thread_does_not_stop_the_main_thread_setting_it() -> None:
    script = (
        'worker = threading.Thread(target=lambda: Memory(":memory:", embedder=None).close())\n'
        "worker.start()\n"
        "worker.join()\n"
        "before = count()\n"
        'Memory(":memory:", embedder=None).close()\n'
        "print(before, count())"
    )
    assert _in_a_process(script) == "[2] [1]"


def _product_in_child(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    return blas.product(matrix, vector)


def test_a_forked_child_splits_products_without_its_parents_threads() -> None:
    """A fork keeps the parent's pool object but none of its threads: the child must not
    wait for a helper that will never run."""
    import multiprocessing

    blas.single_threaded()
    rng = np.random.default_rng(7)
    matrix = rng.standard_normal((2 * blas.BLOCK_ROWS + 7, 16)).astype(np.float32)
    vector = rng.standard_normal(16).astype(np.float32)
    blas.product(matrix, vector)  # the parent's helper threads exist now
    with multiprocessing.get_context("fork").Pool(1) as pool:
        result = pool.apply_async(_product_in_child, (matrix, vector)).get(timeout=120)
    assert np.allclose(result, matrix @ vector, atol=1e-4)


@pytest.mark.parametrize("rows", [0, 1, 1000, 2 * blas.BLOCK_ROWS + 7])
def test_an_int8_product_is_the_exact_integer_sum(rows: int) -> None:
    """Whole or in blocks, the products of int8 codes are their exact sums: no row wraps
    around at 127, and a row's product does not depend on how the scan was cut."""
    rng = np.random.default_rng(rows)
    matrix = rng.integers(-127, 128, size=(rows, 384), dtype=np.int8)
    matrix[:1] = 127  # the largest sum there is: 127 * 127 * 384
    vector = np.full(384, 127, dtype=np.int8)
    vector[::2] = rng.integers(-127, 128, size=192, dtype=np.int8)
    want = matrix.astype(np.int64) @ vector.astype(np.int64)
    got = blas.product_int8(matrix, vector)
    assert got.shape == (rows,)
    assert np.array_equal(got, want)
    if rows:
        assert np.array_equal(blas.product_int8(matrix[-3:], vector), got[-3:])
