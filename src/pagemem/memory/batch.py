"""Many notes at once: embedded in one batch, decided in order, written in one transaction.

Each fact is weighed, as `insert` would weigh it, against the scope's closest
current facts and against the items of the batch before it (a batch often holds a
fact and its restatement, or a value and its change). The rows go in together;
links to items of the same batch, whose ids exist only after that, follow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from pagemem.consolidate import Decision
from pagemem.memory.consolidation import apply_change, retire_restatement
from pagemem.store.base import NewRecord
from pagemem.store.common import stored

if TYPE_CHECKING:
    from pagemem.memory.archive import Archive

__all__ = ["insert_batch"]

_BATCH = "batch:"  # a placeholder id: the item of this batch at that position
_NEIGHBOURS = 8


def insert_batch(
    archive: Archive, items: Sequence[tuple[NewRecord, bool]], actor: str
) -> list[str]:
    """Store `items` (record, consolidate?) under the scope lock the caller holds."""
    owner = archive._owner
    memory, store, scope = owner.memory, owner.memory.store, owner.scope
    vectors = memory.ranker.embed_ahead([record.text for record, _ in items])
    between = _cosines(vectors)
    weighed = [
        i
        for i, (record, consolidate) in enumerate(items)
        if consolidate and record.kind != "episodic" and not record.quarantined
    ]
    # the scope does not change until the rows go in: its candidates are looked up at once
    near = dict(zip(weighed, archive._candidates([items[i][0].text for i in weighed]), strict=True))
    decisions: list[Decision | None] = []
    earlier: list[int] = []  # positions of consolidated facts so far
    for i, (record, _) in enumerate(items):
        if i not in near:
            decisions.append(None)
            continue
        extra = [
            (stored(f"{_BATCH}{j}", owner.scope, items[j][0]), cosine)
            for j, cosine in _closest(i, earlier, between)
        ]
        decisions.append(archive._decide(record, extra, near[i]))
        earlier.append(i)
    at = memory.now()
    rows = []
    for (record, _), decision in zip(items, decisions, strict=True):
        if decision is None:
            rows.append(record)
            continue
        other = decision.targets[0] if decision.targets else None
        known = other if other is not None and not other.startswith(_BATCH) else None
        row = replace(record, consolidation=decision.outcome, consolidated_with=known)
        if decision.action == "restate" and known is not None:
            row = replace(row, expired_at=at, superseded_by=known)
        rows.append(row)
    ids = archive._store_all(rows, actor)

    def resolve(target: str) -> str:
        return ids[int(target[len(_BATCH) :])] if target.startswith(_BATCH) else target

    for i, decision in enumerate(decisions):
        if decision is None or not decision.targets:
            continue
        targets = [resolve(t) for t in decision.targets]
        inside = any(t.startswith(_BATCH) for t in decision.targets)
        source = items[i][0].source
        if decision.action == "restate" and inside:  # its target's id exists only now
            retire_restatement(
                owner, ids[i], targets[0], decision.reason, source=source, actor=actor, at=at
            )
            continue
        if inside:
            store.set_consolidation(scope, ids[i], decision.outcome, targets[0])
        if decision.action == "restate":  # written retired already: count it at the fact
            store.restate(
                scope, targets[0], source=source, reason=decision.reason, actor=actor, at=at
            )
        elif decision.action == "supersede":
            apply_change(owner, archive.get(ids[i]), targets, decision.reason, actor=actor, at=at)
    return ids


def _cosines(vectors: Sequence[np.ndarray | None]) -> np.ndarray | None:
    """Every pair of the batch's notes by cosine, computed once (None without vectors)."""
    if not vectors or any(v is None for v in vectors):
        return None
    matrix = np.stack(vectors)  # type: ignore[arg-type]
    unit = matrix / np.maximum(np.linalg.norm(matrix, axis=1), 1e-12)[:, None]
    return unit @ unit.T  # type: ignore[no-any-return]


def _closest(
    i: int, earlier: list[int], between: np.ndarray | None
) -> list[tuple[int, float | None]]:
    """The earlier items of the batch closest to item i: by cosine, or the latest ones."""
    if not earlier:
        return []
    if between is None:
        return [(j, None) for j in earlier[-_NEIGHBOURS:]]
    cosines = between[i, earlier]
    best = np.argsort(-cosines)[:_NEIGHBOURS]
    return [(earlier[b], float(cosines[b])) for b in best]
