"""Retention: rules per scope that delete notes and evicted messages once they are old.

A rule ("messages older than 90 days", "notes from web older than 30 days") is
stored with the scope; `Memory.apply_retention()` (run by the retention job or
`pagemem retention run`) applies every scope's rules, and `expire` is the
operator's one-off. Expired items go the way forgotten ones do: deleted with a
tombstone in history, the running summary rebuilt without them, indexes
rewritten and the WAL emptied.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal

from pagemem.errors import InvalidInputError
from pagemem.memory.checks import aware, choices
from pagemem.models import ORIGINS, RetentionRule
from pagemem.store.base import MessageFilter, RecordFilter
from pagemem.summarize import ExtractiveSummarizer

if TYPE_CHECKING:
    from pagemem.memory.core import ScopedMemory

__all__ = ["Expired", "Retention"]


@dataclass(frozen=True, slots=True)
class Expired:
    """How many notes and evicted messages a retention pass deleted."""

    notes: int = 0
    messages: int = 0

    def __add__(self, other: Expired) -> Expired:
        return Expired(self.notes + other.notes, self.messages + other.messages)

    def __bool__(self) -> bool:
        return bool(self.notes or self.messages)


class Retention:
    """One scope's retention rules, and the deletions they cause."""

    def __init__(self, owner: ScopedMemory) -> None:
        self._owner = owner
        self._store = owner.memory.store

    def rules(self) -> list[RetentionRule]:
        return self._store.get_retention(self._owner.scope)

    def set(self, rules: Iterable[RetentionRule]) -> list[RetentionRule]:
        """Replace the scope's rules (an empty list keeps everything forever)."""
        checked = list(rules)
        for rule in checked:
            if not isinstance(rule, RetentionRule):
                raise InvalidInputError(f"expected RetentionRule, got {type(rule).__name__}")
        self._store.set_retention(self._owner.scope, checked)
        return checked

    def apply(self, *, now: datetime | None = None, actor: str = "retention") -> Expired:
        """Apply the scope's rules as of `now` (default: the memory's clock)."""
        total = Expired()
        for rule in self.rules():
            total += self.expire(
                rule.what,
                timedelta(days=rule.max_age_days),
                origins=rule.origins,
                now=now,
                actor=actor,
            )
        return total

    def expire(
        self,
        what: Literal["notes", "messages"],
        older_than: timedelta,
        *,
        origins: Iterable[str] = (),
        now: datetime | None = None,
        actor: str = "operator",
        preview: bool = False,
    ) -> Expired:
        """Delete notes (optionally only of `origins`) or evicted messages written more than
        `older_than` before `now`. Quarantined notes age like any other. With `preview`,
        only count them."""
        if not isinstance(older_than, timedelta) or older_than <= timedelta(0):
            raise InvalidInputError(f"older_than must be a positive timedelta, got {older_than!r}")
        owner = self._owner
        at = owner.memory.now()
        cutoff = (aware(now, "now") or at) - older_than
        wanted = choices(tuple(origins), ORIGINS, "origin")
        if what == "notes":
            where = RecordFilter(origins=wanted, end=cutoff, quarantined=None)
            ids = sorted(self._store.filter_record_ids(owner.scope, where), key=_number)
            if preview:
                return Expired(notes=len(ids))
            removed = self._store.delete_records(owner.scope, ids, actor=actor, at=at)
            expired = Expired(notes=removed)
        elif what == "messages":
            if wanted:
                raise InvalidInputError("origins apply to notes only")
            found = self._store.filter_message_ids(owner.scope, MessageFilter(end=cutoff))
            ids = sorted(found, key=_number)
            if preview:
                return Expired(messages=len(ids))
            removed = self._store.delete_messages(owner.scope, ids, actor=actor, at=at)
            if removed:
                self._rebuild_summary(frozenset(ids))
            expired = Expired(messages=removed)
        else:
            raise InvalidInputError(f"expire 'notes' or 'messages', not {what!r}")
        if expired:
            self._store.reset(owner.scope)  # no index keeps the words of what expired
            self._store.purge()
        return expired

    def _rebuild_summary(self, gone: frozenset[str]) -> None:
        """A summary that drew on expired messages is rebuilt from the ones that remain."""
        owner = self._owner
        summary, sources = self._store.get_summary(owner.scope)
        if not summary or not gone.intersection(sources):
            return
        kept = [source for source in sources if source not in gone]
        messages = self._store.get_messages(owner.scope, kept)
        cap = owner.counter.count(summary)
        rebuilt = ExtractiveSummarizer()("", messages, max_tokens=cap, counter=owner.counter)
        self._store.set_summary(owner.scope, rebuilt, kept, at=owner.memory.now())


def _number(item_id: str) -> int:
    return int(item_id[1:]) if item_id[1:].isdigit() else 0
