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


_THREADS = """
import numpy as np
from threadpoolctl import ThreadpoolController
from pagemem import Memory
Memory(":memory:", embedder=None).close()
print([i["num_threads"] for i in ThreadpoolController().select(user_api="blas").info()])
"""


@pytest.mark.parametrize(("setting", "one"), [(None, True), ("keep", False)])
def test_opening_a_memory_runs_blas_on_one_thread_unless_told_to_keep_it(
    setting: str | None, one: bool
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PAGEMEM_BLAS_THREADS"}
    env["OPENBLAS_NUM_THREADS"] = "2"
    if setting is not None:
        env["PAGEMEM_BLAS_THREADS"] = setting
    shown = subprocess.run(
        [sys.executable, "-c", _THREADS],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert shown == ("[1]" if one else "[2]")
