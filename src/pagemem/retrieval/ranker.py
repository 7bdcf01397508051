"""Search inside one scope: BM25, neighbouring notes, a named speaker, origin trust.

Each scope gets an in-memory index built from the store on first use and kept in
step with this process's writes; a revision counter in the store tells it when
another process wrote, and it rebuilds. Ranking reads only the scope's own notes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from pagemem.models import Record, Scope
from pagemem.retrieval.analysis import Analyzer
from pagemem.retrieval.bm25 import BM25, FloatArray
from pagemem.retrieval.lexical import words
from pagemem.store.base import RecordFilter, Store

__all__ = ["RankedRecord", "Ranker", "RetrievalConfig"]

_PAGE = 10_000


@dataclass(frozen=True, slots=True)
class RetrievalConfig:
    """Ranking knobs; defaults are chosen on the LoCoMo dev split (docs/retrieval.md)."""

    k1: float = 1.2
    b: float = 0.3
    neighbour_weight: float = 0.5  # share of the adjacent notes' scores a note inherits
    neighbour_gap_seconds: float = 6 * 3600  # notes further apart in time are not neighbours
    speaker_boost: float = 0.3  # when a query names exactly one speaker of the scope
    origin_weights: dict[str, float] = field(
        default_factory=lambda: {"user": 1.0, "agent": 1.0, "system": 1.0, "tool": 0.8, "web": 0.7}
    )


@dataclass(frozen=True, slots=True)
class RankedRecord:
    record: Record
    score: float
    explain: str


class _ScopeIndex:
    """What ranking needs about every note of one scope, in insertion order."""

    def __init__(self, config: RetrievalConfig) -> None:
        self.bm25 = BM25(config.k1, config.b)
        self.ids: list[str] = []
        self.position: dict[str, int] = {}
        self.times: list[float] = []
        self.speakers: list[str] = []
        self.origins: list[str] = []
        self.revision = -1

    def add(self, record: Record, analyzer: Analyzer) -> None:
        doc = self.bm25.add(analyzer.terms(record.text))
        self.ids.append(record.id)
        self.position[record.id] = doc
        self.times.append(record.created_at.timestamp())
        speaker = record.metadata.get("speaker")
        self.speakers.append(speaker.lower() if isinstance(speaker, str) else "")
        self.origins.append(record.origin)

    def remove(self, record_id: str) -> None:
        doc = self.position.pop(record_id, None)
        if doc is not None:
            self.bm25.remove(doc)


class Ranker:
    """Ranks a scope's archival notes for a free-text query."""

    def __init__(self, store: Store, config: RetrievalConfig | None = None) -> None:
        self.store = store
        self.config = config or RetrievalConfig()
        self.analyzer = Analyzer()
        self._indexes: dict[Scope, _ScopeIndex] = {}
        self._lock = threading.RLock()

    # keeping indexes current

    def _index(self, scope: Scope) -> _ScopeIndex:
        revision = self.store.record_revision(scope)
        index = self._indexes.get(scope)
        if index is None or index.revision != revision:
            index = _ScopeIndex(self.config)
            offset, everything = 0, RecordFilter()
            while page := self.store.list_records(scope, everything, limit=_PAGE, offset=offset):
                for record in page:
                    index.add(record, self.analyzer)
                offset += len(page)
            index.revision = revision
            self._indexes[scope] = index
        return index

    def added(self, scope: Scope, record: Record) -> None:
        """Called after this process inserted a record."""
        with self._lock:
            index = self._indexes.get(scope)
            if index is not None and index.revision + 1 == self.store.record_revision(scope):
                index.add(record, self.analyzer)
                index.revision += 1
            else:
                self._indexes.pop(scope, None)  # another writer got in between: rebuild

    def removed(self, scope: Scope, record_id: str) -> None:
        """Called after this process deleted a record."""
        with self._lock:
            index = self._indexes.get(scope)
            if index is not None and index.revision + 1 == self.store.record_revision(scope):
                index.remove(record_id)
                index.revision += 1
            else:
                self._indexes.pop(scope, None)

    def forget_scope(self, scope: Scope) -> None:
        with self._lock:
            self._indexes.pop(scope, None)

    # ranking

    def search(self, scope: Scope, query: str, k: int, where: RecordFilter) -> list[RankedRecord]:
        terms = self.analyzer.query(query)
        with self._lock:
            index = self._index(scope)
            if not terms or not index.bm25.live:
                return []
            lexical = index.bm25.scores(terms)
            scores = self._with_neighbours(index, lexical)
            speaker = self._named_speaker(index, query)
            if speaker:
                scores = scores * np.where(
                    np.asarray(index.speakers) == speaker, 1.0 + self.config.speaker_boost, 1.0
                )
            weights = self.config.origin_weights
            scores = scores * np.asarray([weights.get(o, 1.0) for o in index.origins])
            ids = list(index.ids)
        if where != RecordFilter():
            allowed = self.store.filter_record_ids(scope, where)
            scores = scores * np.asarray([record_id in allowed for record_id in ids])
        order = np.argsort(-scores, kind="stable")
        top = [int(i) for i in order[:k] if scores[i] > 0]
        records = {r.id: r for r in self.store.get_records(scope, [ids[i] for i in top])}
        results = []
        for i in top:
            record = records.get(ids[i])
            if record is None:  # deleted by another process since the index was read
                continue
            explain = f"bm25={lexical[i]:.3f} score={scores[i]:.3f}"
            if speaker and index.speakers[i] == speaker:
                explain += f" speaker={speaker}"
            results.append(RankedRecord(record, float(scores[i]), explain))
        return results

    def _with_neighbours(self, index: _ScopeIndex, lexical: FloatArray) -> FloatArray:
        weight = self.config.neighbour_weight
        if weight <= 0 or len(lexical) < 2:
            return lexical
        live = np.asarray(list(index.position.values()), dtype=np.int64)
        live.sort()
        if len(live) < 2:
            return lexical
        times = np.asarray(index.times)[live]
        near = np.abs(np.diff(times)) <= self.config.neighbour_gap_seconds
        own = lexical[live]
        shared = np.zeros_like(own)
        shared[1:] += np.where(near, own[:-1], 0.0)  # from the previous note
        shared[:-1] += np.where(near, own[1:], 0.0)  # from the next note
        out = np.zeros_like(lexical)
        out[live] = own + weight * shared
        return out

    def _named_speaker(self, index: _ScopeIndex, query: str) -> str:
        speakers = {s for s in index.speakers if s}
        named = speakers.intersection(words(query))
        return next(iter(named)) if len(named) == 1 else ""
