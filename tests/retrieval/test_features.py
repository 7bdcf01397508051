"""The per-note features a search composes, each on its own, and pseudo-relevance
feedback through the public API with an embedder whose geometry the test chooses."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from pagemem import Memory
from pagemem.guard.policy import TrustPolicy
from pagemem.retrieval import features
from pagemem.retrieval.analysis import Analyzer
from pagemem.retrieval.embed import Role, Vectors
from pagemem.retrieval.ranker import RetrievalConfig
from pagemem.retrieval.scope_index import ScopeIndex
from pagemem.store.base import IndexRow

DIM = 8


def _axis(*weights: tuple[int, float]) -> Vectors:
    row = np.zeros(DIM, dtype=np.float32)
    for axis, weight in weights:
        row[axis] = weight
    normalised: Vectors = row / np.linalg.norm(row)
    return normalised


# The question means axis 0. Pottery shares its words and leans toward axis 1; swimming
# is axis 1 alone (no shared word, cosine 0 to the question); the tax note is axis 2.
GEOMETRY = {
    "which hobbies does Mel enjoy": _axis((0, 1.0)),
    "Mel enjoys pottery as a hobby": _axis((0, 1.0), (1, 1.0)),
    "went swimming with the kids": _axis((1, 1.0)),
    "the tax form is due in April": _axis((2, 1.0)),
}


class GeometryEmbedder:
    model_id = "test-geometry-8"
    dim = DIM

    def embed(self, texts: Sequence[str], *, role: Role = "document") -> Vectors:
        return np.stack([GEOMETRY.get(text, _axis((7, 1.0))) for text in texts])


def _search(feedback_weight: float) -> list[str]:
    config = RetrievalConfig(
        neighbour_weight=0, context_weight=0, centre=0, feedback_weight=feedback_weight
    )
    with Memory(":memory:", embedder=GeometryEmbedder(), retrieval=config) as mem:
        me = mem.scope("acme", "mel")
        for text in list(GEOMETRY)[1:]:
            me.archive.insert(text)
        return [h.record.text for h in me.archive.search("which hobbies does Mel enjoy", k=3)]


def test_feedback_finds_a_note_like_the_first_hit_that_shares_nothing_with_the_question() -> None:
    assert "went swimming with the kids" not in _search(feedback_weight=0)
    found = _search(feedback_weight=0.3)
    assert {"Mel enjoys pottery as a hobby", "went swimming with the kids"} <= set(found)
    assert "the tax form is due in April" not in found


def _index(
    texts: list[str], vectors: list[Vectors], episodic: list[bool] | None = None
) -> ScopeIndex:
    index = ScopeIndex(RetrievalConfig(), DIM, TrustPolicy())
    kinds = episodic or [True] * len(texts)
    rows = [
        IndexRow(
            pk=n + 1,
            id=f"a{n + 1}",
            text=t,
            created_at=float(n),
            origin="user",
            speaker=None,
            episodic=kinds[n],
        )
        for n, t in enumerate(texts)
    ]
    index.add_many(rows, Analyzer(), {r.id: v for r, v in zip(rows, vectors, strict=True)})
    return index


def test_feedback_learns_only_from_the_pool() -> None:
    index = _index(["a", "b", "c"], [_axis((0, 1.0)), _axis((1, 1.0)), _axis((2, 1.0))])
    query = _axis((3, 1.0))
    first = np.asarray([3.0, 2.0, 1.0])
    pool = np.asarray([False, True, True])
    moved = features.feedback(index, query, first, pool, 1, 0.5)
    assert moved is not None
    # the best in the pool is b (axis 1), not a, which scored higher but is not eligible
    assert moved[0] == 0.0
    assert moved[1] / moved[3] == pytest.approx(0.5)
    assert float(np.linalg.norm(moved)) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("pool", "notes", "weight"),
    [([False, False, False], 3, 0.3), ([True, True, True], 0, 0.3), ([True, True, True], 3, 0.0)],
)
def test_no_feedback_without_a_pool_notes_or_weight(
    pool: list[bool], notes: int, weight: float
) -> None:
    index = _index(["a", "b", "c"], [_axis((0, 1.0)), _axis((1, 1.0)), _axis((2, 1.0))])
    moved = features.feedback(index, _axis((3, 1.0)), np.ones(3), np.asarray(pool), notes, weight)
    assert moved is None


def test_adjacency_follows_the_written_order_and_the_time_gap() -> None:
    index = _index(["a", "b", "c"], [_axis((0, 1.0))] * 3)
    index.times.view()[:] = [0.0, 10.0, 10_000.0]
    prev, nxt = features.adjacency(index, gap_seconds=60)
    assert prev.tolist() == [-1, 0, -1]
    assert nxt.tolist() == [1, -1, -1]
    shared = features.with_neighbours(index, np.asarray([1.0, 0.0, 4.0]), prev, nxt, 0.5)
    assert shared.tolist() == [1.0, 0.5, 4.0]
    found = np.asarray([True, False, False])
    assert features.beside(index, found, prev, nxt).tolist() == [False, True, False]


def test_facts_have_no_neighbours_and_episodes_skip_them() -> None:
    """A fact written between two turns of a conversation neither borrows their scores
    nor separates them."""
    index = _index(["a", "b", "c", "d"], [_axis((0, 1.0))] * 4, [True, False, True, False])
    prev, nxt = features.adjacency(index, gap_seconds=60)
    assert prev.tolist() == [-1, -1, 0, -1]
    assert nxt.tolist() == [2, -1, -1, -1]
    shared = features.with_neighbours(index, np.asarray([1.0, 8.0, 2.0, 0.0]), prev, nxt, 0.5)
    assert shared.tolist() == [2.0, 8.0, 2.5, 0.0]


def test_a_speaker_is_named_only_when_exactly_one_is() -> None:
    index = _index(["a", "b"], [_axis((0, 1.0))] * 2)
    index.speaker_names = {"caroline": 0, "melanie": 1}
    assert features.named_speaker(index, "What did Melanie paint?") == "melanie"
    assert features.named_speaker(index, "Did Caroline and Melanie paint?") == ""
    assert features.named_speaker(index, "What was painted?") == ""
