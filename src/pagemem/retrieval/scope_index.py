"""One scope's search index in memory: BM25 postings, vectors and a column per feature.

Every note has a position (its document number) and a value in each column: when it
was written and became true, whether pagemem retired it, its trust weight, its
speaker, whether it says when something happened, and the number of its id, the
order it was written in (which neighbour features follow, whatever order notes were
added to the index in). The `Ranker` builds one per scope and collection and keeps it
current.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pagemem.guard.policy import TrustPolicy
from pagemem.retrieval.analysis import Analyzer
from pagemem.retrieval.bm25 import BM25, Column
from pagemem.retrieval.config import RetrievalConfig
from pagemem.retrieval.embed import Vectors
from pagemem.retrieval.speakers import leading_speaker
from pagemem.retrieval.timewindow import tells_when
from pagemem.retrieval.vectors import Part, VectorSet
from pagemem.store.base import IndexRow

__all__ = ["ScopeIndex"]


class ScopeIndex:
    """What ranking needs about every note of one scope, in insertion order."""

    def __init__(
        self, config: RetrievalConfig, dim: int, trust: TrustPolicy, *, spill: Path | None = None
    ) -> None:
        self.bm25 = BM25(config.k1, config.b)
        self.vectors = VectorSet(
            dim,
            ann_threshold=int(config.ann_threshold),
            ann_candidates=int(config.ann_candidates),
            scan_threshold=None
            if math.isinf(config.scan_threshold)
            else int(config.scan_threshold),
            spill=spill,
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
        self.dated = Column(np.bool_)  # the note says when something happened
        self.episodic = Column(np.bool_)  # an event or a turn: only these have neighbours
        # the number of each id ("a12" -> 12): the order notes were written in, which
        # neighbours follow; in_order while it ascends with position
        self.numbers = Column(np.int64)
        self.in_order = True
        self.revision = -1
        # each note's neighbours as `features.adjacency` found them, and for what state
        self.neighbours: (
            tuple[tuple[int, int, float], npt.NDArray[np.int64], npt.NDArray[np.int64]] | None
        ) = None
        self.linked = False  # whether any note has a neighbour (set with `neighbours`)
        self.saved = -1  # the revision of its last snapshot (-1: none)
        self.graph_saved = False  # whether that snapshot holds its HNSW graph

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
        terms = [analyzer.terms(r.text) for r in rows]
        first = self.bm25.add_many(terms)
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
            speaker = row.speaker or leading_speaker(row.text)
            name = speaker.lower() if speaker else ""
            codes.append(
                self.speaker_names.setdefault(name, len(self.speaker_names)) if name else -1
            )
        self.speaker_codes.extend(codes)
        self.dated.extend([tells_when(t) for t in terms])
        self.episodic.extend([r.episodic for r in rows])

    def export(self) -> dict[str, npt.NDArray[Any] | list[Part]]:
        """Every live note's part of the index, renumbered 0.. in order: what a snapshot
        stores (removed notes are left out, their words and vectors with them)."""
        keep = self.bm25.alive().copy()
        every = bool(keep.all())
        ids = self.ids if every else [i for i, alive in zip(self.ids, keep, strict=True) if alive]
        pick: Any = slice(None) if every else keep
        names = sorted(self.speaker_names, key=self.speaker_names.__getitem__)
        return {
            **self.bm25.export(keep),
            **self.vectors.export(keep),
            "ids": _text_array("\n".join(ids)),
            "times": self.times.view()[pick],
            "valid_from": self.valid_from.view()[pick],
            "valid_to": self.valid_to.view()[pick],
            "expired": self.expired.view()[pick],
            "weights": self.weights.view()[pick],
            "speaker_codes": self.speaker_codes.view()[pick],
            "speaker_names": _text_array(json.dumps(names)),
            "dated": self.dated.view()[pick],
            "episodic": self.episodic.view()[pick],
            "numbers": self.numbers.view()[pick],
        }

    @classmethod
    def restore(
        cls,
        arrays: Mapping[str, Any],
        config: RetrievalConfig,
        dim: int,
        trust: TrustPolicy,
    ) -> ScopeIndex:
        """The index `export` wrote; ValueError when the arrays do not fit together."""
        index = cls(config, dim, trust)
        index.bm25 = BM25.restore(arrays, config.k1, config.b)
        index.vectors.restore(arrays)
        text = arrays["ids"].tobytes().decode()
        index.ids = text.split("\n") if text else []
        n = len(index.ids)
        index.position = {item: doc for doc, item in enumerate(index.ids)}
        columns = {
            "times": index.times,
            "valid_from": index.valid_from,
            "valid_to": index.valid_to,
            "expired": index.expired,
            "weights": index.weights,
            "speaker_codes": index.speaker_codes,
            "dated": index.dated,
            "episodic": index.episodic,
            "numbers": index.numbers,
        }
        for name, column in columns.items():
            column.extend(arrays[name])
        sizes = {len(index.bm25), len(index.position), *(len(c) for c in columns.values())}
        if sizes != {n} or len(arrays["vectors"]) != n:
            raise ValueError("the snapshot's columns have different lengths")
        names = json.loads(arrays["speaker_names"].tobytes().decode())
        index.speaker_names = {name: code for code, name in enumerate(names)}
        index.in_order = bool(np.all(np.diff(index.numbers.view()) > 0))
        return index

    def remove(self, record_id: str) -> None:
        doc = self.position.pop(record_id, None)
        if doc is not None:
            self.bm25.remove(doc)
            self.vectors.remove(doc)


def _text_array(text: str) -> npt.NDArray[np.uint8]:
    return np.frombuffer(text.encode(), dtype=np.uint8)
