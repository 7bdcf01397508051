"""One scope's search index in memory: BM25 postings, vectors and a column per feature.

Every note has a position (its document number) and a value in each column: when it
was written and became true, whether pagemem retired it, its trust weight, its
speaker, and the number of its id, the order it was written in (which neighbour
features follow, whatever order notes were added to the index in). The `Ranker`
builds one per scope and collection and keeps it current.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from pagemem.guard.policy import TrustPolicy
from pagemem.retrieval.analysis import Analyzer
from pagemem.retrieval.bm25 import BM25, Column
from pagemem.retrieval.config import RetrievalConfig
from pagemem.retrieval.embed import Vectors
from pagemem.retrieval.vectors import VectorSet
from pagemem.store.base import IndexRow

__all__ = ["ScopeIndex"]


class ScopeIndex:
    """What ranking needs about every note of one scope, in insertion order."""

    def __init__(self, config: RetrievalConfig, dim: int, trust: TrustPolicy) -> None:
        self.bm25 = BM25(config.k1, config.b)
        self.vectors = VectorSet(
            dim,
            ann_threshold=int(config.ann_threshold),
            ann_candidates=int(config.ann_candidates),
        )
        self.trust = trust
        self.ids: list[str] = []
        self.position: dict[str, int] = {}
        self.times = Column(np.float64)
        self.valid_from = Column(np.float64)  # when each fact became true (POSIX seconds)
        self.valid_to = Column(np.float64)  # when it stopped (inf: still true)
        self.expired = Column(np.bool_)  # retired by pagemem: superseded or merged
        self.weights = Column(np.float64)  # trust of each note: its origin and flags
        self.speaker_codes = Column(np.int64)  # index into speaker_names, -1: none
        self.speaker_names: dict[str, int] = {}
        # the number of each id ("a12" -> 12): the order notes were written in, which
        # neighbours follow; in_order while it ascends with position
        self.numbers = Column(np.int64)
        self.in_order = True
        self.revision = -1

    def add_many(
        self, rows: Sequence[IndexRow], analyzer: Analyzer, vectors: Mapping[str, Vectors]
    ) -> None:
        """Index these rows, in order (a scope's first load a page at a time, or the
        notes one write added)."""
        if not rows:
            return
        numbers = np.fromiter(
            (int(r.id[1:]) if r.id[1:].isdigit() else 0 for r in rows), np.int64, len(rows)
        )
        before = self.numbers.view()[-1:] if len(self.ids) else numbers[:0]
        if np.any(np.diff(np.concatenate([before, numbers])) <= 0):
            self.in_order = False
        self.numbers.extend(numbers)
        first = self.bm25.add_many([analyzer.terms(r.text) for r in rows])
        present = np.fromiter((r.id in vectors for r in rows), bool, len(rows))
        matrix = np.zeros((len(rows), self.vectors.dim), dtype=np.float32)
        for i, row in enumerate(rows):
            if present[i]:
                matrix[i] = vectors[row.id]
        self.vectors.add_many(first, matrix, present)
        for offset, row in enumerate(rows):
            self.ids.append(row.id)
            self.position[row.id] = first + offset
        self.times.extend([r.created_at for r in rows])
        self.valid_from.extend([r.valid_from for r in rows])
        self.valid_to.extend([r.valid_to for r in rows])
        self.expired.extend([r.expired for r in rows])
        self.weights.extend([self.trust.weight(r.origin, r.flags) for r in rows])
        codes = []
        for row in rows:
            name = row.speaker.lower() if row.speaker else ""
            codes.append(
                self.speaker_names.setdefault(name, len(self.speaker_names)) if name else -1
            )
        self.speaker_codes.extend(codes)

    def remove(self, record_id: str) -> None:
        doc = self.position.pop(record_id, None)
        if doc is not None:
            self.bm25.remove(doc)
            self.vectors.remove(doc)
