"""Turning raw signals into one score: scaling, rank fusion and recency, shared by
in-memory ranking and ranking over a store's own candidates."""

from __future__ import annotations

from datetime import datetime

import numpy as np
import numpy.typing as npt

from pagemem.retrieval.bm25 import FloatArray

__all__ = ["by_max", "min_max", "recency", "reciprocal_rank", "top", "zscore"]


def recency(
    times: FloatArray,
    now: datetime | None,
    half_life_days: float,
    weight: float,
    newest: float | None = None,
) -> FloatArray | float:
    """Newer items weigh more, halving per period (1.0 everywhere when off). Without
    `now`, age is counted from `newest` (default: the newest of `times`)."""
    half_life = half_life_days * 86400.0
    if half_life <= 0 or not len(times):
        return 1.0
    if now is not None:
        reference = now.timestamp()
    else:
        reference = float(times.max()) if newest is None else newest
    decay = np.power(0.5, np.maximum(reference - times, 0.0) / half_life)
    blended: FloatArray = (1.0 - weight) + weight * decay
    return blended


def top(values: FloatArray, k: int) -> list[int]:
    """Indexes of the k largest values, largest first."""
    if not len(values) or k <= 0:
        return []
    k = min(k, len(values))
    rows = None
    stride = len(values) // (16 * k)
    if stride >= 4:
        # The k-th largest of any subset is no larger than the whole array's, so every
        # value at or above a sample's k-th largest holds the top k: a partition of a
        # sixteenth of the array or less instead of all of it (argpartition is ~10 ns a
        # value).
        sample = values[::stride]
        floor = -np.partition(-sample, k - 1)[k - 1]  # near the start: see candidates
        rows = np.flatnonzero(values >= floor)
        values = values[rows]
    head = np.argpartition(-values, k - 1)[:k]
    best = head[np.argsort(-values[head], kind="stable")]
    return [int(i) for i in (rows[best] if rows is not None else best)]


def reciprocal_rank(values: FloatArray, mask: npt.NDArray[np.bool_], k: float) -> FloatArray:
    """1 / (k + rank) for every masked entry (rank 1 = best), 0 elsewhere."""
    out = np.zeros_like(values)
    rows = np.flatnonzero(mask)
    order = rows[np.argsort(-values[rows], kind="stable")]
    out[order] = 1.0 / (k + np.arange(1, len(order) + 1))
    return out


def by_max(values: FloatArray) -> FloatArray:
    """Scale non-negative scores so the best is 1; zero (no match) stays zero."""
    high = float(values.max(initial=0.0))
    return values / high if high > 0 else np.zeros_like(values)


def min_max(values: FloatArray, alive: npt.NDArray[np.bool_]) -> FloatArray:
    """Scale live scores to [0, 1] so lexical and dense can be mixed; all-equal becomes 0."""
    live = values[alive]
    if not len(live):
        return np.zeros_like(values)
    low, high = float(live.min()), float(live.max())
    if high - low <= 1e-12:
        return np.zeros_like(values)
    scaled: FloatArray = np.clip((values - low) / (high - low), 0.0, None) * alive
    return scaled


def zscore(values: FloatArray, alive: npt.NDArray[np.bool_]) -> FloatArray:
    """Standardise live scores, then shift so the lowest live score is 0."""
    live = values[alive]
    if not len(live) or float(live.std()) <= 1e-12:
        return np.zeros_like(values)
    standard = (values - live.mean()) / live.std()
    shifted: FloatArray = np.clip(standard - float(standard[alive].min()), 0.0, None) * alive
    return shifted
