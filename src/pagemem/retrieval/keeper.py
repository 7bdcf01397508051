"""Keeping a scope's search index: built from the store on first use, or read from the
snapshot a process left; kept in step with this process's writes through the store's
listener hook, and with other processes' through the change feed.

A revision counter in the store tells when another process wrote; the index then
applies the store's change feed (the item each revision step changed), so a foreign
write costs work in proportion to what it changed. Only when the feed cannot tell (a
forget, a restore, a reader too far behind) is the index rebuilt. A scope past the
store-search threshold is left to a store that can search itself (PostgreSQL).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import logging
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar, cast

import numpy as np

from pagemem.guard.policy import TrustPolicy
from pagemem.models import Scope
from pagemem.retrieval import blas
from pagemem.retrieval.analysis import Analyzer
from pagemem.retrieval.config import RetrievalConfig
from pagemem.retrieval.embed import Embedder, Vectors
from pagemem.retrieval.in_store import InStore
from pagemem.retrieval.scope_index import ScopeIndex
from pagemem.retrieval.snapshot import Snapshots, Stamp, trust_hash
from pagemem.store.base import (
    Collection,
    IndexCache,
    IndexRow,
    RecordFilter,
    Store,
    StoreSearch,
)

__all__ = ["IndexKeeper"]

_PAGE = 10_000
_TRIM_FROM = 100_000  # notes in the indexes let go at close from which memory is given back
_PENDING_LIMIT = 256  # this process's written items a loaded index takes at the latest
_START_WAIT = 0.005  # seconds an insert waits at most for the embedding worker to start
_log = logging.getLogger(__name__)
T = TypeVar("T")


class _TooLargeError(Exception):
    """The scope is past the store-search threshold: it is searched in the store."""


class _Worker:
    """One thread of this process for jobs that run beside the caller's (a fork makes
    its own: a parent's thread does not exist in the child)."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._pool: tuple[int, ThreadPoolExecutor] | None = None

    def submit(self, job: Callable[[], T]) -> Future[T]:
        if self._pool is None or self._pool[0] != os.getpid():
            self._pool = (os.getpid(), ThreadPoolExecutor(1, self._name))
        return self._pool[1].submit(job)

    def stop(self) -> None:
        pool = self._pool
        self._pool = None
        if pool is not None and pool[0] == os.getpid():
            pool[1].shutdown(wait=True, cancel_futures=True)


class IndexKeeper:
    """The in-memory index of every scope a process searches, current with the store."""

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
        self.narrowed = 0  # searches that ranked some notes only (retrieval/candidates.py)
        self._recent: dict[str, Vectors] = {}  # documents embedded before they were stored
        # notes being embedded on a worker while their write does its other checks
        self._ahead: dict[str, Future[Vectors]] = {}
        self._ahead_lock = threading.Lock()
        self._embedding = _Worker("pagemem-embed")
        # the graph's candidates for a search, found while its lexical side is read
        self._graph = _Worker("pagemem-graph")
        self._in_store: set[tuple[Scope, Collection]] = set()  # scopes the store searches
        # this process's writes a loaded index has not taken yet (`_follow`): the items
        # of each, with their rows as that write left them
        self._pending: dict[
            tuple[Scope, Collection], list[tuple[Sequence[str], dict[str, IndexRow]]]
        ] = {}
        self.restored = 0  # indexes read from a snapshot instead of built
        self.saved = 0  # snapshots put in place
        self._snapshots: Snapshots | None = None
        folder = store.index_folder() if isinstance(store, IndexCache) else None
        if folder is not None and self.config.snapshot_min < float("inf"):
            self._snapshots = Snapshots(cast(IndexCache, store), folder)
        store.listen(self._changed)
        blas.single_threaded()  # products that share the cores well (retrieval/blas.py)

    @property
    def embedder_id(self) -> str:
        return self.embedder.model_id if self.embedder else "no embedder"

    # keeping indexes current

    def _index(self, scope: Scope, collection: Collection) -> ScopeIndex:
        revision = self.store.revision(scope, collection)
        index = self._indexes.get((scope, collection))
        if index is not None and index.revision < revision:
            self._follow(scope, collection, index, revision)
        if index is not None and index.revision < revision:
            self._catch_up(scope, collection, index, revision)
        if index is None and (restored := self._restore(scope, collection, revision)):
            index = self._indexes[(scope, collection)] = restored
        if index is None or index.revision != revision:
            self.rebuilds += 1
            index = ScopeIndex(
                self.config,
                self.embedder.dim if self.embedder else 1,
                self.trust,
                spill=self._snapshots.folder if self._snapshots else None,
            )
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
        # the graph read with it is saved already: not a reason to write the snapshot again
        index.graph_saved = snapshot.graph is not None
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
        process to start from), stop the embedding worker and let the indexes go: a
        `Memory` is held in reference cycles, and its indexes (2.9 GB at a million
        notes) stayed until the garbage collector next ran, beside the next one's."""
        self._embedding.stop()
        self._graph.stop()
        with self._lock:
            saving = self._indexes.items() if self._snapshots is not None else ()
            for (scope, collection), index in list(saving):
                try:  # with this process's last writes (never a rebuild here)
                    self._follow(scope, collection, index, self.store.revision(scope, collection))
                except _TooLargeError:
                    continue
                if index.bm25.live >= self.config.snapshot_min and (
                    index.saved != index.revision
                    or (index.vectors.graph is not None and not index.graph_saved)
                ):
                    self._write_snapshot(scope, collection, index)
            held = sum(len(index.bm25) for index in self._indexes.values())
            self._indexes.clear()
            self._pending.clear()
            self._recent.clear()
        if held >= _TRIM_FROM:
            _give_back_memory()

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
        process's indexes learn of its own writes; other processes' come from the feed).
        A loaded index takes the items when it is next used (`_follow`): a write's own
        candidate lookup does that while its note is being embedded, so the insert does
        not wait for it, and a search still sees every write before it."""
        if collection not in ("records", "recall"):
            return
        kind: Collection = "records" if collection == "records" else "recall"
        if items is None:  # the whole scope changed (forget, restore): read it afresh
            self.forget(scope)
            return
        with self._lock:
            rows = self._rows(scope, kind, items)
            if (scope, kind) not in self._indexes:  # only store the new vectors, so a
                self._apply(scope, kind, None, items, rows)  # later load need not embed
                return
            if any(item not in rows for item in items):  # removed: no snapshot may keep it
                self._drop_snapshots(scope, kind)
            pending = self._pending.setdefault((scope, kind), [])
            pending.append((items, rows))
            # writes that nothing reads between (messages appended, episodes noted):
            # taken now and then, so what waits stays small
            if sum(len(i) for i, _ in pending) >= _PENDING_LIMIT:
                index = self._indexes[(scope, kind)]
                with contextlib.suppress(_TooLargeError):
                    self._follow(scope, kind, index, self.store.revision(scope, kind))

    def _follow(
        self, scope: Scope, collection: Collection, index: ScopeIndex, revision: int
    ) -> None:
        """Apply this process's writes since the index was last used, in their order.
        When another writer got in between, the feed is read instead (it lists these
        items too)."""
        batches = self._pending.pop((scope, collection), [])
        if not batches or index.revision + sum(len(i) for i, _ in batches) != revision:
            return
        growth = len({i for _, rows in batches for i in rows if i not in index.position})
        if len(index.ids) + growth > self._store_limit():
            self._move_to_store(scope, collection)  # grown too large to hold here
            raise _TooLargeError
        for items, rows in batches:
            self._apply(scope, collection, index, items, rows)
        index.revision = revision

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
        self._pending.pop((scope, collection), None)
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
        for record in records:
            self._settle(record.text)
            blob = stored.get(record.id)
            if blob is not None and len(blob) == 4 * embedder.dim:
                found[record.id] = np.frombuffer(blob, dtype=np.float32)
                self._recent.pop(record.text, None)  # stored with the note
            elif record.text in self._recent:  # embedded as it was written: no lookup
                found[record.id] = self._recent.pop(record.text)
        unstored = [record.text for record in records if record.id not in found]
        same_text = (
            self.store.find_vectors(scope, embedder.model_id, unstored, collection=collection)
            if unstored
            else {}
        )
        missing: list[IndexRow] = []
        for record in records:
            if record.id in found:
                continue
            blob = same_text.get(record.text)
            if blob is not None and len(blob) == 4 * embedder.dim:
                found[record.id] = np.frombuffer(blob, dtype=np.float32)
            else:
                missing.append(record)
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

    def embed_soon(self, scope: Scope, text: str) -> None:
        """Start embedding one note about to be written on a worker thread: the guard and
        the lexical half of its candidate lookup run meanwhile, on the other core (the
        model runs one thread for one text). Whoever needs the vector waits for it. A
        note the scope already holds word for word reuses that note's vector."""
        if self.embedder is None or text in self._recent:
            return
        embedder = self.embedder
        same = self.store.find_vectors(scope, embedder.model_id, [text]).get(text)
        if same is not None and len(same) == 4 * embedder.dim:
            self._keep(text, np.frombuffer(same, dtype=np.float32))
            return
        with self._ahead_lock:
            if text in self._ahead:
                return
            if len(self._ahead) >= 64:  # never waited for (held notes are not embedded)
                self._ahead.clear()
            # tokenized here when the model allows it (OnnxEmbedder.later), so the
            # worker's job holds the interpreter lock only to start and to finish
            later = getattr(embedder, "later", None)
            job: Callable[[], Vectors] = (
                later(text, role="document")
                if callable(later)
                else lambda: embedder.embed([text], role="document")[0]
            )
            started = threading.Event()

            def embed() -> Vectors:
                started.set()
                return job()

            self._ahead[text] = self._embedding.submit(embed)
        # Hand the worker the interpreter until it is under way: this thread runs Python
        # next and would hold the lock until its next blocking call (the model started
        # 0.5 ms late on an insert at 100k notes; with no blocking call, up to 5 ms).
        started.wait(_START_WAIT)

    def _settle(self, text: str) -> None:
        """A note embedded ahead joins the embedded ones (waiting for it if need be)."""
        with self._ahead_lock:
            future = self._ahead.pop(text, None)
        if future is not None:
            self._keep(text, future.result())

    def _keep(self, text: str, vector: Vectors) -> None:
        """Keep a note's vector until it is stored with the note (a bounded cache)."""
        if len(self._recent) > 4096:
            self._recent.clear()
        self._recent[text] = vector

    def vector_for(self, text: str) -> tuple[str, bytes] | None:
        """The embedding a note about to be written already has (its candidate lookup or
        `embed_ahead` made it), as the store keeps it: written with the note."""
        self._settle(text)
        vector = self._recent.get(text)
        if vector is None or self.embedder is None:
            return None
        return self.embedder.model_id, np.asarray(vector, dtype=np.float32).tobytes()

    def forget(self, scope: Scope) -> None:
        """Drop a scope's in-memory indexes (their terms included) and its snapshots; they
        reload on demand."""
        with self._lock:
            self._drop_snapshots(scope)
            for collection in ("records", "recall"):
                self._indexes.pop((scope, collection), None)
                self._pending.pop((scope, collection), None)
                self._in_store.discard((scope, collection))

    def reindex(self, scope: Scope) -> int:
        """Rebuild a scope's indexes now, embedding items that lack a vector of this model."""
        with self._lock:
            before = self.embedded
            self._drop_snapshots(scope)  # built from the store, not read back
            for collection in ("records", "recall"):
                self._indexes.pop((scope, collection), None)
                self._pending.pop((scope, collection), None)
                self._loaded(scope, collection)
            return self.embedded - before


def _give_back_memory() -> None:
    """Return the memory of indexes let go to the system where the C library keeps it:
    glibc holds freed blocks for reuse, so a closed `Memory`'s million-note index
    (1.7 GB) stayed in the process beside the next one's."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)
