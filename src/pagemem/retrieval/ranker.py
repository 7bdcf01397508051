"""Search inside one scope: BM25, neighbouring notes, a named speaker, origin trust.

Each scope gets an in-memory index built from the store on first use and kept in
step with this process's writes. A revision counter in the store tells it when
another process wrote; it then applies the store's change feed (the item each
revision step changed), so a foreign write costs work in proportion to what it
changed. Only when the feed cannot tell (a forget, a restore, a reader too far
behind) is the index rebuilt. Ranking reads only the scope's own notes.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import cast

import numpy as np
import numpy.typing as npt

from pagemem.guard.policy import TrustPolicy
from pagemem.models import Scope
from pagemem.retrieval import features
from pagemem.retrieval.analysis import Analyzer
from pagemem.retrieval.bm25 import FloatArray
from pagemem.retrieval.config import Ranked, RetrievalConfig
from pagemem.retrieval.embed import Embedder, Vectors
from pagemem.retrieval.fusion import by_max, min_max, recency, reciprocal_rank, top, zscore
from pagemem.retrieval.in_store import InStore
from pagemem.retrieval.scope_index import ScopeIndex
from pagemem.retrieval.snapshot import Snapshots, Stamp, trust_hash
from pagemem.retrieval.timewindow import asks_when
from pagemem.store.base import (
    Collection,
    IndexCache,
    IndexRow,
    RecordFilter,
    Store,
    StoreSearch,
)

__all__ = ["Ranked", "Ranker", "RetrievalConfig"]

_PAGE = 10_000
_log = logging.getLogger(__name__)


class _TooLargeError(Exception):
    """The scope is past the store-search threshold: it is searched in the store."""


class Ranker:
    """Ranks a scope's archival notes, or its evicted messages, for a free-text query."""

    def __init__(
        self,
        store: Store,
        config: RetrievalConfig | None = None,
        embedder: Embedder | None = None,
        trust: TrustPolicy | None = None,
    ) -> None:
        self.store = store
        self.config = config or RetrievalConfig()
        self.trust = trust or TrustPolicy()
        self.embedder = embedder
        self.analyzer = Analyzer()
        self._indexes: dict[tuple[Scope, Collection], ScopeIndex] = {}
        self._lock = threading.RLock()
        self.embedded = 0  # notes this ranker has embedded (stored vectors are reused)
        self.rebuilds = 0  # whole-scope index builds (first loads included)
        self.caught_up = 0  # changes of other writers applied from the change feed
        self._recent: dict[str, Vectors] = {}  # documents embedded before they were stored
        self._in_store: set[tuple[Scope, Collection]] = set()  # scopes the store searches
        self.restored = 0  # indexes read from a snapshot instead of built
        self.saved = 0  # snapshots put in place
        self._snapshots: Snapshots | None = None
        folder = store.index_folder() if isinstance(store, IndexCache) else None
        if folder is not None and self.config.snapshot_min < float("inf"):
            self._snapshots = Snapshots(cast(IndexCache, store), folder)
        store.listen(self._changed)

    @property
    def embedder_id(self) -> str:
        return self.embedder.model_id if self.embedder else "no embedder"

    # keeping indexes current

    def _index(self, scope: Scope, collection: Collection) -> ScopeIndex:
        revision = self.store.revision(scope, collection)
        index = self._indexes.get((scope, collection))
        if index is not None and index.revision < revision:
            self._catch_up(scope, collection, index, revision)
        if index is None and (restored := self._restore(scope, collection, revision)):
            index = self._indexes[(scope, collection)] = restored
        if index is None or index.revision != revision:
            self.rebuilds += 1
            index = ScopeIndex(self.config, self.embedder.dim if self.embedder else 1, self.trust)
            model = self.embedder.model_id if self.embedder else None
            after = 0
            limit = self._store_limit()
            first = (scope, collection) not in self._indexes
            if first and limit < float("inf") and self._count(scope, collection) > limit:
                # known too large: a count, not reading a threshold's worth of rows first
                self._move_to_store(scope, collection)
                raise _TooLargeError
            while page := self.store.index_rows(
                scope, after=after, limit=_PAGE, collection=collection, model_id=model
            ):
                if len(index.ids) + len(page) > limit:
                    self._move_to_store(scope, collection)
                    raise _TooLargeError
                stored = {row.id: row.vector for row in page if row.vector is not None}
                vectors = self._vectors_for(scope, page, stored, collection)
                index.add_many(page, self.analyzer, vectors)
                after = page[-1].pk
            index.revision = revision
            self._indexes[(scope, collection)] = index
            self._save(scope, collection, index)
        return index

    # snapshots

    def _stamp(self, scope: Scope, collection: Collection) -> Stamp:
        assert self._snapshots is not None
        return Stamp(
            instance=self._snapshots.instance,
            scope=(scope.tenant, scope.user, scope.agent),
            collection=collection,
            model=self.embedder.model_id if self.embedder else None,
            dim=self.embedder.dim if self.embedder else 1,
            trust=trust_hash(self.trust),
        )

    def _restore(self, scope: Scope, collection: Collection, revision: int) -> ScopeIndex | None:
        """The scope's index from its snapshot, brought up to `revision`; None when there
        is no usable snapshot."""
        if self._snapshots is None:
            return None
        snapshot = self._snapshots.read(self._stamp(scope, collection), scope, collection)
        if snapshot is None or snapshot.revision > revision:
            return None
        dim = self.embedder.dim if self.embedder else 1
        try:
            index = ScopeIndex.restore(snapshot.arrays, self.config, dim, self.trust)
            if snapshot.graph is not None:
                index.vectors.adopt_graph(snapshot.graph, snapshot.graph_size)
        except (KeyError, ValueError) as error:
            _log.warning("ignoring the index snapshot of a scope: %s", error)
            return None
        index.revision = index.saved = snapshot.revision
        if snapshot.revision < revision:
            self._catch_up(scope, collection, index, revision)
            if index.revision != revision:  # the feed no longer reaches back that far
                self._reconcile(scope, collection, index, revision)
        self.restored += 1
        return index

    def _reconcile(
        self, scope: Scope, collection: Collection, index: ScopeIndex, revision: int
    ) -> None:
        """Bring an index up to the store by comparing ids: those gone are removed, those
        closed since are updated, new ones added. Costs one pass over the scope's ids."""
        assert isinstance(self.store, IndexCache)
        keys = self.store.index_keys(scope, collection)
        stored = {item for item, _, _ in keys}
        valid_to, expired = index.valid_to.view(), index.expired.view()
        changed = [
            item
            for item, until, closed in keys
            if (doc := index.position.get(item)) is None
            or valid_to[doc] != until
            or bool(expired[doc]) != closed
        ]
        gone = [item for item in index.position if item not in stored]
        rows: dict[str, IndexRow] = {}
        for start in range(0, len(changed), 500):
            rows.update(self._rows(scope, collection, changed[start : start + 500]))
        self._apply(scope, collection, index, [*gone, *changed], rows)
        index.revision = revision
        self.caught_up += len(gone) + len(changed)

    def _save(self, scope: Scope, collection: Collection, index: ScopeIndex) -> None:
        """Write the index's snapshot when it is large enough to be worth one and has
        changed enough since the last (each write costs a pass over the index, so the
        bigger the index, the more changes between two)."""
        if self._snapshots is None or index.bm25.live < self.config.snapshot_min:
            return
        behind = index.revision - index.saved
        graph = index.vectors.graph
        new_graph = graph is not None and not index.graph_saved
        if index.saved >= 0 and not new_graph and behind < max(1024, index.bm25.live // 10):
            return
        self._write_snapshot(scope, collection, index)

    def _write_snapshot(self, scope: Scope, collection: Collection, index: ScopeIndex) -> None:
        assert self._snapshots is not None
        graph = index.vectors.graph
        alive = index.bm25.alive()
        if graph is not None and not alive[: graph[1]].all():
            graph = None  # it covers removed notes: the next process builds its own
        try:
            kept = self._snapshots.write(
                self._stamp(scope, collection),
                scope,
                collection,
                index.export(),
                index.revision,
                graph,
                lambda: self.store.revision(scope, collection),
            )
        except OSError as error:  # a full or read-only disk costs the next process time
            _log.warning("could not write an index snapshot: %s", error)
            return
        if kept:
            index.saved = index.revision
            index.graph_saved = graph is not None
            self.saved += 1

    def close(self) -> None:
        """Write a snapshot of every index that changed since its last (for the next
        process to start from)."""
        if self._snapshots is None:
            return
        with self._lock:
            for (scope, collection), index in list(self._indexes.items()):
                if index.bm25.live >= self.config.snapshot_min and (
                    index.saved != index.revision
                    or (index.vectors.graph is not None and not index.graph_saved)
                ):
                    self._write_snapshot(scope, collection, index)

    def _drop_snapshots(self, scope: Scope, collection: Collection | None = None) -> None:
        if self._snapshots is not None:
            for each in ("records", "recall") if collection is None else (collection,):
                self._snapshots.drop(scope, each)

    def _catch_up(
        self, scope: Scope, collection: Collection, index: ScopeIndex, revision: int
    ) -> None:
        """Apply what other writers changed since the index was read, item by item from
        the store's change feed; leaves the index behind (so it is rebuilt) when the feed
        cannot tell."""
        changed = self.store.changes(scope, collection, index.revision, revision)
        if changed is None:
            return
        rows = self._rows(scope, collection, changed)
        self._apply(scope, collection, index, changed, rows)
        index.revision = revision
        self.caught_up += len(changed)

    def _rows(
        self, scope: Scope, collection: Collection, items: Sequence[str]
    ) -> dict[str, IndexRow]:
        """The index rows of these items that are still searchable, by id."""
        ids = list(dict.fromkeys(items))
        model = self.embedder.model_id if self.embedder else None
        return {
            row.id: row
            for row in self.store.index_rows(
                scope, after=0, limit=len(ids), collection=collection, model_id=model, ids=ids
            )
        }

    def _apply(
        self,
        scope: Scope,
        collection: Collection,
        index: ScopeIndex | None,
        items: Sequence[str],
        rows: dict[str, IndexRow],
    ) -> None:
        """Bring the index in step with these changed items (their rows as stored now):
        new ones embedded (their vectors stored) and added, gone ones removed, closed
        ones updated in place. Without an index, only the vectors are stored."""
        if any(item not in rows for item in items):  # removed: no snapshot may keep it
            self._drop_snapshots(scope, collection)
        position = index.position if index is not None else {}
        fresh = sorted((r for i, r in rows.items() if i not in position), key=lambda r: r.pk)
        stored = {row.id: row.vector for row in fresh if row.vector is not None}
        vectors = self._vectors_for(scope, fresh, stored, collection)
        if index is None:
            return
        for item in dict.fromkeys(items):
            row = rows.get(item)
            doc = index.position.get(item)
            if row is None:  # deleted, or held for review: no longer searchable
                index.remove(item)
            elif doc is not None:  # a fact closed (or otherwise changed in place)
                index.expired.view()[doc] = row.expired
                index.valid_to.view()[doc] = row.valid_to
        index.add_many(fresh, self.analyzer, vectors)

    def _changed(self, scope: Scope, collection: str, items: Sequence[str] | None) -> None:
        """Told by the store after each write commits: follow it (the one place this
        process's indexes learn of its own writes; other processes' come from the feed)."""
        if collection not in ("records", "recall"):
            return
        kind: Collection = "records" if collection == "records" else "recall"
        if items is None:  # the whole scope changed (forget, restore): read it afresh
            self.forget(scope)
            return
        with self._lock:
            index = self._indexes.get((scope, kind))
            rows = self._rows(scope, kind, items)
            growth = sum(1 for i in rows if index is not None and i not in index.position)
            if index is not None and len(index.ids) + growth > self._store_limit():
                self._move_to_store(scope, kind)  # grown too large to hold here
                index = None
            current = index is not None and index.revision + len(items) == self.store.revision(
                scope, kind
            )
            # no index here, or another writer got in between (the next search catches up
            # from the feed, these items included): only store the new vectors
            self._apply(scope, kind, index if current else None, items, rows)
            if index is not None and current:
                index.revision += len(items)

    def _db(self) -> InStore:
        assert isinstance(self.store, StoreSearch)
        return InStore(self.store, self.config, self.embedder, self.trust, self._recent)

    def _store_limit(self) -> float:
        if isinstance(self.store, StoreSearch):
            return self.config.store_search_threshold
        return float("inf")

    def _count(self, scope: Scope, collection: Collection) -> int:
        if collection == "records":
            return self.store.count_records(scope, RecordFilter())
        return self.store.count_messages(scope, in_context=False)

    def _move_to_store(self, scope: Scope, collection: Collection) -> None:
        """From now on this scope is searched by the store, with its own vector index."""
        self._in_store.add((scope, collection))
        self._indexes.pop((scope, collection), None)
        if self.embedder is not None and isinstance(self.store, StoreSearch):
            self.store.ensure_vector_index(
                scope, collection, self.embedder.model_id, self.embedder.dim
            )

    def _loaded(self, scope: Scope, collection: Collection) -> ScopeIndex | None:
        """The scope's in-memory index, or None when the store searches it."""
        if (scope, collection) in self._in_store:
            return None
        try:
            index = self._index(scope, collection)
        except _TooLargeError:
            return None
        self._save(scope, collection, index)
        return index

    def _vectors_for(
        self,
        scope: Scope,
        records: Sequence[IndexRow],
        stored: dict[str, bytes],
        collection: Collection,
    ) -> dict[str, Vectors]:
        """Vectors of these items: stored ones, an identical item's, or newly embedded."""
        if self.embedder is None:
            return {}
        embedder = self.embedder
        found: dict[str, Vectors] = {}
        missing: list[IndexRow] = []
        unstored = [record.text for record in records if record.id not in stored]
        same_text = (
            self.store.find_vectors(scope, embedder.model_id, unstored, collection=collection)
            if unstored
            else {}
        )
        for record in records:
            blob = stored.get(record.id) or same_text.get(record.text)
            if blob is not None and len(blob) == 4 * embedder.dim:
                found[record.id] = np.frombuffer(blob, dtype=np.float32)
            else:
                missing.append(record)
        cached = [r for r in missing if r.text in self._recent]
        for row in cached:
            found[row.id] = self._recent.pop(row.text)
        missing = [r for r in missing if r.id not in found]
        if missing:
            fresh = embedder.embed([r.text for r in missing], role="document")
            self.embedded += len(missing)
            pairs = list(zip(missing, fresh, strict=True))
            found.update((r.id, v) for r, v in pairs)
        # Records reusing an identical note's vector get their own row too, so a delete of
        # the original (which cascades to its vector) leaves them theirs.
        to_store = [
            (r.id, found[r.id].tobytes()) for r in records if r.id in found and r.id not in stored
        ]
        if to_store:
            self.store.put_vectors(scope, embedder.model_id, to_store, collection=collection)
        return found

    def forget(self, scope: Scope) -> None:
        """Drop a scope's in-memory indexes (their terms included) and its snapshots; they
        reload on demand."""
        with self._lock:
            self._drop_snapshots(scope)
            for collection in ("records", "recall"):
                self._indexes.pop((scope, collection), None)
                self._in_store.discard((scope, collection))

    def reindex(self, scope: Scope) -> int:
        """Rebuild a scope's indexes now, embedding items that lack a vector of this model."""
        with self._lock:
            before = self.embedded
            self._drop_snapshots(scope)  # built from the store, not read back
            for collection in ("records", "recall"):
                self._indexes.pop((scope, collection), None)
                self._loaded(scope, collection)
            return self.embedded - before

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
        self, scope: Scope, texts: Sequence[str], k: int, *, now: datetime | None = None
    ) -> list[list[tuple[str, float | None]]]:
        """`similar` for many notes at once (a batch): one look at the index, one
        product for all their neighbours by meaning."""
        vectors = [self._document_vector(text) for text in texts]
        with self._lock:
            index = self._loaded(scope, "records")
            if index is None:
                return [self._db().similar(scope, text, k, now) for text in texts]
            if not index.bm25.live:
                return [[] for _ in texts]
            mask = index.bm25.alive()
            valid = features.valid(index, now, None)
            if valid is not None:
                mask = mask & valid
            picks: list[list[int]] = []
            for text in texts:
                picked: list[int] = []
                terms = self.analyzer.query(text)
                if terms:
                    lexical = index.bm25.scores(terms)
                    sharing = np.flatnonzero(lexical > 0)  # usually few: no sort of the scope
                    sharing = sharing[mask[sharing]]
                    picked = [int(sharing[i]) for i in top(lexical[sharing], 2 * k)]
                picks.append(picked)
            known = [v for v in vectors if v is not None]
            if len(known) == len(texts) and known and len(index.vectors):
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
        vector = self._recent.get(text)
        if vector is None:
            vector = self.embedder.embed([text], role="document")[0]
            if len(self._recent) > 4096:
                self._recent.clear()
            self._recent[text] = vector
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
            index = self._indexes.get((scope, "records"))
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
            lexical = index.bm25.scores(terms)
            config = self.config
            prev, nxt = features.adjacency(index, config.neighbour_gap_seconds)
            if config.context_weight > 0:  # BM25 of (previous, note, next) as one passage
                context = index.bm25.context_scores(terms, prev, nxt)
                lexical = lexical + config.context_weight * context
            alive = index.bm25.alive()
            found = alive & (lexical > 0)
            share = config.neighbour_weight
            early = config.neighbour_lexical > 0
            scores = by_max(
                features.with_neighbours(index, lexical, prev, nxt, share) if early else lexical
            )
            ids = index.ids  # read under the lock only: a write may append to it
            eligible = (
                features.valid(index, now, as_of, retired) if collection == "records" else None
            )
            if allowed is not None:
                chosen = np.asarray([item_id in allowed for item_id in ids], dtype=bool)
                eligible = chosen if eligible is None else eligible & chosen
            candidates = found
            if self.embedder is not None and len(index.vectors):
                query_vector = self.embedder.embed([query], role="query")[0]
                centre = config.centre > 0
                raw, scored, plain = index.vectors.scores(query_vector, centre=centre)
                scored &= alive
                fused, candidates = self._fuse(index, scores, found, raw, scored, plain)
                # learn only from notes the search may return, as far as their origin
                # is trusted
                pool = candidates if eligible is None else candidates & eligible
                moved = features.feedback(
                    index,
                    query_vector,
                    fused * index.weights.view(),
                    pool,
                    int(config.feedback_notes),
                    config.feedback_weight,
                )
                if moved is not None:  # the first round's best notes, scored again
                    size = int(config.feedback_pool)
                    best = np.where(scored, fused, -np.inf)
                    docs = (
                        np.flatnonzero(scored)
                        if scored.sum() <= size
                        else np.asarray(top(best, size), dtype=np.int64)
                    )
                    raw, plain = raw.copy(), plain.copy()
                    raw[docs], plain[docs] = index.vectors.scores_of(moved, docs, centre=centre)
                    fused, candidates = self._fuse(index, scores, found, raw, scored, plain)
                scores = fused
            if not early:
                scores = features.with_neighbours(index, scores, prev, nxt, share)
                if share > 0:
                    candidates = candidates | features.beside(index, candidates, prev, nxt)
            speaker = features.named_speaker(index, query)
            named: npt.NDArray[np.bool_] | None = None
            if speaker:
                named = index.speaker_codes.view() == index.speaker_names[speaker]
                scores = scores * np.where(named, 1.0 + config.speaker_boost, 1.0)
            when = None
            if config.time_boost > 0:
                reference = as_of or now or datetime.now(UTC)
                when = features.timely(index, query, reference, config.time_slack_days)
            if when is not None:
                scores = scores * np.where(when[1], 1.0 + config.time_boost, 1.0)
            dated = None
            if config.when_boost > 0 and asks_when(query):
                dated = index.dated.view()
                scores = scores * np.where(dated, 1.0 + config.when_boost, 1.0)
            scores = scores * index.weights.view() * self._recency(index, now)
            if eligible is not None:
                candidates = candidates & eligible
            ranked = np.where(candidates, scores, -np.inf)
            depth = min(len(ranked), k)
            if depth < len(ranked):
                head = np.argpartition(-ranked, depth - 1)[:depth]
                order = head[np.argsort(-ranked[head], kind="stable")]
            else:
                order = np.argsort(-ranked, kind="stable")
            winners = [(int(i), ids[i]) for i in order if candidates[i]]
        results = []
        for i, item in winners:
            explain = f"bm25={lexical[i]:.3f} fused={scores[i]:.3f}"
            if named is not None and named[i]:
                explain += f" speaker={speaker}"
            if when is not None and when[1][i]:
                explain += f" time={when[0].phrase!r}"
            if dated is not None and dated[i]:
                explain += " says-when"
            results.append(Ranked(item, float(scores[i]), explain))
        return results

    def _fuse(
        self,
        index: ScopeIndex,
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
            fused = (weight * lexical + (1.0 - weight) * dense) * index.bm25.alive()
        # a note with no query word competes only when close in meaning; closer still
        # when no note has a query word (the query may mean nothing here)
        floor = config.min_cosine if found.any() else config.alone_cosine
        return fused, found | (scored & (plain >= floor))

    def _recency(self, index: ScopeIndex, now: datetime | None) -> FloatArray | float:
        return recency(
            index.times.view(),
            now,
            self.config.recency_half_life_days,
            self.config.recency_weight,
        )


def _normalise(matrix: Vectors) -> Vectors:
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    normalised: Vectors = (matrix / np.maximum(norms, 1e-12)).astype(np.float32)
    return normalised


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
