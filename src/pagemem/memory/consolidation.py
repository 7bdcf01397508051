"""The consolidation pass: link the restatements and stale facts a scope has gathered.

Writes consolidate as they happen, but notes written with `consolidate=False`,
imported, extracted in the background or written before a rule existed can hold
restatements and facts that a later one replaced. This pass walks the scope's
current facts in the order they became true and applies the same decisions as a
write would: a restatement is retired behind the fact it repeats (its text stays
under its id), a change closes the older fact, an uncertain change is linked so the
read side ranks the newer first. Nothing is deleted, every decision is in the
history, and a second pass finds nothing to do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from pagemem.consolidate import TRUST
from pagemem.models import Record
from pagemem.store.base import RecordFilter

if TYPE_CHECKING:
    from pagemem.memory.core import ScopedMemory

__all__ = ["Consolidation", "apply_change", "consolidate_scope", "retire_restatement"]

_PAGE = 1000


@dataclass(slots=True)
class Consolidation:
    """What a pass retired as restatements (restatement -> fact), superseded (old -> new)
    and linked as possibly newer values (newer -> older)."""

    merged: list[tuple[str, str]] = field(default_factory=list)
    superseded: list[tuple[str, str]] = field(default_factory=list)
    linked: list[tuple[str, str]] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.merged or self.superseded or self.linked)


def apply_change(
    me: ScopedMemory,
    new: Record,
    targets: Sequence[str],
    reason: str,
    *,
    actor: str,
    at: datetime,
) -> list[tuple[str, str]]:
    """`new` and `targets` fill the same slot: close whichever became true earlier.

    Usually the targets are older and `new` closes them. A fact written late about the
    past ("I lived in Seattle" in 2019) is itself closed by the newer one. Returns the
    (closed, by) pairs.
    """
    store, scope = me.memory.store, me.scope
    found = store.get_records(scope, list(targets))
    older = [r for r in found if r.valid_from <= new.valid_from]
    newer = sorted((r for r in found if r.valid_from > new.valid_from), key=lambda r: r.valid_from)
    pairs = [(r.id, new.id, new.valid_from) for r in older]
    if newer:
        pairs.append((new.id, newer[0].id, newer[0].valid_from))
    for closed_id, by, when in pairs:
        store.retire(
            scope,
            closed_id,
            valid_to=when,
            superseded_by=by,
            reason=f"superseded by {by}: {reason}",
            op="supersede",
            actor=actor,
            at=at,
        )
    return [(closed_id, by) for closed_id, by, _ in pairs]


def retire_restatement(
    me: ScopedMemory,
    record_id: str,
    target: str,
    reason: str,
    *,
    source: str,
    actor: str,
    at: datetime,
) -> None:
    """A note already stored turns out to restate `target`: retire it behind the fact
    (its text stays under its id) and count it there."""
    store, scope = me.memory.store, me.scope
    store.retire(
        scope,
        record_id,
        valid_to=None,
        superseded_by=target,
        reason=f"restates {target}: {reason}",
        op="restate",
        actor=actor,
        at=at,
    )
    store.set_consolidation(scope, record_id, "restated", target)
    store.restate(scope, target, source=source, reason=reason, actor=actor, at=at)


def consolidate_scope(
    me: ScopedMemory,
    *,
    dry_run: bool = False,
    only: Sequence[str] | None = None,
    actor: str = "consolidation",
) -> Consolidation:
    """The pass over every current fact, or with `only`, over those facts alone (each
    decided against all the others, as a write would be)."""
    with me.memory.store.scope_lock(me.scope):
        return _consolidate(me, dry_run=dry_run, only=only, actor=actor)


def _consolidate(
    me: ScopedMemory, *, dry_run: bool, only: Sequence[str] | None, actor: str
) -> Consolidation:
    memory, store, scope = me.memory, me.memory.store, me.scope
    facts = []
    offset = 0
    while page := store.list_records(scope, RecordFilter(), limit=_PAGE, offset=offset):
        offset += len(page)
        facts += [r for r in page if r.kind != "episodic" and r.expired_at is None]
    facts.sort(key=lambda r: (r.valid_from, int(r.id[1:])))
    by_id = {r.id: r for r in facts}
    kept: set[str] = set()
    if only is not None:
        wanted = set(only)
        kept = {r.id for r in facts if r.id not in wanted}
        facts = [r for r in facts if r.id in wanted]
    result = Consolidation()
    for record in facts:
        near = memory.ranker.similar(scope, record.text, 8, now=memory.now())
        mates = [(by_id[i], c) for i, c in near if i in kept and i != record.id]
        trust = TRUST.get(record.origin, 0)
        mates = [(r, c) for r, c in mates if TRUST.get(r.origin, 0) <= trust]
        decision = memory.consolidator.decide(
            record.text, [r for r, _ in mates], [c for _, c in mates]
        )
        if decision.action == "restate" and by_id[decision.targets[0]].origin == record.origin:
            target = decision.targets[0]
            result.merged.append((record.id, target))
            result.reasons[record.id] = decision.reason
            if not dry_run:
                retire_restatement(
                    me,
                    record.id,
                    target,
                    decision.reason,
                    source=record.source,
                    actor=actor,
                    at=memory.now(),
                )
            continue
        if decision.action == "supersede":
            if dry_run:
                pairs = [(old, record.id) for old in decision.targets]
            else:
                pairs = apply_change(
                    me, record, decision.targets, decision.reason, actor=actor, at=memory.now()
                )
                if record.consolidation in (None, "added"):
                    store.set_consolidation(scope, record.id, "superseded", decision.targets[0])
            for closed_id, by in pairs:
                result.superseded.append((closed_id, by))
                result.reasons[closed_id] = decision.reason
                kept.discard(closed_id)
            if any(closed_id == record.id for closed_id, _ in pairs):
                continue
        elif decision.action == "keep-both" and record.consolidation in (None, "added"):
            result.linked.append((record.id, decision.targets[0]))
            result.reasons[record.id] = decision.reason
            if not dry_run:
                store.set_consolidation(scope, record.id, "kept-both", decision.targets[0])
        kept.add(record.id)
    return result
