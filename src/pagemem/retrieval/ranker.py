"""Search inside one scope: BM25 and meaning fused, then neighbouring notes, a named
speaker, the time a question names, and origin trust (docs/retrieval.md).

Ranking reads only the scope's own notes, from the index `IndexKeeper` keeps current.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import numpy as np
import numpy.typing as npt

from pagemem.models import Scope
from pagemem.retrieval import features
from pagemem.retrieval.bm25 import FloatArray
from pagemem.retrieval.config import Ranked, RetrievalConfig
from pagemem.retrieval.embed import Vectors
from pagemem.retrieval.fusion import by_max, min_max, recency, reciprocal_rank, top, zscore
from pagemem.retrieval.keeper import IndexKeeper
from pagemem.retrieval.scope_index import ScopeIndex
from pagemem.retrieval.timewindow import asks_when
from pagemem.store.base import Collection

__all__ = ["Ranked", "Ranker", "RetrievalConfig"]


class Ranker(IndexKeeper):
    """Ranks a scope's archival notes, or its evicted messages, for a free-text query."""

    def similar(
        self, scope: Scope, text: str, k: int, *, now: datetime | None = None
    ) -> list[tuple[str, float | None]]:
        """The current notes closest to a note about to be written, best first by cosine
        to it (None without vectors): those sharing the most words and, with vectors,
        the nearest by meaning ("I moved to Austin" shares no word with "I live in
        Seattle"). The note's embedding is kept for its own indexing.
        """
        return self.similar_many(scope, [text], k, now=now)[0]

    def similar_many(
        self,
        scope: Scope,
        texts: Sequence[str],
        k: int,
        *,
        now: datetime | None = None,
        meanwhile: Callable[[list[str]], None] | None = None,
    ) -> list[list[tuple[str, float | None]]]:
        """`similar` for many notes at once (a batch): one look at the index, one
        product for all their neighbours by meaning. `meanwhile` is given the ids found
        by their words while the notes are still being embedded (`embed_soon`): work on
        those costs the write nothing."""
        with self._lock:
            index = self._loaded(scope, "records")
            if index is None:
                for text in texts:  # InStore reads the vectors from those kept
                    self._document_vector(text)
                return [self._db().similar(scope, text, k, now) for text in texts]
            if not index.bm25.live:
                return [[] for _ in texts]
            mask = index.bm25.alive()
            valid = features.valid(index, now, None)
            if valid is not None:
                mask = mask & valid
            picks: list[list[int]] = []
            budget = int(self.config.similar_postings)
            for text in texts:
                picked: list[int] = []
                terms = self.analyzer.query(text)
                if terms:
                    lexical = index.bm25.scores(terms, postings=budget)
                    sharing = np.flatnonzero(lexical > 0)  # usually few: no sort of the scope
                    sharing = sharing[mask[sharing]]
                    picked = [int(sharing[i]) for i in top(lexical[sharing], 2 * k)]
                picks.append(picked)
            lexical_ids = [index.ids[d] for picked in picks for d in picked]
        if meanwhile is not None and lexical_ids:
            meanwhile(lexical_ids)
        # the words first, then the meaning: a note embedded ahead (`embed_soon`) finishes
        # on the other core while the lines above run; the lock is not held meanwhile
        vectors = [self._document_vector(text) for text in texts]
        with self._lock:
            known = [v for v in vectors if v is not None]
            if len(known) == len(texts) and known and len(index.vectors):
                if len(mask) < len(index.ids):  # notes another thread added meanwhile
                    mask = np.concatenate([mask, np.zeros(len(index.ids) - len(mask), bool)])
                # the nearest by meaning among the latest notes (those sharing words are
                # found above wherever they are; the read side compares what a search finds)
                window = int(self.config.similar_window)
                near = index.vectors.nearest_recent(np.stack(known), k, window=window, mask=mask)
                for picked, found in zip(picks, near, strict=True):
                    picked += [d for d, _ in found if d not in picked]
            chosen = [
                ([index.ids[d] for d in picked], index.vectors.rows(picked) if picked else None)
                for picked in picks
            ]
        return [
            _by_cosine(ids, rows, vector, k)
            for (ids, rows), vector in zip(chosen, vectors, strict=True)
        ]

    def _document_vector(self, text: str) -> Vectors | None:
        """The note's embedding, from those embedded ahead (`embed_ahead`) or now; kept
        until the note is indexed."""
        if self.embedder is None:
            return None
        self._settle(text)
        vector = self._recent.get(text)
        if vector is None:
            vector = self.embedder.embed([text], role="document")[0]
            self._keep(text, vector)
        return vector

    def embed_ahead(self, texts: Sequence[str]) -> list[Vectors | None]:
        """Embed notes about to be written in one batch (for `insert_many`)."""
        if self.embedder is None or not texts:
            return [None] * len(texts)
        missing = list(dict.fromkeys(t for t in texts if t not in self._recent))
        if missing:
            if len(self._recent) + len(missing) > 4096:
                self._recent.clear()
            for start in range(0, len(missing), 256):
                chunk = missing[start : start + 256]
                vectors = self.embedder.embed(chunk, role="document")
                self._recent.update(zip(chunk, vectors, strict=True))
        return [self._recent.get(t) for t in texts]

    def cosines(self, scope: Scope, ids: Sequence[str]) -> Callable[[str, str], float | None]:
        """The cosine of two of these notes' stored vectors (None when one is unknown)."""
        with self._lock:
            # a loaded index, with this process's latest writes (not loaded for this)
            index = self._loaded(scope, "records") if (scope, "records") in self._indexes else None
            if index is None or not len(index.vectors):
                return lambda a, b: None
            docs = {i: index.position[i] for i in dict.fromkeys(ids) if i in index.position}
            rows = index.vectors.rows(list(docs.values())) if docs else None
        if rows is None:
            return lambda a, b: None
        norms = np.linalg.norm(rows, axis=1)
        unit = rows / np.maximum(norms, 1e-12)[:, None]
        matrix = unit @ unit.T
        where = {record_id: n for n, record_id in enumerate(docs) if norms[n] > 0}

        def cosine(a: str, b: str) -> float | None:
            x, y = where.get(a), where.get(b)
            return None if x is None or y is None else float(matrix[x, y])

        return cosine

    # ranking

    def search(
        self,
        scope: Scope,
        query: str,
        k: int,
        *,
        collection: Collection = "records",
        allowed: set[str] | None = None,
        now: datetime | None = None,
        as_of: datetime | None = None,
        retired: bool = False,
    ) -> list[Ranked]:
        """The k best items for the query; `allowed` restricts them to these ids.

        Archival notes are facts with a valid time: by default only those true `now`
        (and not retired) compete; with `as_of`, those that were true then; with
        `retired`, notes a later one closed or restated compete too (the caller shows
        what closed them instead).
        """
        terms = self.analyzer.query(query)
        with self._lock:
            index = self._loaded(scope, collection)
            if index is None:
                return self._db().search(scope, query, k, collection, allowed, now, as_of, retired)
            if not index.bm25.live or (not terms and self.embedder is None):
                return []
            config = self.config
            prev, nxt = features.adjacency(index, config.neighbour_gap_seconds)
            # With no neighbours anywhere (a scope of facts) a note's passage is the note
            # itself, and sharing scores moves nothing: the same numbers, without the
            # passes over the scope (14 ms a search at a million notes).
            linked = index.linked
            centre = config.centre > 0
            query_vector = None
            if self.embedder is not None and len(index.vectors):
                query_vector = self.embedder.embed([query], role="query")[0]
            # Every array below is of the notes `at` names. Past the graph's threshold,
            # in a scope of facts, those are the notes with a query word and the graph's
            # candidates (a few thousand of a million): the same ranking without a pass
            # over the scope; else every note.
            at: features.At = slice(None)
            lexical_found = None
            if query_vector is not None and _candidates_only(index, config):
                lexical_found = index.bm25.found(terms, limit=int(len(index.ids) / _POSTINGS_SHARE))
            if lexical_found is not None and query_vector is not None:
                at, lexical, raw, plain, scored = _candidates(
                    index, lexical_found, query_vector, centre
                )
            else:
                lexical = index.bm25.scores(terms)
            if config.context_weight > 0:  # BM25 of (previous, note, next) as one passage
                context = index.bm25.context_scores(terms, prev, nxt) if linked else lexical
                lexical = lexical + config.context_weight * context
            alive = index.bm25.alive()[at]
            found = alive & (lexical > 0)
            share = config.neighbour_weight if linked else 0.0
            early = config.neighbour_lexical > 0
            scores = by_max(
                features.with_neighbours(index, lexical, prev, nxt, share) if early else lexical
            )
            ids = index.ids  # read under the lock only: a write may append to it
            docs: npt.NDArray[np.int64] | None = None if isinstance(at, slice) else at
            eligible = (
                features.valid(index, now, as_of, retired, at) if collection == "records" else None
            )
            if allowed is not None:
                chosen = np.asarray(
                    [ids[d] in allowed for d in (range(len(ids)) if docs is None else docs)],
                    dtype=bool,
                )
                eligible = chosen if eligible is None else eligible & chosen
            candidates = found
            if query_vector is not None:
                if docs is None:
                    raw, scored, plain = index.vectors.scores(query_vector, centre=centre)
                    scored &= alive
                fused, candidates = self._fuse(index, at, scores, found, raw, scored, plain)
                # learn only from notes the search may return, as far as their origin
                # is trusted
                pool = candidates if eligible is None else candidates & eligible
                weights = index.weights.view()[at]
                moved = features.feedback(
                    index,
                    query_vector,
                    fused * weights,
                    pool,
                    int(config.feedback_notes),
                    config.feedback_weight,
                    at,
                )
                if moved is not None:  # the first round's best notes, scored again
                    size = int(config.feedback_pool)
                    best = np.where(scored, fused, -np.inf)
                    again = (
                        np.flatnonzero(scored)
                        if scored.sum() <= size
                        else np.asarray(top(best, size), dtype=np.int64)
                    )
                    raw, plain = raw.copy(), plain.copy()
                    raw[again], plain[again] = index.vectors.scores_of(
                        moved, again if docs is None else docs[again], centre=centre
                    )
                    fused, candidates = self._fuse(index, at, scores, found, raw, scored, plain)
                scores = fused
            if not early:
                scores = features.with_neighbours(index, scores, prev, nxt, share)
                if share > 0:
                    candidates = candidates | features.beside(index, candidates, prev, nxt)
            speaker = features.named_speaker(index, query)
            named: npt.NDArray[np.bool_] | None = None
            if speaker:
                named = index.speaker_codes.view()[at] == index.speaker_names[speaker]
                scores = scores * np.where(named, 1.0 + config.speaker_boost, 1.0)
            when = None
            if config.time_boost > 0:
                reference = as_of or now or datetime.now(UTC)
                when = features.timely(
                    index, query, reference, config.time_slack_days, self.analyzer
                )
            timely = None if when is None else when[1][at]
            if timely is not None:
                scores = scores * np.where(timely, 1.0 + config.time_boost, 1.0)
            dated = None
            if config.when_boost > 0 and asks_when(query):
                dated = index.dated.view()[at]
                scores = scores * np.where(dated, 1.0 + config.when_boost, 1.0)
            scores = scores * index.weights.view()[at] * self._recency(index, at, now)
            if eligible is not None:
                candidates = candidates & eligible
            order = _best(np.where(candidates, scores, -np.inf), k, index.numbers.view()[at])
            winners = [
                (int(i), ids[int(i) if docs is None else int(docs[i])])
                for i in order
                if candidates[i]
            ]
        results = []
        for i, item in winners:
            explain = f"bm25={lexical[i]:.3f} fused={scores[i]:.3f}"
            if named is not None and named[i]:
                explain += f" speaker={speaker}"
            if when is not None and timely is not None and timely[i]:
                explain += f" time={when[0].phrase!r}"
            if dated is not None and dated[i]:
                explain += " says-when"
            results.append(Ranked(item, float(scores[i]), explain))
        return results

    def _fuse(
        self,
        index: ScopeIndex,
        at: features.At,
        lexical: FloatArray,
        found: npt.NDArray[np.bool_],
        raw: FloatArray,
        scored: npt.NDArray[np.bool_],
        plain: FloatArray,
    ) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
        """BM25 (scaled by its best) fused with the notes' cosines to the query (`raw`,
        centred, of the `scored` notes), and the notes that compete: those with a query
        word, and those whose `plain` cosine is close enough in meaning."""
        config = self.config
        weight = config.lexical_weight
        if config.rrf > 0:  # reciprocal-rank fusion, for comparison
            lexical_part = reciprocal_rank(lexical, found, config.rrf)
            dense_part = reciprocal_rank(raw, scored, config.rrf)
            fused = weight * lexical_part + (1.0 - weight) * dense_part
        else:
            dense = (zscore if config.zscore > 0 else min_max)(raw, scored)
            fused = (weight * lexical + (1.0 - weight) * dense) * index.bm25.alive()[at]
        # a note with no query word competes only when close in meaning; closer still
        # when no note has a query word (the query may mean nothing here)
        floor = config.min_cosine if found.any() else config.alone_cosine
        return fused, found | (scored & (plain >= floor))

    def _recency(
        self, index: ScopeIndex, at: features.At, now: datetime | None
    ) -> FloatArray | float:
        times = index.times.view()
        # without `now`, ages count from the newest note of all, not of `at`
        newest = float(times.max()) if now is None and len(times) else None
        return recency(
            times[at],
            now,
            self.config.recency_half_life_days,
            self.config.recency_weight,
            newest,
        )


# A search looks at its candidates alone while its words' postings are at most this
# share of the scope (1/3); past it, one pass over every note is cheaper.
_POSTINGS_SHARE = 3


def _best(ranked: FloatArray, k: int, numbers: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The positions of the k best finite scores, best first; of equal scores, the note
    written first first (by its number: the same order whichever notes were looked at,
    and after a hold and release, a restart or an import)."""
    depth = min(int(np.isfinite(ranked).sum()), k)
    if depth <= 0:
        return np.zeros(0, dtype=np.int64)
    kth = np.partition(ranked, len(ranked) - depth)[len(ranked) - depth]
    head = np.flatnonzero(ranked >= kth)  # every tie of the k-th too
    order: npt.NDArray[np.int64] = head[np.lexsort((numbers[head], -ranked[head]))][:depth]
    return order


def _candidates(
    index: ScopeIndex, found: tuple[npt.NDArray[np.int64], FloatArray], query: Vectors, centre: bool
) -> tuple[npt.NDArray[np.int64], FloatArray, FloatArray, FloatArray, npt.NDArray[np.bool_]]:
    """The notes with a query word (`found`, with their BM25) and the graph's candidates
    for the query vector: their numbers (ascending), BM25, cosines (centred if asked),
    plain cosines, and which of them were scored by meaning."""
    found_docs, found_scores = found
    near_docs, near_raw, near_plain = index.vectors.nearest(query, centre=centre)
    live = index.bm25.alive()[near_docs]
    near_docs, near_raw, near_plain = near_docs[live], near_raw[live], near_plain[live]
    # the graph's candidates without a query word go in among the others, in order
    where = np.searchsorted(found_docs, near_docs)
    present = np.zeros(len(near_docs), dtype=bool)
    inside = where < len(found_docs)
    present[inside] = found_docs[where[inside]] == near_docs[inside]
    at = np.insert(found_docs, where[~present], near_docs[~present])
    lexical = np.insert(found_scores, where[~present], 0.0)
    near = np.searchsorted(at, near_docs)
    raw, plain = np.zeros(len(at)), np.zeros(len(at))
    raw[near], plain[near] = near_raw, near_plain
    scored = np.zeros(len(at), dtype=bool)
    scored[near] = True
    return at, lexical, raw, plain, scored


def _candidates_only(index: ScopeIndex, config: RetrievalConfig) -> bool:
    """Whether a search may look at its candidates alone: the graph picks the dense
    ones, no neighbour lends a note its score (a scope of facts), and the fusion scales
    by the scored notes only (not by rank)."""
    return index.vectors.approximate and not index.linked and config.rrf <= 0 and config.zscore <= 0


def _by_cosine(
    ids: list[str], rows: Vectors | None, vector: Vectors | None, k: int
) -> list[tuple[str, float | None]]:
    """The k of `ids` closest to `vector` (those without a vector last, cosine None)."""
    if not ids:
        return []
    if vector is None or rows is None or not len(rows):
        unranked: list[tuple[str, float | None]] = [(i, None) for i in ids[:k]]
        return unranked
    norms = np.linalg.norm(rows, axis=1)
    cosines = (rows @ vector) / np.maximum(norms, 1e-12) / max(float(np.linalg.norm(vector)), 1e-12)
    found = [
        (item, float(c) if n > 0 else None) for item, c, n in zip(ids, cosines, norms, strict=True)
    ]
    found.sort(key=lambda pair: -(pair[1] if pair[1] is not None else -1.0))
    return found[:k]
