"""The consolidation pass: fold the near-duplicates and stale facts a scope has gathered.

Writes consolidate as they happen, but notes loaded in bulk (`insert_many`,
`consolidate=False`, an import) or written before a rule existed can hold
copies and facts that a later one replaced. This pass walks the scope's
current facts in the order they became true and applies the same decisions as
a write would: a restatement is retired into the fact it repeats, a changed
slot closes the older fact. Nothing is deleted, every decision is in the
history, and a second pass finds nothing to do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pagemem.consolidate import TRUST, slot_signature
from pagemem.store.base import RecordFilter

if TYPE_CHECKING:
    from pagemem.memory.core import ScopedMemory

__all__ = ["Consolidation", "consolidate_scope"]

_PAGE = 1000


@dataclass(slots=True)
class Consolidation:
    """What a pass merged (copy -> kept fact) and superseded (old -> new)."""

    merged: list[tuple[str, str]] = field(default_factory=list)
    superseded: list[tuple[str, str]] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.merged or self.superseded)


def consolidate_scope(
    me: ScopedMemory, *, dry_run: bool = False, actor: str = "consolidation"
) -> Consolidation:
    memory, store, scope = me.memory, me.memory.store, me.scope
    facts = []
    offset = 0
    while page := store.list_records(scope, RecordFilter(), limit=_PAGE, offset=offset):
        offset += len(page)
        facts += [r for r in page if r.kind != "episodic" and r.expired_at is None]
    facts.sort(key=lambda r: (r.valid_from, int(r.id[1:])))
    kept: set[str] = set()
    by_id = {r.id: r for r in facts}
    result = Consolidation()
    for record in facts:
        near = memory.ranker.similar(scope, record.text, 8, now=memory.now())
        mates = [(by_id[i], c) for i, c in near if i in kept and i != record.id]
        slot = slot_signature(record.text)
        if slot is not None:
            known = {r.id for r, _ in mates}
            mates += [
                (by_id[r.id], None)
                for r in store.current_facts(scope, slot=slot)
                if r.id in kept and r.id not in known and r.id != record.id
            ]
        trust = TRUST.get(record.origin, 0)
        mates = [(r, c) for r, c in mates if TRUST.get(r.origin, 0) <= trust]
        decision = memory.consolidator.decide(
            record.text, [r for r, _ in mates], [c for _, c in mates]
        )
        if decision.action == "merge" and by_id[decision.targets[0]].origin == record.origin:
            target = decision.targets[0]
            result.merged.append((record.id, target))
            result.reasons[record.id] = decision.reason
            if not dry_run:
                at = memory.now()
                closed = store.retire(
                    scope,
                    record.id,
                    valid_to=None,
                    superseded_by=target,
                    reason=f"merged into {target}: {decision.reason}",
                    op="merge",
                    actor=actor,
                    at=at,
                )
                store.restate(
                    scope, target, source=record.source, reason=decision.reason, actor=actor, at=at
                )
                if closed is not None:
                    memory.ranker.retired(scope, closed)
            continue
        if decision.action == "supersede":
            for old in decision.targets:
                result.superseded.append((old, record.id))
                result.reasons[old] = decision.reason
                kept.discard(old)
                if not dry_run:
                    closed = store.retire(
                        scope,
                        old,
                        valid_to=record.valid_from,
                        superseded_by=record.id,
                        reason=f"superseded by {record.id}: {decision.reason}",
                        op="supersede",
                        actor=actor,
                        at=memory.now(),
                    )
                    if closed is not None:
                        memory.ranker.retired(scope, closed)
        kept.add(record.id)
    return result
