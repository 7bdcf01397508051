"""What a search reads off a scope's index besides words and meaning: which notes are
current, which are neighbours, who said them, whether they fall in the time a question
names, and where a question's meaning should move after a first look.

Each is a function of the index and the query, one array entry per note, so the
ranker composes them and a test can check each alone.
"""

from __future__ import annotations

from datetime import datetime

import numpy as np
import numpy.typing as npt

from pagemem.retrieval.analysis import Analyzer
from pagemem.retrieval.bm25 import FloatArray
from pagemem.retrieval.embed import Vectors
from pagemem.retrieval.fusion import top
from pagemem.retrieval.lexical import words
from pagemem.retrieval.scope_index import ScopeIndex
from pagemem.retrieval.timewindow import Window, event_offset, time_window

__all__ = [
    "At",
    "Mask",
    "Neighbours",
    "adjacency",
    "beside",
    "feedback",
    "named_speaker",
    "timely",
    "valid",
    "with_neighbours",
]

Mask = npt.NDArray[np.bool_]
Neighbours = npt.NDArray[np.int64]  # per note, the position of a neighbour (-1: none)
# the notes a search looks at: every one, or its candidates' numbers (ascending)
At = slice | npt.NDArray[np.int64]
_EVERY = slice(None)
# Times read back from SQLite (julianday arithmetic) can be off by tens of microseconds.
_SLACK = 0.001


def valid(
    index: ScopeIndex,
    now: datetime | None,
    as_of: datetime | None,
    retired: bool = False,
    at: At = _EVERY,
) -> Mask | None:
    """The notes that compete: facts true `now` and not retired; with `as_of`, those
    true then; with `retired`, every note that was ever a fact. None: all of them.
    `at`: for these notes only (a search's candidates)."""
    if not len(index.valid_from):
        return None
    start, end = index.valid_from.view()[at] - _SLACK, index.valid_to.view()[at]
    expired: Mask = index.expired.view()[at]
    # A merged copy (expired with no end of validity) was never a fact of its own.
    merged = expired & np.isinf(end)
    if as_of is None and retired:  # every note that was ever a fact, or said one
        if now is None:
            return None
        return np.asarray(start <= now.timestamp(), dtype=np.bool_)
    if as_of is None:
        if now is None:
            current: Mask = ~expired
            return current
        moment = now.timestamp()
        return np.asarray((start <= moment) & (moment < end) & ~expired, dtype=np.bool_)
    moment = as_of.timestamp()
    # A fact closed by a later one keeps its interval.
    return np.asarray((start <= moment) & (moment < end) & ~merged, dtype=np.bool_)


def adjacency(index: ScopeIndex, gap_seconds: float) -> tuple[Neighbours, Neighbours]:
    """For every note, the live note written just before and just after it (-1: none).

    Episodes (events, conversation turns) are neighbours when adjacent in the order
    they were written (their ids) and written within `gap_seconds` of each other: turns
    of one conversation, not two. Facts have none: each stands alone, and one written
    next to another says nothing about what the other answers. The
    order written, not the index's, so a note held and released (added again at the end
    of the index) keeps the neighbours a fresh index would give it.
    """
    # Only a write changes them: at one length the live count only falls, so the pair
    # names the live set (hold and release add the note again at the end).
    state = (len(index.ids), index.bm25.live, gap_seconds)
    cached = index.neighbours
    if cached is not None and cached[0] == state:
        return cached[1], cached[2]
    index.linked = False
    n = len(index.ids)
    prev = np.full(n, -1, dtype=np.int64)
    nxt = np.full(n, -1, dtype=np.int64)
    live = np.flatnonzero(index.bm25.alive() & index.episodic.view())
    if not index.in_order:
        live = live[np.argsort(index.numbers.view()[live], kind="stable")]
    if len(live) >= 2:
        times = index.times.view()[live]
        near = np.abs(np.diff(times)) <= gap_seconds
        prev[live[1:]] = np.where(near, live[:-1], -1)
        nxt[live[:-1]] = np.where(near, live[1:], -1)
        index.linked = bool(near.any())
    index.neighbours = (state, prev, nxt)
    return prev, nxt


def with_neighbours(
    index: ScopeIndex, scores: FloatArray, prev: Neighbours, nxt: Neighbours, weight: float
) -> FloatArray:
    """Each note inherits `weight` of its neighbours' scores."""
    if weight <= 0 or len(scores) < 2:
        return scores
    shared = np.where(prev >= 0, scores[prev], 0.0) + np.where(nxt >= 0, scores[nxt], 0.0)
    out: FloatArray = (scores + weight * shared) * index.bm25.alive()
    return out


def beside(index: ScopeIndex, found: Mask, prev: Neighbours, nxt: Neighbours) -> Mask:
    """Live notes next to a found one (they inherit a share of its score)."""
    if len(found) < 2:
        return np.zeros(len(found), dtype=bool)
    near = np.where(prev >= 0, found[prev], False) | np.where(nxt >= 0, found[nxt], False)
    alive: Mask = near & index.bm25.alive()
    return alive


def named_speaker(index: ScopeIndex, query: str) -> str:
    """The one speaker of the scope the query names ("" for none, or for several)."""
    named = set(index.speaker_names).intersection(words(query))
    return next(iter(named)) if len(named) == 1 else ""


def timely(
    index: ScopeIndex, query: str, reference: datetime, slack_days: float, analyzer: Analyzer
) -> tuple[Window, Mask] | None:
    """The time the query names and the notes in it: by when their fact became true,
    or for messages when they were written. None when the query names no time."""
    window = time_window(query, reference)
    relative = event_offset(query) if window is None else None
    if window is None and relative is None:  # most queries: no pass over the notes
        return None
    start = index.valid_from.view()
    moments = np.where(np.isfinite(start), start, index.times.view())
    if relative is not None:
        window = _around_event(index, moments, analyzer, *relative)
    if window is None:
        return None
    return window, window.mask(moments, slack_days * 86_400.0)


def _around_event(
    index: ScopeIndex, moments: FloatArray, analyzer: Analyzer, shift: float, event: str
) -> Window | None:
    """The day `shift` seconds from the note that best names the event (by its words),
    or None when no note names it."""
    terms = analyzer.query(event)
    if not terms:
        return None
    scores = index.bm25.scores(terms)
    best = int(np.argmax(scores)) if len(scores) else -1
    if best < 0 or scores[best] <= 0 or not np.isfinite(moments[best]):
        return None
    day = float(moments[best]) + shift
    days = f"{shift / 86_400.0:+g} days"
    return Window(day - 43_200.0, day + 43_200.0, (), f"{days} from {event} ({index.ids[best]})")


def feedback(
    index: ScopeIndex,
    query: Vectors,
    first: FloatArray,
    pool: Mask,
    notes: int,
    weight: float,
    at: At = _EVERY,
) -> Vectors | None:
    """The query vector moved `weight` toward the mean of the `notes` best of `pool` by
    the first round's scores (pseudo-relevance feedback): a list question ("what
    activities does Melanie do") finds the pottery note by its words, then the swimming
    and camping notes by their likeness to it. None when there is nothing to learn from.
    `first` and `pool` are of the notes `at` names.
    """
    if weight <= 0 or notes < 1 or not pool.any():
        return None
    best = top(np.where(pool, first, -np.inf), notes)
    best = [doc for doc in best if pool[doc]]
    if not best:
        return None
    docs = best if isinstance(at, slice) else [int(at[i]) for i in best]
    rows = index.vectors.rows(docs).astype(np.float64)
    unit = rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)
    moved = query + weight * unit.mean(axis=0)
    normalised: Vectors = (moved / max(float(np.linalg.norm(moved)), 1e-12)).astype(np.float32)
    return normalised
