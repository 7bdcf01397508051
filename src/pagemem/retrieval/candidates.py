"""Which notes a search looks at, when it need not look at every one.

Past the graph's threshold (`RetrievalConfig.ann_threshold`) the dense side scores
only the graph's candidates, so in a scope of facts (no neighbour lends a note its
score) a note that holds no query word and is not a candidate scores nothing and
cannot rank. A search then works out every feature for the notes with a query word
and the candidates only. When the query's words are common (in more than an eighth of
the scope, as in `pagemem bench`'s synthetic text), it keeps the notes of the best
BM25 instead and checks that no note left out could have ranked (`Ranking.holds_past`
in ranker.py); if one could, it ranks every note. Either way the ranking is the one a
pass over every note gives (tests/retrieval/test_ranker.py).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pagemem.retrieval.bm25 import FloatArray, Weighted
from pagemem.retrieval.config import RetrievalConfig
from pagemem.retrieval.fusion import top
from pagemem.retrieval.scope_index import ScopeIndex

__all__ = [
    "KEPT",
    "POSTINGS_SHARE",
    "Near",
    "best",
    "best_lexical",
    "gather",
    "kth",
    "may_narrow",
]

# A search looks at the notes with a query word while its words' postings are at most
# this share of the scope (1/8); past it, BM25 of every note is read in one pass.
POSTINGS_SHARE = 8
# ...and then keeps the notes of the best BM25, this many.
KEPT = 4_096


def may_narrow(index: ScopeIndex, config: RetrievalConfig) -> bool:
    """Whether a search may look at some notes only: the graph picks the dense
    candidates, no neighbour lends a note its score (a scope of facts), and the fusion
    scales by the scored notes only (not by rank)."""
    return index.vectors.approximate and not index.linked and config.rrf <= 0 and config.zscore <= 0


def best_lexical(scores: FloatArray) -> tuple[Weighted, float | None]:
    """The notes of the `KEPT` best BM25 among `scores` (every note's) with their
    BM25, and the BM25 no note left out exceeds (None: none was left out)."""
    picked = np.asarray(top(scores, KEPT), dtype=np.int64)
    picked = np.sort(picked[scores[picked] > 0])
    if len(picked) < KEPT:
        return (picked, scores[picked]), None
    return (picked, scores[picked]), float(scores[picked].min())


# the graph's candidates (`VectorSet.nearest`): numbers, cosines (centred if asked), plain
Near = tuple[npt.NDArray[np.int64], FloatArray, FloatArray]


def gather(
    index: ScopeIndex, found: Weighted, near: Near
) -> tuple[npt.NDArray[np.int64], FloatArray, FloatArray, FloatArray, npt.NDArray[np.bool_]]:
    """The notes with a query word (`found`, with their BM25) and the graph's candidates
    (`near`): their numbers (ascending), BM25, cosines (centred if asked), plain
    cosines, and which of them were scored by meaning."""
    found_docs, found_scores = found
    near_docs, near_raw, near_plain = near
    live = index.bm25.alive()[near_docs]
    near_docs, near_raw, near_plain = near_docs[live], near_raw[live], near_plain[live]
    # the graph's candidates without a query word go in among the others, in order
    where = np.searchsorted(found_docs, near_docs)
    present = np.zeros(len(near_docs), dtype=bool)
    inside = where < len(found_docs)
    present[inside] = found_docs[where[inside]] == near_docs[inside]
    at = np.insert(found_docs, where[~present], near_docs[~present])
    lexical = np.insert(found_scores, where[~present], 0.0)
    placed = np.searchsorted(at, near_docs)
    raw, plain = np.zeros(len(at)), np.zeros(len(at))
    raw[placed], plain[placed] = near_raw, near_plain
    scored = np.zeros(len(at), dtype=bool)
    scored[placed] = True
    return at, lexical, raw, plain, scored


def best(ranked: FloatArray, k: int, numbers: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The positions of the k best finite scores, best first; of equal scores, the note
    written first first (by its number: the same order whichever notes were looked at,
    and after a hold and release, a restart or an import)."""
    depth = min(len(ranked), k)
    if depth <= 0:
        return np.zeros(0, dtype=np.int64)
    # finite only (fewer than k may compete); every tie of the k-th too
    head = np.flatnonzero(ranked > -np.inf)
    if len(head) > depth:
        head = head[ranked[head] >= _largest(ranked[head], depth)]
    order: npt.NDArray[np.int64] = head[np.lexsort((numbers[head], -ranked[head]))][:depth]
    return order


def kth(values: FloatArray, k: int) -> float:
    """The k-th largest of `values` (-inf when there are fewer)."""
    finite = values[values > -np.inf]
    if k < 1 or len(finite) < k:
        return -np.inf
    return _largest(finite, k)


def _largest(values: FloatArray, k: int) -> float:
    """The k-th largest of `values` (at least k of them). numpy's selection is 10-17x
    slower with its k-th place near the end of an array of many equal values (12.5
    against 0.76 ms over 100,000 scores, most of them one value): the negated values
    are partitioned near their start instead."""
    return float(-np.partition(-values, k - 1)[k - 1])
