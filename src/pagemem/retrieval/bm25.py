"""An in-memory BM25 index for one scope, with statistics from that scope alone.

FTS5 computes IDF over every row of the table, so one tenant's notes would move
another tenant's ranking. Each scope gets its own index instead: term frequencies
in postings lists, document lengths, and IDF from the scope's own documents.
Postings are appended as documents arrive and packed into numpy arrays on the
first search after a change.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["BM25", "Column"]

FloatArray = npt.NDArray[np.float64]
_WEIGHTS_CAP = 4_000_000  # postings of cached term weights (about 48 MB) before a reset


Weighted = tuple[npt.NDArray[np.int64], FloatArray]  # documents, what a term adds to each


class _TermCache:
    """What each term adds to the scores, kept while the index is in one state (and,
    for passages, the same neighbour arrays): the queries of a batch and repeated
    searches share their common words, whose long postings are most of a query's cost.
    At most _WEIGHTS_CAP postings before it starts again."""

    def __init__(self) -> None:
        self._state: tuple[int, int, int] | None = None
        self._along: Any = None  # compared by identity
        self._terms: dict[str, Weighted | None] = {}
        self._size = 0

    def get(
        self,
        state: tuple[int, int, int],
        term: str,
        compute: Callable[[str], Weighted | None],
        along: Any = None,
    ) -> Weighted | None:
        if self._state != state or self._along is not along or self._size > _WEIGHTS_CAP:
            self._terms.clear()
            self._state, self._along, self._size = state, along, 0
        if term in self._terms:
            return self._terms[term]
        weighted = compute(term)
        self._terms[term] = weighted
        if weighted is not None:
            self._size += len(weighted[0])
        return weighted


class Column:
    """A 1-D numpy array that grows by doubling: O(1) appends, no copies on read."""

    def __init__(self, dtype: type) -> None:
        self._data: npt.NDArray[Any] = np.zeros(16, dtype=dtype)
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def append(self, value: float | bool) -> None:
        if self._size == len(self._data):
            self._grow(2 * len(self._data))
        self._data[self._size] = value
        self._size += 1

    def extend(self, values: npt.ArrayLike) -> None:
        block = np.asarray(values, dtype=self._data.dtype)
        end = self._size + len(block)
        if end > len(self._data):
            self._grow(max(end, 2 * len(self._data)))
        self._data[self._size : end] = block
        self._size = end

    def _grow(self, capacity: int) -> None:
        data = np.zeros(capacity, dtype=self._data.dtype)
        data[: self._size] = self._data[: self._size]
        self._data = data

    def __setitem__(self, index: int, value: float | bool) -> None:
        self._data[index] = value

    def __getitem__(self, index: int) -> Any:
        return self._data[index]

    def view(self) -> npt.NDArray[Any]:
        """The live part of the array (a view: do not keep it across appends)."""
        return self._data[: self._size]


@dataclass(frozen=True, slots=True)
class _Block:
    """Postings of many terms in three arrays: a term's are docs[offsets[row]:offsets[row+1]]."""

    row: dict[str, int]
    offsets: npt.NDArray[np.int64]
    docs: npt.NDArray[np.int64]
    tfs: npt.NDArray[np.uint32]


class BM25:
    """Okapi BM25 over documents numbered 0..n-1 in the order they were added."""

    def __init__(self, k1: float = 1.2, b: float = 0.3) -> None:
        self.k1 = k1
        self.b = b
        # term -> (document numbers, term frequencies) as compact C arrays
        self._postings: dict[str, tuple[array[int], array[int]]] = {}
        # postings read back from a snapshot, one block for every term (see `restore`)
        self._base: _Block | None = None
        self._packed: dict[str, tuple[npt.NDArray[np.int64], FloatArray]] = {}
        self._lengths = Column(np.float64)
        self._alive = Column(np.bool_)
        self._live_count = 0
        self._live_length = 0
        self._weights = _TermCache()  # plain BM25
        self._context_weights = _TermCache()  # passages: a note with its neighbours
        # (statistics, the neighbour array it was made for, passage normalisation)
        self._context_cache: tuple[tuple[int, int, int], Any, FloatArray] | None = None

    def __len__(self) -> int:
        return len(self._lengths)

    @property
    def live(self) -> int:
        return self._live_count

    def alive(self) -> npt.NDArray[np.bool_]:
        """True for every document not removed (a view)."""
        alive: npt.NDArray[np.bool_] = self._alive.view()
        return alive

    def add(self, terms: Sequence[str]) -> int:
        """Index a document; return its number."""
        return self.add_many([terms])

    def add_many(self, documents: Sequence[Sequence[str]]) -> int:
        """Index many documents at once; return the first's number. The postings are
        built with numpy, not per document."""
        first = len(self._lengths)
        lengths = np.fromiter((len(terms) for terms in documents), np.int64, len(documents))
        every = list(chain.from_iterable(documents))
        vocabulary = {term: number for number, term in enumerate(dict.fromkeys(every))}
        term_ids = np.fromiter(map(vocabulary.__getitem__, every), np.int64, len(every))
        docs = np.repeat(np.arange(first, first + len(documents), dtype=np.int64), lengths)
        # one (term, document) pair per posting, sorted by term then document
        pairs, counts = np.unique(term_ids * (first + len(documents)) + docs, return_counts=True)
        terms_of, docs_of = np.divmod(pairs, first + len(documents))
        bounds = np.flatnonzero(np.diff(terms_of)) + 1
        names = list(vocabulary)
        starts = [0, *bounds.tolist()]
        ends = [*bounds.tolist(), len(pairs)]
        for start, end in zip(starts, ends, strict=True):
            if start == end:
                continue
            term = names[int(terms_of[start])]
            held, tfs = self._postings.setdefault(term, (array("q"), array("I")))
            held.frombytes(docs_of[start:end].tobytes())
            tfs.frombytes(counts[start:end].astype(np.uint32).tobytes())
            self._packed.pop(term, None)
        self._lengths.extend(lengths)
        self._alive.extend(np.ones(len(documents), dtype=bool))
        self._live_count += len(documents)
        self._live_length += int(lengths.sum())
        return first

    def remove(self, doc: int) -> None:
        """Forget a document's contribution to the statistics; its postings are skipped."""
        if self._alive[doc]:
            self._alive[doc] = False
            self._live_count -= 1
            self._live_length -= int(self._lengths[doc])

    def __contains__(self, term: object) -> bool:
        """Does any document, removed or not, hold this term?"""
        return term in self._postings or (self._base is not None and term in self._base.row)

    def _raw(self, term: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint32]] | None:
        """A term's document numbers and frequencies, restored and appended, unpacked."""
        parts = []
        if self._base is not None and (row := self._base.row.get(term)) is not None:
            start, end = self._base.offsets[row], self._base.offsets[row + 1]
            parts.append((self._base.docs[start:end], self._base.tfs[start:end]))
        if term in self._postings:
            docs, tfs = self._postings[term]
            parts.append((np.frombuffer(docs, np.int64), np.frombuffer(tfs, np.uint32)))
        if not parts:
            return None
        if len(parts) == 1:
            return parts[0]
        return np.concatenate([d for d, _ in parts]), np.concatenate([t for _, t in parts])

    def _pack(self, term: str) -> tuple[npt.NDArray[np.int64], FloatArray] | None:
        packed = self._packed.get(term)
        if packed is None:
            raw = self._raw(term)
            if raw is None:
                return None
            packed = (raw[0].copy(), raw[1].astype(np.float64))
            self._packed[term] = packed
        return packed

    def export(self, keep: npt.NDArray[np.bool_]) -> dict[str, Any]:
        """The postings and lengths of the documents `keep` marks, renumbered 0.. in
        order: what a snapshot stores, the postings as one part a term (the snapshot
        writes them one after another: joined, they were a copy of every posting at
        once). A term only removed documents held is left out, so nothing of a deleted
        note is written."""
        number = np.cumsum(keep) - 1
        names = sorted(set(self._postings) | (set(self._base.row) if self._base else set()))
        docs_parts, tfs_parts, terms, counts = [], [], [], []
        for term in names:
            raw = self._raw(term)
            assert raw is not None
            docs, tfs = raw
            kept = keep[docs]
            if not kept.any():
                continue
            docs_parts.append(number[docs[kept]])
            tfs_parts.append(tfs[kept])
            terms.append(term)
            counts.append(int(kept.sum()))
        if any("\n" in term for term in terms):
            raise ValueError("a term holds a line break")  # the analyzer never makes one
        offsets = np.zeros(len(terms) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        return {
            "bm25_terms": np.frombuffer("\n".join(terms).encode(), dtype=np.uint8),
            "bm25_offsets": offsets,
            "bm25_docs": docs_parts or np.zeros(0, dtype=np.int64),
            "bm25_tfs": [part.astype(np.uint32, copy=False) for part in tfs_parts]
            or np.zeros(0, dtype=np.uint32),
            "bm25_lengths": self._lengths.view()[keep].astype(np.float64),
        }

    @classmethod
    def restore(cls, arrays: Mapping[str, Any], k1: float, b: float) -> BM25:
        """An index from what `export` wrote (read from a file, or its parts): every
        document live."""
        index = cls(k1, b)
        text = arrays["bm25_terms"].tobytes().decode()
        names = text.split("\n") if text else []
        offsets = np.asarray(arrays["bm25_offsets"], dtype=np.int64)
        if len(offsets) != len(names) + 1:
            raise ValueError("the snapshot's terms and offsets disagree")
        index._base = _Block(
            {term: row for row, term in enumerate(names)},
            offsets,
            _joined(arrays["bm25_docs"], np.int64),
            _joined(arrays["bm25_tfs"], np.uint32),
        )
        lengths = np.asarray(arrays["bm25_lengths"], dtype=np.float64)
        index._lengths.extend(lengths)
        index._alive.extend(np.ones(len(lengths), dtype=bool))
        index._live_count = len(lengths)
        index._live_length = int(lengths.sum())
        return index

    def context_scores(
        self, terms: Sequence[str], prev: npt.NDArray[np.int64], nxt: npt.NDArray[np.int64]
    ) -> FloatArray:
        """BM25 of each document read together with its neighbours (`prev`/`nxt`, -1: none;
        each the other's inverse, between live documents).

        A reply ("a golden retriever named Biscuit") rarely repeats the question's words;
        scored as one passage with the turn before it, it matches. Only the passages
        holding a term are touched: a term's documents and their neighbours.
        """
        n = len(self._lengths)
        scores = np.zeros(n)
        if not self._live_count or not terms:
            return scores
        state = self._state()
        for term in dict.fromkeys(terms):
            weighted = self._context_weights.get(
                state, term, lambda t: self._context_weighted(t, prev, nxt), along=prev
            )
            if weighted is not None:
                scores[weighted[0]] += weighted[1]
        return scores

    def _context_weighted(
        self, term: str, prev: npt.NDArray[np.int64], nxt: npt.NDArray[np.int64]
    ) -> Weighted | None:
        """The passages a term is in and what it adds to each one's score."""
        packed = self._pack(term)
        if packed is None:
            return None
        n = len(self._lengths)
        alive = self._alive.view()
        docs, tfs = packed
        keep = alive[docs]
        docs = docs[keep]
        if not len(docs):
            return None
        after, before = nxt[docs], prev[docs]
        marked = np.zeros(n, dtype=bool)
        marked[docs] = True
        marked[after[after >= 0]] = True
        marked[before[before >= 0]] = True
        touched = np.flatnonzero(marked)
        tf = np.zeros(n)
        tf[docs] = tfs[keep]
        left, right = prev[touched], nxt[touched]
        context_tf = (
            tf[touched] + np.where(left >= 0, tf[left], 0.0) + np.where(right >= 0, tf[right], 0.0)
        ) * alive[touched]
        df = int(np.count_nonzero(context_tf))
        if df == 0:
            return None
        idf = math.log(1.0 + (self._live_count - df + 0.5) / (df + 0.5))
        norm = self._context_norm(prev, nxt)[touched]
        return touched, idf * context_tf * (self.k1 + 1.0) / (context_tf + norm)

    def _context_norm(self, prev: npt.NDArray[np.int64], nxt: npt.NDArray[np.int64]) -> FloatArray:
        """Each passage's length normalisation, kept while the neighbours are the same
        arrays and the statistics have not changed."""
        state = self._state()
        cached = self._context_cache
        if cached is not None and cached[0] == state and cached[1] is prev:
            return cached[2]
        alive = self._alive.view().astype(np.float64)
        lengths = self._lengths.view() * alive
        context_lengths = (
            lengths
            + np.where(prev >= 0, lengths[prev], 0.0)
            + np.where(nxt >= 0, lengths[nxt], 0.0)
        )
        average = float(context_lengths[alive > 0].mean()) or 1.0
        norm: FloatArray = self.k1 * (1.0 - self.b + self.b * context_lengths / average)
        self._context_cache = (state, prev, norm)
        return norm

    def scores(self, terms: Sequence[str], *, postings: int | None = None) -> FloatArray:
        """BM25 score of every document for the query terms (0 for removed documents).

        With `postings`, only the rarest terms are read, as long as their postings add up
        to at most that many (the rarest always): a shared rare word says more than a
        common one, and the common words' long postings are most of the cost."""
        scores = np.zeros(len(self._lengths))
        for docs, values in self._read(terms, postings):
            scores[docs] += values
        return scores

    def held_by(self, term: str, count: int) -> bool:
        """Do exactly `count` live documents hold the term? A term with more postings
        than that and every removed document together is answered without reading them
        (a common word's are most of a scope)."""
        removed = len(self._lengths) - self._live_count
        if self._postings_count(term) - removed > count:
            return False
        raw = self._raw(term)
        return raw is not None and int(self._alive.view()[raw[0]].sum()) == count

    def postings(self, terms: Sequence[str]) -> int:
        """How many postings the terms have together (removed documents included)."""
        return sum(self._postings_count(term) for term in dict.fromkeys(terms))

    def found(self, terms: Sequence[str], *, postings: int | None = None) -> Weighted:
        """`scores` of the documents holding a term only: their numbers (ascending) and
        scores above zero, at a cost that follows the terms' postings, not the scope
        (`postings`: as `scores`)."""
        parts = self._read(terms, postings)
        if not parts:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        docs = np.concatenate([d for d, _ in parts])
        order = np.argsort(docs, kind="stable")  # a document's terms stay in query order
        docs = docs[order]
        starts = np.flatnonzero(np.concatenate([[True], docs[1:] != docs[:-1]]))
        # summed term by term, in the order `scores` adds them: the same numbers
        summed = np.add.reduceat(np.concatenate([v for _, v in parts])[order], starts)
        keep = summed > 0
        found: Weighted = (docs[starts][keep], np.asarray(summed[keep], dtype=np.float64))
        return found

    def _read(self, terms: Sequence[str], postings: int | None) -> list[Weighted]:
        """What each term (the rarest, with `postings`) adds to its documents, in order."""
        if not self._live_count or not terms:
            return []
        unique = list(dict.fromkeys(terms))
        if postings is not None and len(unique) > 1:
            unique = self._rarest(unique, postings)
        state = self._state()
        return [
            weighted
            for term in unique
            if (weighted := self._weights.get(state, term, self._weighted)) is not None
        ]

    def _postings_count(self, term: str) -> int:
        """How many postings a term has, removed documents included, without reading them."""
        count = 0
        if self._base is not None and (row := self._base.row.get(term)) is not None:
            count += int(self._base.offsets[row + 1] - self._base.offsets[row])
        if term in self._postings:
            count += len(self._postings[term][0])
        return count

    def _rarest(self, terms: list[str], budget: int) -> list[str]:
        sizes = []
        for term in terms:
            if count := self._postings_count(term):
                sizes.append((count, term))
        sizes.sort()
        chosen: list[str] = []
        used = 0
        for size, term in sizes:
            if chosen and used + size > budget:
                break
            chosen.append(term)
            used += size
        return chosen

    def _state(self) -> tuple[int, int, int]:
        """What the statistics depend on: a write changes it."""
        return (len(self._lengths), self._live_count, self._live_length)

    def _weighted(self, term: str) -> Weighted | None:
        """A term's documents and what it adds to each one's score."""
        weighted = None
        packed = self._pack(term)
        if packed is not None:
            docs, tfs = packed
            live_docs = self._alive.view()[docs]
            df = int(live_docs.sum())
            if df:
                idf = math.log(1.0 + (self._live_count - df + 0.5) / (df + 0.5))
                # each document's length normalisation, for these documents only (the
                # whole scope's would be read again after every write)
                average = self._live_length / self._live_count or 1.0
                norm = self.k1 * (1.0 - self.b + self.b * self._lengths.view()[docs] / average)
                weighted = docs, live_docs * idf * tfs * (self.k1 + 1.0) / (tfs + norm)
        return weighted


def _joined(value: Any, dtype: type) -> npt.NDArray[Any]:
    """One array of what may be given in parts (`export`'s postings, not yet written)."""
    if isinstance(value, list):
        return np.concatenate(value).astype(dtype, copy=False)
    return np.asarray(value, dtype=dtype)
