"""Ranking a scope the store searches itself (PostgreSQL past the ranker's threshold):
the same fusion as in memory, over the candidates the database's own indexes return."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

from pagemem.guard.policy import TrustPolicy
from pagemem.models import Scope
from pagemem.retrieval.config import Ranked, RetrievalConfig
from pagemem.retrieval.embed import Embedder, Role, Vectors
from pagemem.retrieval.fusion import by_max, min_max, recency
from pagemem.retrieval.lexical import words
from pagemem.retrieval.timewindow import time_window
from pagemem.store.base import Candidate, Collection, StoreSearch

__all__ = ["InStore"]


class InStore:
    """Search and similar-fact lookup for scopes held by the store, not in memory."""

    def __init__(
        self,
        store: StoreSearch,
        config: RetrievalConfig,
        embedder: Embedder | None,
        trust: TrustPolicy,
        recent: dict[str, Vectors],
    ) -> None:
        self.store = store
        self.config = config
        self.embedder = embedder
        self.trust = trust
        self._recent = recent  # shared with the ranker: a new note's vector, embedded once

    def _candidates(
        self,
        scope: Scope,
        text: str,
        role: Role,
        collection: Collection,
        limit: int,
        now: datetime | None,
        as_of: datetime | None,
        only: set[str] | None = None,
        sharing_words: bool = False,
        retired: bool = False,
    ) -> tuple[list[Candidate], Vectors | None]:
        vector = self.embedder.embed([text], role=role)[0] if self.embedder else None
        found = self.store.search_in_store(
            scope,
            collection,
            words=words(text),
            vector=None if vector is None else vector.tobytes(),
            model_id=self.embedder.model_id if self.embedder else None,
            limit=limit,
            now=now,
            as_of=as_of,
            only=None if only is None else sorted(only),
            sharing_words=sharing_words,
            retired=retired,
        )
        return found, vector

    def search(
        self,
        scope: Scope,
        query: str,
        k: int,
        collection: Collection,
        allowed: set[str] | None,
        now: datetime | None,
        as_of: datetime | None,
        retired: bool = False,
    ) -> list[Ranked]:
        """The same fusion as in memory over the store's candidates: BM25-like text rank
        scaled by its best, cosine min-max scaled, mixed by `lexical_weight`, then origin
        trust, recency and a time the query names. (Neighbour sharing and the speaker
        boost need the whole scope in memory and are not applied.)"""
        depth = max(4 * k + 50, int(self.config.ann_candidates) // 5)
        if allowed is not None and not allowed:
            return []
        found, _ = self._candidates(
            scope, query, "query", collection, depth, now, as_of, allowed, retired=retired
        )
        if not found:
            return []
        lexical = by_max(np.asarray([c.lexical for c in found], dtype=np.float64))
        scores = lexical
        if self.embedder is not None:
            has = np.asarray([c.cosine is not None for c in found])
            raw = np.asarray([c.cosine if c.cosine is not None else 0.0 for c in found])
            weight = self.config.lexical_weight
            scores = weight * lexical + (1.0 - weight) * min_max(raw, has)
        trust = np.asarray([self.trust.weight(c.origin, c.flags) for c in found])
        scores = (
            scores
            * trust
            * recency(
                np.asarray([c.created_at for c in found]),
                now,
                self.config.recency_half_life_days,
                self.config.recency_weight,
            )
        )
        window = time_window(query, as_of or now or datetime.now(UTC))
        if window is not None and self.config.time_boost > 0:
            moments = np.asarray(
                [c.valid_from if c.valid_from > float("-inf") else c.created_at for c in found]
            )
            timely = window.mask(moments, self.config.time_slack_days * 86_400.0)
            scores = scores * np.where(timely, 1.0 + self.config.time_boost, 1.0)
        order = np.argsort(-scores, kind="stable")[:k]
        return [
            Ranked(
                found[i].id,
                float(scores[i]),
                f"store text={found[i].lexical:.3f} cosine={found[i].cosine} fused={scores[i]:.3f}",
            )
            for i in order
            if scores[i] > 0 or found[i].lexical > 0
        ]

    def similar(
        self, scope: Scope, text: str, k: int, now: datetime | None
    ) -> list[tuple[str, float | None]]:
        found, vector = self._candidates(
            scope, text, "document", "records", 2 * k, now, None, sharing_words=True
        )
        if vector is not None:
            if len(self._recent) > 256:
                self._recent.clear()
            self._recent[text] = vector
        shared = [c for c in found if c.lexical > 0]
        shared.sort(key=lambda c: -(c.cosine if c.cosine is not None else -1.0))
        return [(c.id, c.cosine) for c in shared[:k]]
