from __future__ import annotations

import itertools
import math

import numpy as np

from pagemem.retrieval.analysis import Analyzer
from pagemem.retrieval.bm25 import BM25


def test_scores_follow_okapi() -> None:
    index = BM25(k1=1.2, b=0.0)
    index.add(["dog", "dog", "park"])
    index.add(["cat"])
    scores = index.scores(["dog"])
    idf = math.log(1 + (2 - 1 + 0.5) / (1 + 0.5))
    assert math.isclose(scores[0], idf * 2 * 2.2 / (2 + 1.2))
    assert scores[1] == 0.0


def test_removed_documents_leave_the_statistics() -> None:
    index = BM25()
    first = index.add(["dog"])
    index.add(["dog", "cat"])
    before = index.scores(["cat"])[1]
    index.remove(first)
    after = index.scores(["dog", "cat"])
    assert after[first] == 0.0
    assert index.live == 1
    assert after[1] != before  # IDF and average length now come from one document
    assert list(index.alive()) == [False, True]


def test_kept_term_weights_follow_every_change_to_the_index() -> None:
    """Scores come from weights kept between queries; after each add and remove they
    must equal those of an index built afresh with the same documents."""
    documents = [["dog", "park"], ["dog", "cat"], ["cat", "mat", "mat"], ["dog"]]
    kept = BM25()
    removed: list[int] = []
    for step, terms in enumerate(documents):
        kept.add(terms)
        kept.scores(["dog", "cat", "mat"])  # fill the kept weights
        if step == 2:
            kept.remove(0)
            removed.append(0)
        fresh = BM25()
        for doc in documents[: step + 1]:
            fresh.add(doc)
        for doc in removed:
            fresh.remove(doc)
        for query in (["dog"], ["cat", "mat"], ["dog", "cat", "mat", "unknown"]):
            assert np.array_equal(kept.scores(query), fresh.scores(query))


def test_kept_passage_weights_follow_every_change_to_the_index() -> None:
    """Passage (note with its neighbours) scores are kept between queries too; after each
    add and remove they must equal those of an index built afresh."""
    documents = [["dog", "park"], ["cat"], ["dog", "cat", "mat"], ["mat"], ["dog"]]

    def chain(index: BM25) -> tuple[np.ndarray, np.ndarray]:
        live = [d for d in range(len(index)) if index.alive()[d]]
        prev = np.full(len(index), -1, dtype=np.int64)
        nxt = np.full(len(index), -1, dtype=np.int64)
        for a, b in itertools.pairwise(live):
            nxt[a], prev[b] = b, a
        return prev, nxt

    kept = BM25()
    for step, terms in enumerate(documents):
        kept.add(terms)
        prev, nxt = chain(kept)
        kept.context_scores(["dog", "cat", "mat"], prev, nxt)  # fill the kept weights
        if step == 3:
            kept.remove(1)
            prev, nxt = chain(kept)
        fresh = BM25()
        for doc in documents[: step + 1]:
            fresh.add(doc)
        if step >= 3:
            fresh.remove(1)
        for query in (["dog"], ["cat", "mat"], ["dog", "cat", "mat", "unknown"]):
            expected = fresh.context_scores(query, *chain(fresh))
            assert np.array_equal(kept.context_scores(query, prev, nxt), expected)


def test_a_postings_budget_reads_the_rarest_terms_first() -> None:
    """The candidate lookup of a write reads its rarest words within a budget of
    postings: the scores are those of the words it kept, the rarest always among them."""
    index = BM25()
    for n in range(40):
        index.add(["common", "often"] if n % 2 else ["common"])
    index.add(["common", "often", "rare"])
    query = ["common", "often", "rare"]
    assert np.array_equal(index.scores(query, postings=100), index.scores(query))
    assert np.array_equal(index.scores(query, postings=30), index.scores(["rare", "often"]))
    assert np.array_equal(index.scores(query, postings=1), index.scores(["rare"]))
    assert np.array_equal(index.scores(["common"], postings=1), index.scores(["common"]))
    assert np.array_equal(index.scores(["common", "unknown"], postings=1), index.scores(["common"]))


def test_empty_and_unknown() -> None:
    index = BM25()
    assert index.scores(["dog"]).shape == (0,)
    index.add([])
    assert np.all(index.scores(["zebra"]) == 0)


def test_analyzer_stems_and_drops_stop_words() -> None:
    analyzer = Analyzer()
    assert analyzer.terms("Priya prefers the aisle seats") == ["priya", "prefer", "aisl", "seat"]
    assert analyzer.query("What are her preferences?") == ["prefer"]
    assert analyzer.query("what is it") == ["what", "is", "it"]
