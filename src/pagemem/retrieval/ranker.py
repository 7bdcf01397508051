"""Search inside one scope: BM25 and meaning fused, then neighbouring notes, a named
speaker, the time a question names, and origin trust (docs/retrieval.md).

Ranking reads only the scope's own notes, from the index `IndexKeeper` keeps current.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property, lru_cache

import numpy as np
import numpy.typing as npt

from pagemem.models import Scope
from pagemem.retrieval import candidates, features
from pagemem.retrieval.bm25 import FloatArray
from pagemem.retrieval.config import Ranked, RetrievalConfig
from pagemem.retrieval.embed import Vectors
from pagemem.retrieval.fusion import by_max, min_max, recency, reciprocal_rank, top, zscore
from pagemem.retrieval.keeper import IndexKeeper
from pagemem.retrieval.scope_index import ScopeIndex
from pagemem.retrieval.timewindow import Window, asks_when
from pagemem.store.base import Collection

__all__ = ["Ranked", "Ranker", "RetrievalConfig"]

QUERIES_KEPT = 256  # the latest distinct queries whose vectors a ranker keeps


@dataclass
class _Ranking:
    """One ranking's outcome: the positions of its winners among the notes it looked
    at (`docs`; None: every note), their scores, and what explains them."""

    docs: npt.NDArray[np.int64] | None
    lexical: FloatArray
    learned_from: float | None  # the lowest first-round score feedback learned from
    order: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    scores: FloatArray = field(default_factory=lambda: np.zeros(0))
    kth: float = -np.inf  # the k-th best final score (-inf: fewer competed)
    high: float = 0.0  # the best BM25
    trust: float = 1.0  # the highest trust weight of any note
    boost: float = 1.0  # the most the query's boosts multiply a score by
    speaker: str = ""
    named: npt.NDArray[np.bool_] | None = None
    when: tuple[Window, npt.NDArray[np.bool_]] | None = None
    timely: npt.NDArray[np.bool_] | None = None
    dated: npt.NDArray[np.bool_] | None = None

    def holds_past(self, floor: float, config: RetrievalConfig) -> bool:
        """Whether no note left out, none of whose BM25 exceeds `floor` and none scored
        by meaning, could have ranked or been learned from: the best such a note could
        score (its BM25 share of the fusion, the highest trust, every boost, no recency
        loss) is below the k-th winner and below the feedback round's last pick."""
        if self.high <= 0:
            return False
        passage = floor + config.context_weight * floor if config.context_weight > 0 else floor
        fused = config.lexical_weight * passage / self.high
        first = fused * self.trust
        if self.learned_from is not None and not self.learned_from > first:
            return False
        recency = max(1.0, 1.0 - config.recency_weight)  # 1 unless the weight is negative
        return self.kth > first * self.boost * recency

    def explain(self, i: int) -> str:
        text = f"bm25={self.lexical[i]:.3f} fused={self.scores[i]:.3f}"
        if self.named is not None and self.named[i]:
            text += f" speaker={self.speaker}"
        if self.when is not None and self.timely is not None and self.timely[i]:
            text += f" time={self.when[0].phrase!r}"
        if self.dated is not None and self.dated[i]:
            text += " says-when"
        return text


class Ranker(IndexKeeper):
    """Ranks a scope's archival notes, or its evicted messages, for a free-text query."""

    @cached_property
    def _query_vector(self) -> Callable[[str], Vectors]:
        """A query's vector, kept for the latest QUERIES_KEPT distinct queries: paging
        through a search's results, or asking it again with another filter, costs no
        second embedding (one text at a time, the model gives a text the same vector)."""
        embedder = self.embedder
        assert embedder is not None

        @lru_cache(maxsize=QUERIES_KEPT)
        def vector(query: str) -> Vectors:
            made: Vectors = embedder.embed([query], role="query")[0]
            made.setflags(write=False)  # shared by every search that asks it again
            return made

        return vector

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
            # In a large scope which notes may be candidates is worked out for those looked
            # at only: the notes sharing a word (from the postings) and the latest
            # `similar_window` (a pass over the scope's validity and a scope-sized BM25
            # array were 2-3 ms a write at a million notes). In a small one a pass is
            # cheaper than sorting postings.
            budget = int(self.config.similar_postings)
            n = len(index.ids)
            large = n >= candidates.POSTINGS_SHARE * budget
            start = max(0, n - int(self.config.similar_window))
            if large:
                mask = np.zeros(n, dtype=bool)
                mask[start:] = _current(index, now, slice(start, n))
            else:
                mask = _current(index, now, slice(None))
            picks: list[list[int]] = []
            for text in texts:
                picked: list[int] = []
                terms = self.analyzer.query(text)
                if terms:
                    if large:
                        sharing, lexical = index.bm25.found(terms, postings=budget)
                        keep = _current(index, now, sharing)
                    else:
                        every = index.bm25.scores(terms, postings=budget)
                        sharing = np.flatnonzero(every > 0)  # usually few: no sort of the scope
                        lexical, keep = every[sharing], mask[sharing]
                    sharing, lexical = sharing[keep], lexical[keep]
                    picked = [int(sharing[i]) for i in top(lexical, 2 * k)]
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

    def answer_words(
        self, scope: Scope, query: str, notes: Mapping[str, str]
    ) -> dict[str, frozenset[str]]:
        """For each of these notes (id -> text), the words it shares with others of them
        that no note outside them says and the question does not say: what they answer
        with ("penicillin" in three letters about other things too; a greeting every
        letter has is said outside them). Empty for a scope whose index is not loaded."""
        asked = set(self.analyzer.query(query))
        held = {i: frozenset(self.analyzer.terms(text)) - asked for i, text in notes.items()}
        counts = Counter(word for words in held.values() for word in words)
        shared = [word for word, n in counts.items() if n >= 2]
        with self._lock:
            index = self._loaded(scope, "records") if (scope, "records") in self._indexes else None
            if index is None:
                return {i: frozenset() for i in notes}
            only_here = frozenset(w for w in shared if index.bm25.held_by(w, counts[w]))
        return {i: words & only_here for i, words in held.items()}

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
        # The query is embedded before the lock is taken: searches in other threads, and
        # writes, go on meanwhile (unless the scope is known to hold nothing yet).
        query_vector = None
        key = (scope, collection)
        known = self._indexes.get(key)
        empty = known is not None and not known.bm25.live and not self._pending.get(key)
        if self.embedder is not None and key not in self._in_store and not empty:
            query_vector = self._query_vector(query)
        with self._lock:
            index = self._loaded(scope, collection)
            if index is None:
                return self._db().search(scope, query, k, collection, allowed, now, as_of, retired)
            if not index.bm25.live or (not terms and self.embedder is None):
                return []
            config = self.config
            prev, nxt = features.adjacency(index, config.neighbour_gap_seconds)
            centre = config.centre > 0
            if self.embedder is None or not len(index.vectors):
                query_vector = None
            elif query_vector is None:
                query_vector = self._query_vector(query)
            ids = index.ids  # read under the lock only: a write may append to it
            every = None  # BM25 of every note, once read
            plans: list[str] = ["every"]
            found = None
            narrow = query_vector is not None and candidates.may_narrow(index, config)
            with self._graph_search(index, query_vector if narrow else None, centre) as near:
                if narrow:
                    if index.bm25.postings(terms) <= len(ids) / candidates.POSTINGS_SHARE:
                        found, plans = index.bm25.found(terms), ["found"]
                    else:
                        plans = ["best", "every"]
                for plan in plans:
                    # Every array of a ranking is of the notes `at` names: every note, or
                    # (past the graph's threshold, in a scope of facts) the notes with a
                    # query word and the graph's candidates, or those of the best BM25 and
                    # the graph's (kept only when no note left out could have ranked).
                    at: features.At = slice(None)
                    dense: tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]] | None = None
                    floor = None  # the BM25 no note left out exceeds
                    if plan == "every":
                        lexical = every if every is not None else index.bm25.scores(terms)
                    else:
                        assert query_vector is not None
                        if plan == "best":
                            every = index.bm25.scores(terms)
                            found, floor = candidates.best_lexical(every)
                        assert found is not None
                        assert near is not None
                        at, lexical, raw, plain, scored = candidates.gather(
                            index, found, near.result()
                        )
                        if every is not None:  # the graph's candidates left out: their BM25
                            lexical = every[at]
                        dense = (raw, plain, scored)
                    ranking = self._rank(
                        index,
                        query,
                        terms,
                        query_vector,
                        k,
                        at,
                        lexical,
                        dense,
                        (prev, nxt),
                        collection=collection,
                        allowed=allowed,
                        now=now,
                        as_of=as_of,
                        retired=retired,
                    )
                    if floor is None or ranking.holds_past(floor, config):
                        self.narrowed += plan != "every"
                        break
            docs = ranking.docs
            winners = [
                (int(i), ids[int(i) if docs is None else int(docs[i])]) for i in ranking.order
            ]
        results = []
        for i, item in winners:
            results.append(Ranked(item, float(ranking.scores[i]), ranking.explain(i)))
        return results

    @contextmanager
    def _graph_search(
        self, index: ScopeIndex, query: Vectors | None, centre: bool
    ) -> Iterator[Future[candidates.Near] | None]:
        """The graph's candidates for `query` (None: no narrowed search), found on
        another thread while the caller reads the lexical side: the graph's search lets
        go of the interpreter. The worker reads the index, so it is done before the
        caller (who holds the index's lock) leaves."""
        if query is None:
            yield None
            return
        near = self._graph.submit(lambda: index.vectors.nearest(query, centre=centre))
        try:
            yield near
        finally:
            wait([near])

    def _rank(
        self,
        index: ScopeIndex,
        query: str,
        terms: list[str],
        query_vector: Vectors | None,
        k: int,
        at: features.At,
        lexical: FloatArray,
        dense: tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]] | None,
        neighbours: tuple[features.Neighbours, features.Neighbours],
        *,
        collection: Collection,
        allowed: set[str] | None,
        now: datetime | None,
        as_of: datetime | None,
        retired: bool,
    ) -> _Ranking:
        """One ranking of the notes `at` names, from their BM25 and (`dense`: raw and plain
        cosines, which were scored) the graph's candidates' cosines, else every note's."""
        config = self.config
        prev, nxt = neighbours
        # With no neighbours anywhere (a scope of facts) a note's passage is the note
        # itself, and sharing scores moves nothing: the same numbers, without the
        # passes over the scope (14 ms a search at a million notes).
        linked = index.linked
        centre = config.centre > 0
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
        ids = index.ids
        docs: npt.NDArray[np.int64] | None = None if isinstance(at, slice) else at
        weights = index.weights.view()[at]  # the trust of each note's origin
        eligible = (
            features.valid(index, now, as_of, retired, at) if collection == "records" else None
        )
        if allowed is not None:
            chosen = np.asarray(
                [ids[d] in allowed for d in (range(len(ids)) if docs is None else docs)],
                dtype=bool,
            )
            eligible = chosen if eligible is None else eligible & chosen
        competing = found
        learned_from = None  # the lowest first-round score feedback learned from
        if query_vector is not None:
            if dense is None:
                raw, scored, plain = index.vectors.scores(query_vector, centre=centre)
                scored &= alive
            else:
                raw, plain, scored = dense
            fused, competing = self._fuse(index, at, scores, found, raw, scored, plain)
            # learn only from notes the search may return, as far as their origin
            # is trusted
            pool = competing if eligible is None else competing & eligible
            first = fused * weights
            notes = int(config.feedback_notes)
            moved = features.feedback(
                index, query_vector, first, pool, notes, config.feedback_weight, at
            )
            if moved is not None:  # the first round's best notes, scored again
                if docs is not None:  # for `holds_past`
                    learned_from = candidates.kth(first[pool], notes)
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
                fused, competing = self._fuse(index, at, scores, found, raw, scored, plain)
            scores = fused
        if not early:
            scores = features.with_neighbours(index, scores, prev, nxt, share)
            if share > 0:
                competing = competing | features.beside(index, competing, prev, nxt)
        ranking = _Ranking(docs=docs, lexical=lexical, learned_from=learned_from)
        boost = 1.0  # the most the boosts below multiply a score by
        speaker = features.named_speaker(index, query)
        if speaker:
            ranking.speaker = speaker
            ranking.named = index.speaker_codes.view()[at] == index.speaker_names[speaker]
            scores = scores * np.where(ranking.named, 1.0 + config.speaker_boost, 1.0)
            boost *= max(1.0, 1.0 + config.speaker_boost)
        if config.time_boost > 0:
            reference = as_of or now or datetime.now(UTC)
            ranking.when = features.timely(
                index, query, reference, config.time_slack_days, self.analyzer
            )
        if ranking.when is not None:
            ranking.timely = ranking.when[1][at]
            scores = scores * np.where(ranking.timely, 1.0 + config.time_boost, 1.0)
            boost *= max(1.0, 1.0 + config.time_boost)
        if config.when_boost > 0 and asks_when(query):
            ranking.dated = index.dated.view()[at]
            scores = scores * np.where(ranking.dated, 1.0 + config.when_boost, 1.0)
            boost *= max(1.0, 1.0 + config.when_boost)
        scores = scores * weights * self._recency(index, at, now)
        if eligible is not None:
            competing = competing & eligible
        ranked = np.where(competing, scores, -np.inf)
        ranking.order = candidates.best(ranked, k, index.numbers.view()[at])
        ranking.scores = scores
        if docs is not None:  # what `holds_past` weighs
            ranking.kth = candidates.kth(ranked, k)
            ranking.high = float(lexical.max(initial=0.0))
            ranking.trust = float(index.weights.view().max(initial=1.0))
            ranking.boost = boost
        return ranking

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


def _current(index: ScopeIndex, now: datetime | None, at: features.At) -> npt.NDArray[np.bool_]:
    """Which of the notes `at` names are live and true `now`."""
    alive = index.bm25.alive()[at]
    valid = features.valid(index, now, None, at=at)
    return alive if valid is None else alive & valid


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
