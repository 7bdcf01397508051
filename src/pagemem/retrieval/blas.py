"""Matrix products that stay fast when other processes share the cores.

OpenBLAS splits every product over all cores and makes each thread wait for the
slowest. When another process holds one of two cores (a writer embedding a note, a
second server worker), the product waits for a thread that is not running: on two
cores a 20,000 x 384 scan went from 0.6 to 6 ms, a search at 20,000 notes from 7.8 to
15.8 ms and one at 100,000 from 17 to 33 ms. So a process that opens a `Memory` runs
numpy's BLAS on one thread, and pagemem splits its large scans itself into blocks
that the calling thread and a helper take in turn: a busy core then takes fewer blocks
instead of holding the rest back (search at 100,000 notes beside a busy core: p50 22
ms, p95 26 ms, where it was 33 and 43; as fast as before on idle cores).

The BLAS setting is the process's: set `PAGEMEM_BLAS_THREADS=keep` to leave it alone
(for a process that does heavy linear algebra of its own). OpenBLAS takes the setting
only from the main thread, so a `Memory` opened on another thread leaves it as it was
until one is opened on the main thread.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["product", "product_int8", "single_threaded"]

BLOCK_ROWS = 8_192  # rows of the matrix per block of a split product
_SPLIT_FROM = 2 * BLOCK_ROWS  # below this a product runs whole, on the calling thread

_lock = threading.Lock()
_limited = False  # BLAS runs on one thread here: products may be split
_pool: ThreadPoolExecutor | None = None


def single_threaded() -> None:
    """Run numpy's BLAS on one thread in this process (once; see the module's note)."""
    global _limited
    with _lock:
        if _limited or os.environ.get("PAGEMEM_BLAS_THREADS") == "keep":
            return
        if threading.current_thread() is not threading.main_thread():
            return  # it would not take; the next Memory opened on the main thread sets it
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=1, user_api="blas")
        _limited = True


def product(matrix: npt.NDArray[np.float32], vector: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """`matrix @ vector`; a large matrix, when BLAS runs on one thread, in blocks the
    calling thread and its helpers take in turn."""
    simd = vector.ndim == 1 and vector.dtype == matrix.dtype  # see _matvec
    multiply = _matvec if simd else np.matmul
    # BLAS splits its own products over its threads when it has more than one
    split = _limited or simd
    out_dtype = np.result_type(matrix, vector)
    return _in_blocks(matrix, vector, multiply, out_dtype, split=split)


def product_int8(matrix: npt.NDArray[np.int8], vector: npt.NDArray[np.int8]) -> npt.NDArray[Any]:
    """`matrix @ vector` of int8 codes, summed exactly (as float64), in blocks as
    `product` splits them. NumKong's kernel, not numpy's: numpy has no int8 product
    that does not widen the matrix first."""
    import numkong

    if not len(matrix):
        return np.zeros(0)

    def multiply(block: npt.NDArray[Any], one: npt.NDArray[Any]) -> npt.NDArray[Any]:
        products: npt.NDArray[Any] = np.asarray(numkong.cdist(one[None, :], block, metric="dot"))
        return products.reshape(-1)

    return _in_blocks(matrix, vector, multiply, np.dtype(np.float64), split=True)


def _in_blocks(
    matrix: npt.NDArray[Any],
    vector: npt.NDArray[Any],
    multiply: Callable[[npt.NDArray[Any], npt.NDArray[Any]], npt.NDArray[Any]],
    out_dtype: np.dtype[Any],
    *,
    split: bool,
) -> npt.NDArray[Any]:
    """`multiply(matrix, vector)`, a large matrix in blocks that the calling thread and
    its helpers take in turn (a busy core takes fewer)."""
    rows = len(matrix)
    workers = min(4, os.cpu_count() or 1)
    if rows < _SPLIT_FROM or workers < 2 or not split:
        result: npt.NDArray[Any] = multiply(matrix, vector)
        return result
    out = np.empty((rows, *vector.shape[1:]), dtype=out_dtype)
    blocks = range(0, rows, BLOCK_ROWS)
    turn = threading.Condition()
    taken, done = 0, 0
    failed: list[BaseException] = []

    def work() -> None:  # blocks in turn until none is left
        nonlocal taken, done
        while True:
            with turn:
                if taken == len(blocks):
                    return
                start = blocks[taken]
                taken += 1
            try:
                block = matrix[start : start + BLOCK_ROWS]
                out[start : start + BLOCK_ROWS] = multiply(block, vector)
            except BaseException as error:  # handed to the caller
                failed.append(error)
            finally:
                with turn:
                    done += 1
                    turn.notify_all()

    helpers = [_executor(workers - 1).submit(work) for _ in range(workers - 1)]
    work()
    # wait for the blocks a helper is still on, not for the helpers: one that never
    # started (its thread gone with a fork, say) has none, and the caller did its share
    with turn:
        turn.wait_for(lambda: done == len(blocks))
    for helper in helpers:
        helper.cancel()
    if failed:
        raise failed[0]
    return out


def _matvec(matrix: npt.NDArray[np.float32], vector: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """A matrix times a vector through numpy's own SIMD loop, not BLAS: OpenBLAS's
    single-threaded sgemv read the rows at half the speed (100,000 x 384: 11.5 against
    6.2 ms on one thread, 7.0 against 3.8 ms split over two; the sums differ in the last
    bits only). The loop releases the interpreter lock, so the split still works."""
    result: npt.NDArray[Any] = np.einsum("ij,j->i", matrix, vector)
    return result


def _executor(workers: int) -> ThreadPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(workers, thread_name_prefix="pagemem-blas")
        return _pool


def _after_fork() -> None:
    """A forked child has none of its parent's threads: it starts a pool of its own."""
    global _pool, _lock
    _pool, _lock = None, threading.Lock()


os.register_at_fork(after_in_child=_after_fork)
