"""A scope's index loaded many rows at a time is the index built one row at a time
(as each write adds its notes)."""

from __future__ import annotations

import numpy as np
import pytest

from pagemem.guard.policy import TrustPolicy
from pagemem.retrieval.analysis import Analyzer
from pagemem.retrieval.config import RetrievalConfig
from pagemem.retrieval.scope_index import ScopeIndex
from pagemem.store.base import IndexRow

TEXTS = [
    "Priya lives in Seattle with her dog Miso",
    "the the the",  # nothing but stop words: a document with no terms
    "Gate B12 for the flight, gate changed twice",
    "Miso the dog likes the beach; Miso likes sticks",
    "",
    "Priya drinks green tea, green tea every morning",
]


def rows(start: int = 1) -> list[IndexRow]:
    return [
        IndexRow(
            pk=i,
            id=f"a{start + i}",
            text=text,
            created_at=1000.0 + i,
            origin="user" if i % 2 else "web",
            speaker=("Priya", None, "Sam")[i % 3],
            flags=("directive",) if i == 3 else (),
            valid_from=900.0 + i,
            valid_to=float("inf") if i != 2 else 5000.0,
            expired=i == 2,
        )
        for i, text in enumerate(TEXTS)
    ]


def vectors(batch: list[IndexRow]) -> dict[str, np.ndarray]:
    found = {}
    for i, row in enumerate(batch):
        if i != 4:  # one row has no vector
            v = np.random.default_rng(i).normal(size=8).astype(np.float32)
            found[row.id] = v / np.linalg.norm(v)
    return found


def build(batched: bool, pages: list[list[IndexRow]]) -> ScopeIndex:
    index = ScopeIndex(RetrievalConfig(), 8, TrustPolicy())
    analyzer = Analyzer()
    for page in pages:
        found = vectors(page)
        for rows_added in [page] if batched else [[row] for row in page]:
            index.add_many(rows_added, analyzer, found)
    return index


@pytest.mark.parametrize("split", [1, 2, 4])
def test_many_at_once_equals_one_at_a_time(split: int) -> None:
    everything = rows() + rows(start=20)
    pages = [everything[i : i + split] for i in range(0, len(everything), split)]
    one, many = build(False, pages), build(True, pages)
    assert many.ids == one.ids
    assert many.position == one.position
    assert many.speaker_names == one.speaker_names
    for column in ("numbers", "times", "valid_from", "valid_to", "expired", "weights"):
        assert np.array_equal(getattr(many, column).view(), getattr(one, column).view())
    assert np.array_equal(many.speaker_codes.view(), one.speaker_codes.view())
    assert many.in_order == one.in_order
    analyzer = Analyzer()
    for query in ("dog", "green tea", "gate flight", "Miso beach sticks", "nothing here"):
        terms = analyzer.query(query)
        assert np.allclose(many.bm25.scores(terms), one.bm25.scores(terms))
    query = vectors(rows())["a1"]
    for got, want in zip(
        many.vectors.scores(query, centre=True), one.vectors.scores(query, centre=True), strict=True
    ):
        assert np.allclose(got, want)
    assert len(many.vectors) == len(one.vectors)
    many.remove("a3")
    one.remove("a3")
    assert np.allclose(many.bm25.scores(["gate"]), one.bm25.scores(["gate"]))


def test_rows_out_of_order_are_noticed() -> None:
    backwards = list(reversed(rows()))
    index = ScopeIndex(RetrievalConfig(), 8, TrustPolicy())
    index.add_many(backwards, Analyzer(), {})
    assert not index.in_order
    assert len(index.vectors) == 0  # no vectors given: none match
