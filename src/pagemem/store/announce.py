"""Committed changes, told to whoever in this process keeps an index of them.

Every write logs the items it changed in the store's change feed, in its own
transaction; other processes read that log. Within this process the store also tells
its listeners (the ranker) once the transaction has committed, so a write is
searchable here at once and no caller keeps an index in step by hand. A listener hears
a scope's items in the order they were written, or None when the change was too large
to list (a forget, a restore): it should then read the scope afresh.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from pagemem.models import Scope

__all__ = ["Announcer", "Announces", "Listener"]

Listener = Callable[[Scope, str, Sequence[str] | None], None]

_log = logging.getLogger("pagemem.store")


class Announcer:
    """Collects what each thread's transaction changed; tells the listeners on commit."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._local = threading.local()

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def stage(self, scope: Scope, collection: str, items: Sequence[str] | None) -> None:
        """Within a transaction: these items changed (None: the whole collection did)."""
        pending: list[tuple[Scope, str, list[str] | None]] | None = getattr(
            self._local, "pending", None
        )
        if pending is None:  # told now, a listener would read a write not yet committed
            raise RuntimeError("a store staged a change outside Announcer.transaction()")
        pending.append((scope, collection, None if items is None else list(items)))

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Wrap a store transaction (its commit included): what it staged is told once the
        outermost one has committed, and dropped if it fails."""
        depth: int = getattr(self._local, "depth", 0)
        if depth == 0:
            self._local.pending = []
        self._local.depth = depth + 1
        try:
            yield
        except BaseException:
            self._local.depth = depth
            if depth == 0:
                self._local.pending = None
            raise
        self._local.depth = depth
        if depth == 0:
            pending, self._local.pending = self._local.pending, None
            if pending:
                self._tell(pending)

    def _tell(self, pending: list[tuple[Scope, str, list[str] | None]]) -> None:
        # One message per scope and collection, items in order; a whole-collection
        # change stands for everything staged with it.
        merged: dict[tuple[Scope, str], list[str] | None] = {}
        for scope, collection, items in pending:
            key = (scope, collection)
            if key in merged and merged[key] is None:
                continue
            if items is None:
                merged[key] = None
            else:
                known = merged.setdefault(key, [])
                assert known is not None
                known.extend(items)
        for (scope, collection), items in merged.items():
            for listener in self._listeners:
                try:
                    listener(scope, collection, items)
                except Exception:  # the write is committed: a listener cannot undo it
                    # (the index catches up from the change feed at its next search)
                    _log.exception("a listener failed on a change to %s", scope)


class Announces:
    """What a store that announces its writes offers (both backends)."""

    announcer: Announcer

    def listen(self, listener: Listener) -> None:
        self.announcer.listen(listener)

    def _changed_whole(self, scope: Scope) -> None:
        """Both collections of the scope changed past what the feed lists."""
        self.announcer.stage(scope, "records", None)
        self.announcer.stage(scope, "recall", None)
