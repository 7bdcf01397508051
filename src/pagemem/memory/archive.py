"""Archival memory: notes worth keeping, searched on demand."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pagemem.consolidate import SPARE, TRUST, Decision, arrange
from pagemem.errors import InvalidInputError, NotFoundError
from pagemem.memory.batch import insert_batch
from pagemem.memory.checks import (
    MAX_K,
    MAX_SOURCE,
    aware,
    check_metadata,
    choices,
    positive,
    tags_of,
)
from pagemem.memory.consolidation import apply_change
from pagemem.models import KINDS, ORIGINS, Hit, Kind, Origin, Record, check_text
from pagemem.store.base import NewRecord, RecordFilter

if TYPE_CHECKING:
    from pagemem.memory.core import ScopedMemory

__all__ = ["Archive", "Version"]

_CANDIDATES = 8  # facts a new note is weighed against
_CHAIN = 16  # successors followed from a closed note to the current fact
_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:\-]{0,127}$")


@dataclass(frozen=True, slots=True)
class Version:
    """One version of a fact: the record, the id that replaced it, and the reasons."""

    record: Record
    replaced_by: str | None
    reasons: tuple[str, ...]


class Archive:
    """Archival memory: facts worth keeping, searched on demand."""

    def __init__(self, owner: ScopedMemory) -> None:
        self._owner = owner
        self._store = owner.memory.store

    def insert(
        self,
        text: str,
        *,
        source: str = "",
        origin: Origin = "agent",
        kind: Kind = "semantic",
        tags: Iterable[str] | None = None,
        metadata: dict[str, Any] | None = None,
        valid_from: datetime | None = None,
        valid_to: datetime | None = None,
        key: str | None = None,
        consolidate: bool = True,
        actor: str | None = None,
    ) -> str:
        """Store a note and return its own id: `get(id)` returns this text until it is
        deleted, forgotten or expired by retention.

        Facts (kinds "semantic" and "procedural") are consolidated on write, and the
        record says what happened (`Record.consolidation`): "restated" (it repeats a
        fact, which counts it; search shows the fact), "superseded" (it closed the facts
        it replaces, which stay in history), "kept-both" (perhaps a newer value of
        another fact; both stay current, search ranks this one first) or "added". `key`
        names the fact's slot ("user.home_city"): the current fact of that key is
        replaced without guessing. Episodic notes, and writes with `consolidate=False`,
        are stored as they are.
        """
        record = self._prepare(
            text,
            source=source,
            origin=origin,
            kind=kind,
            tags=tags,
            metadata=metadata,
            valid_from=valid_from,
            valid_to=valid_to,
            key=key,
            ahead=True,
        )
        who = actor or record.origin
        if not consolidate or record.kind == "episodic" or record.quarantined:
            return self._store_all([record], who)[0]
        # Read, decide and write as one step per scope: racing writers (threads or other
        # processes on a shared database) would otherwise both keep the fact they replace.
        with self._store.scope_lock(self._owner.scope):
            return self._write(record, self._decide(record), who)

    def _decide(
        self,
        record: NewRecord,
        extra: Sequence[tuple[Record, float | None]] = (),
        near: Sequence[tuple[Record, float | None]] | None = None,
    ) -> Decision:
        """What consolidation does with `record`, weighed against the scope's closest
        current facts (`near`, looked up unless given) and `extra` ones (notes of the same
        batch)."""
        owner = self._owner
        memory = owner.memory
        if record.key is not None:
            current = self._store.current_facts(owner.scope, key=record.key)
            return memory.consolidator.keyed(record.text, record.key, current)
        if near is None:
            near = self._candidates([record.text])[0]
        pairs = [*near, *extra]
        # A note may only restate or replace facts of its own or a less trusted origin: a
        # web page cannot supersede what the user said.
        trust = TRUST.get(record.origin, 0)
        pairs = [
            (r, c)
            for r, c in pairs
            if r.kind != "episodic"
            and r.expired_at is None
            and not r.quarantined
            and TRUST.get(r.origin, 0) <= trust
        ]
        # the closest by meaning first (those without a cosine last), eight at most
        pairs.sort(key=lambda pair: -(pair[1] if pair[1] is not None else -1.0))
        pairs = pairs[:_CANDIDATES]
        decision = memory.consolidator.decide(
            record.text, [r for r, _ in pairs], [c for _, c in pairs]
        )
        if decision.action == "restate":
            target = next(r for r, _ in pairs if r.id == decision.targets[0])
            if target.origin != record.origin:  # said again by someone else: its own note
                return Decision("add")
        return decision

    def _write(self, record: NewRecord, decision: Decision, actor: str) -> str:
        """Store `record` as `decision` says; every action stores it under a new id."""
        owner = self._owner
        at = owner.memory.now()
        other = decision.targets[0] if decision.targets else None
        record = replace(record, consolidation=decision.outcome, consolidated_with=other)
        if decision.action == "restate" and other is not None:
            # written already retired behind the fact it repeats: one row, one transaction
            record = replace(record, expired_at=at, superseded_by=other)
        new_id = self._store_all([record], actor)[0]
        if decision.action == "restate" and other is not None:
            self._store.restate(
                owner.scope, other, source=record.source, reason=decision.reason, actor=actor, at=at
            )
        elif decision.action == "supersede":
            apply_change(
                owner, self.get(new_id), decision.targets, decision.reason, actor=actor, at=at
            )
        return new_id

    def _candidates(self, texts: Sequence[str]) -> list[list[tuple[Record, float | None]]]:
        """The scope's current facts closest to each of these notes about to be written,
        with their cosine (None without vectors), closest first."""
        owner = self._owner
        memory = owner.memory
        records: dict[str, Record] = {}

        def fetch(ids: Sequence[str]) -> None:
            missing = [i for i in dict.fromkeys(ids) if i not in records]
            records.update((r.id, r) for r in self._store.get_records(owner.scope, missing))

        def meanwhile(ids: list[str]) -> None:
            fetch(ids)
            for text in (*texts, *(records[i].text for i in ids if i in records)):
                memory.consolidator.prepare(text)  # the decision may read them

        # One note is being embedded on the worker (`embed_soon`): the records of those
        # found by its words, and the texts the decision may read, are read meanwhile. A
        # batch was embedded before this: nothing to overlap, and reading texts the
        # decision skips costs more than it saves (insert_many 1,400 -> 980 notes/s).
        alone = len(texts) == 1
        near = memory.ranker.similar_many(
            owner.scope,
            texts,
            _CANDIDATES,
            now=memory.now(),
            meanwhile=meanwhile if alone else None,
        )
        fetch([i for found in near for i, _ in found])
        return [[(records[i], c) for i, c in found if i in records] for found in near]

    def update(self, record_id: str, text: str, *, actor: str = "user") -> str:
        """A new version of a note: stored as a new record that closes the old one (which
        stays in history, `superseded_by` the new id). Returns the new id."""
        with self._store.scope_lock(self._owner.scope):
            return self._update(record_id, text, actor)

    def _update(self, record_id: str, text: str, actor: str) -> str:
        old = self.get(record_id)
        if old.expired_at is not None:
            raise InvalidInputError(
                f"record {old.id!r} was already replaced by {old.superseded_by}"
            )
        record = self._prepare(
            text,
            source=old.source,
            origin=old.origin,
            kind=old.kind,
            tags=old.tags,
            metadata={
                k: v
                for k, v in old.metadata.items()
                if k not in ("directive", "redacted", "neutralised")
            },
            key=old.key,
            ahead=True,
        )
        return self._write(record, Decision("supersede", (old.id,), "updated"), actor)

    def put(
        self,
        key: str,
        text: str,
        *,
        source: str = "",
        origin: Origin = "agent",
        kind: Kind = "semantic",
        tags: Iterable[str] | None = None,
        metadata: dict[str, Any] | None = None,
        actor: str | None = None,
    ) -> str:
        """Store `text` as the one current note of `key` and return its id; the note that
        held the key (a held one too) is closed by it and stays in history. Unlike
        `insert(key=...)`, saying the same again is a new version, not a restatement:
        the id returned reads back this call's metadata (a key-value store's put)."""
        if key is None:
            raise InvalidInputError("put needs a key")
        record = self._prepare(
            text,
            source=source,
            origin=origin,
            kind=kind,
            tags=tags,
            metadata=metadata,
            key=key,
            ahead=True,
        )
        scope = self._owner.scope
        with self._store.scope_lock(scope):
            holding = self._store.list_records(
                scope,
                RecordFilter(quarantined=None, key=record.key, current=True),
                limit=100_000,
                offset=0,
            )
            targets = tuple(r.id for r in holding)
            decision = Decision("supersede" if targets else "add", targets, f"put {key}")
            return self._write(record, decision, actor or record.origin)

    def history(self, record_id: str) -> list[Version]:
        """Every version of a fact, oldest first: what it said, when it was true, what
        replaced it and why (from the history)."""
        start = self.get(record_id)
        chain = [start]
        seen = {start.id}
        # walk back to the first version, then forward to the latest
        while True:
            earlier = [
                r
                for r in self._store.list_records(
                    self._owner.scope, RecordFilter(quarantined=None), limit=100_000, offset=0
                )
                if r.superseded_by == chain[0].id and r.id not in seen
            ]
            if not earlier:
                break
            chain.insert(0, earlier[0])
            seen.add(earlier[0].id)
        while chain[-1].superseded_by and chain[-1].superseded_by not in seen:
            nxt = self._store.get_record(self._owner.scope, chain[-1].superseded_by)
            if nxt is None:
                break
            chain.append(nxt)
            seen.add(nxt.id)
        out = []
        for record in chain:
            reasons = [
                e.after or ""
                for e in self._owner.history(record.id)
                if e.op in ("supersede", "merge") and e.after
            ]
            out.append(Version(record, record.superseded_by, tuple(reasons)))
        return out

    def insert_many(
        self, items: Iterable[str | Mapping[str, Any]], *, actor: str | None = None
    ) -> list[str]:
        """Store many notes, embedded in one batch; each item gets its own id, in order.

        Each item is a text or a mapping of `insert`'s arguments (`text` required; also
        `consolidate`). Every item is checked before anything is written. Facts are
        consolidated as `insert` would, each against the scope and the items before it;
        the notes are written in one transaction, the links between them right after.
        """
        prepared: list[tuple[NewRecord, bool]] = []
        for position, item in enumerate(items):
            fields = {"text": item} if isinstance(item, str) else dict(item)
            consolidate = fields.pop("consolidate", True)
            if not isinstance(consolidate, bool):
                raise InvalidInputError(f"item {position}: consolidate must be true or false")
            try:
                prepared.append((self._prepare(**fields), consolidate))
            except TypeError as exc:
                raise InvalidInputError(f"item {position}: {exc}") from None
            except InvalidInputError as exc:
                raise InvalidInputError(f"item {position}: {exc}") from None
        if not prepared:
            return []
        who = actor or prepared[0][0].origin
        with self._store.scope_lock(self._owner.scope):
            return insert_batch(self, prepared, who)

    def prepare(self, text: str, **fields: Any) -> NewRecord:
        """A note checked, redacted and judged exactly as `insert` would, but not stored
        (for writers that store in their own transaction, such as background jobs)."""
        return self._prepare(text, **fields)

    def _store_all(self, records: list[NewRecord], actor: str) -> list[str]:
        owner = self._owner
        ranker = owner.memory.ranker
        records = [  # a vector already made goes into the same transaction as its note
            r
            if r.quarantined or r.vector is not None
            else replace(r, vector=ranker.vector_for(r.text))
            for r in records
        ]
        stored = self._store.insert_records(owner.scope, records, actor=actor)
        return [record.id for record in stored]

    def _prepare(
        self,
        text: str,
        *,
        source: str = "",
        origin: Origin = "agent",
        kind: Kind = "semantic",
        tags: Iterable[str] | None = None,
        metadata: dict[str, Any] | None = None,
        valid_from: datetime | None = None,
        valid_to: datetime | None = None,
        key: str | None = None,
        ahead: bool = False,
    ) -> NewRecord:
        """`ahead`: one note about to be written, embedded on a worker meanwhile."""
        owner = self._owner
        text, redacted = owner._clean(owner._text(text, "text"), "a note")
        if ahead:
            owner.memory.ranker.embed_soon(owner.scope, text)
        if not isinstance(source, str) or len(source) > MAX_SOURCE:
            raise InvalidInputError(f"source must be a string of at most {MAX_SOURCE} characters")
        check_text(source, "source", max_bytes=4 * MAX_SOURCE, allow_empty=True)
        (origin_checked,) = choices(origin, ORIGINS, "origin")
        (kind_checked,) = choices(kind, KINDS, "kind")
        verdict = owner.memory.trust.judge(text, origin_checked, learned=owner.memory.learned)
        meta = check_metadata(metadata)
        if redacted:
            meta["redacted"] = list(redacted)
        if verdict.families or verdict.learned is not None:
            meta["directive"] = {"score": verdict.score, "families": list(verdict.families)}
            if verdict.learned is not None:
                meta["directive"]["learned"] = verdict.learned
        meta.pop("neutralised", None)  # the guard's to set, not a caller's
        if verdict.spans:
            meta["neutralised"] = [list(span) for span in verdict.spans]
        now = owner.memory.now()
        start = aware(valid_from, "valid_from") or now
        end = aware(valid_to, "valid_to")
        if end is not None and end <= start:
            raise InvalidInputError("valid_to must be later than valid_from")
        key = _checked_key(key)
        return NewRecord(
            text=text,
            kind=kind_checked,  # type: ignore[arg-type]
            origin=origin_checked,  # type: ignore[arg-type]
            source=source,
            created_at=now,
            valid_from=start,
            valid_to=end,
            tags=tags_of(tags),
            metadata=meta,
            flags=verdict.flags,
            quarantined=verdict.quarantined,
            key=key,
        )

    def get(self, record_id: str) -> Record:
        record = self._store.get_record(self._owner.scope, str(record_id))
        if record is None:
            raise NotFoundError(f"no archival record {record_id!r} in this scope")
        return record

    def count(self, *, quarantined: bool | None = False) -> int:
        """How many notes: searchable ones (default), held ones (True) or all (None)."""
        return self._store.count_records(self._owner.scope, RecordFilter(quarantined=quarantined))

    def search(
        self,
        query: str,
        k: int = 5,
        *,
        tags: Iterable[str] | None = None,
        kinds: Iterable[str] | None = None,
        origins: Iterable[str] | None = None,
        source: str | None = None,
        start: datetime | None = None,
        end: datetime | None = None,
        as_of: datetime | None = None,
    ) -> list[Hit]:
        """The k best notes for a free-text question, best first: facts true now, or with
        `as_of`, facts that were true then (superseded ones included). A time the
        question names ("in May 2023", "last week", read against `as_of` or now)
        favours notes from then."""
        query = self._owner._text(query, "query")
        where = self._filter(
            tags=tags, kinds=kinds, origins=origins, source=source, start=start, end=end
        )
        scope = self._owner.scope
        allowed = None if where == RecordFilter() else self._store.filter_record_ids(scope, where)
        k = positive(k, "k", MAX_K)
        when = aware(as_of, "as_of")
        ranker = self._owner.memory.ranker
        now = self._owner.memory.now()
        # room for restatements the read side folds away; a note closed or restated
        # since still matches in its own words, and brings in the fact that closed it
        # (a change worded unlike the question)
        ranked = ranker.search(
            scope, query, k + SPARE, allowed=allowed, now=now, as_of=when,
            retired=when is None,
        )  # fmt: skip
        records = {r.id: r for r in self._store.get_records(scope, [r.id for r in ranked])}
        # A record deleted or held by another process since the index was read is skipped.
        hits = [
            Hit(records[r.id], r.score, records[r.id].flags, r.explain)
            for r in ranked
            if r.id in records and not records[r.id].quarantined
        ]
        if when is None:
            hits = self._successors(hits, now, allowed)
        facts = [h.record.id for h in hits[: k + SPARE] if h.record.kind != "episodic"]
        # of the notes kept beside each fact as possibly newer values, the newest
        newer: dict[str, Record] = {}
        for linked in self._store.newer_facts(scope, facts) if facts else []:
            old = linked.consolidated_with or ""
            # a newer value closed since: what closed it is newer still
            record = linked if when is not None else self._current(linked, now)
            if record is None:
                continue
            valid = record.valid_at(when) if when is not None else True
            newest = old not in newer or newer[old].valid_from < record.valid_from
            if valid and newest and (allowed is None or record.id in allowed):
                newer[old] = record
        cosine = ranker.cosines(scope, [*facts, *(r.id for r in newer.values())])
        texts = {h.record.id: h.record.text for h in hits[: k + SPARE] if h.record.id in facts}
        answers = ranker.answer_words(scope, query, texts)
        return arrange(hits, k, newer=newer, cosine=cosine, as_of=when, answers=answers)

    def _current(self, record: Record, now: datetime) -> Record | None:
        """The record itself if it is a current fact, else the current fact that closed it
        (followed down a chain of changes); None when there is none."""
        seen = {record.id}
        while not record.valid_at(now) and record.superseded_by and len(seen) < _CHAIN:
            found = self._store.get_record(self._owner.scope, record.superseded_by)
            if found is None or found.id in seen:
                break
            record = found
            seen.add(record.id)
        return record if record.valid_at(now) and not record.quarantined else None

    def _successors(self, hits: list[Hit], now: datetime, allowed: set[str] | None) -> list[Hit]:
        """The current hits, then the current fact that closed or restated each hit that
        is no longer one (followed down a chain of changes), if not found already.

        After the direct hits, not in the closed note's place: when a later change was
        missed, the fact that closed an old note may itself be out of date, and must not
        outrank what the question found directly (the read side still puts it first
        when it competes with another hit)."""
        direct: list[Hit] = []
        closed: list[tuple[Hit, Record]] = []
        for hit in hits:
            record = self._current(hit.record, now)
            if record is None:
                continue
            if allowed is not None and record.id not in allowed:
                continue
            if record.id == hit.record.id:
                direct.append(hit)
            else:
                closed.append((hit, record))
        placed = {hit.record.id for hit in direct}
        floor = direct[-1].score if direct else None
        for hit, record in closed:
            if record.id not in placed:
                placed.add(record.id)
                score = hit.score if floor is None else min(hit.score, floor)
                explain = f"{hit.explain}; matched {hit.record.id}, which it closed or restated"
                direct.append(Hit(record, score, record.flags, explain))
        return direct

    def delete(self, record_id: str, *, actor: str = "user") -> None:
        """Remove a note from the table and the text index; history keeps a tombstone."""
        owner = self._owner
        record = self.get(record_id)
        at = owner.memory.now()
        if not self._store.delete_record(owner.scope, record.id, actor=actor, at=at):
            raise NotFoundError(f"no archival record {record_id!r} in this scope")

    def quarantined(self, *, limit: int = 100, offset: int = 0) -> list[Record]:
        """Notes held for review (never returned by search), oldest first."""
        return self.list(limit=limit, offset=offset, quarantined=True)

    def release(self, record_id: str, *, actor: str = "reviewer") -> Record:
        """A reviewer's verdict that a held note is safe: it becomes searchable, flags kept."""
        record = self.get(record_id)
        if not record.quarantined:
            raise InvalidInputError(f"record {record.id!r} is not quarantined")
        owner = self._owner
        released = self._store.set_quarantined(
            owner.scope, record.id, False, actor=actor, at=owner.memory.now()
        )
        if released is None:
            raise NotFoundError(f"no archival record {record_id!r} in this scope")
        return released

    def hold(self, record_id: str, *, actor: str = "reviewer") -> Record:
        """Quarantine a searchable note by hand: it stays stored, search stops returning it."""
        record = self.get(record_id)
        if record.quarantined:
            raise InvalidInputError(f"record {record.id!r} is already quarantined")
        owner = self._owner
        held = self._store.set_quarantined(
            owner.scope, record.id, True, actor=actor, at=owner.memory.now()
        )
        if held is None:
            raise NotFoundError(f"no archival record {record_id!r} in this scope")
        return held

    def list(
        self,
        *,
        limit: int = 100,
        offset: int = 0,
        tags: Iterable[str] | None = None,
        kinds: Iterable[str] | None = None,
        origins: Iterable[str] | None = None,
        quarantined: bool | None = False,
        key: str | None = None,
        current: bool | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        """Records in insertion order (`newest_first`: the other way), filtered like
        `search`; `quarantined=True` lists the held ones instead, `None` both. `key` keeps
        the notes of one fact's slot, `current=True` those not closed (`False`: closed)."""
        if not isinstance(offset, int) or isinstance(offset, bool) or not 0 <= offset <= 10**15:
            raise InvalidInputError(
                f"offset must be a whole number from 0 to 10**15, got {offset!r}"
            )
        if quarantined not in (True, False, None):
            raise InvalidInputError(f"quarantined must be True, False or None, not {quarantined!r}")
        if current not in (True, False, None):
            raise InvalidInputError(f"current must be True, False or None, not {current!r}")
        where = self._filter(tags=tags, kinds=kinds, origins=origins)
        where = replace(where, quarantined=quarantined, key=_checked_key(key), current=current)
        return self._store.list_records(
            self._owner.scope,
            where,
            limit=positive(limit, "limit", 100_000),
            offset=offset,
            newest_first=bool(newest_first),
        )

    @staticmethod
    def _filter(
        *,
        tags: Iterable[str] | None = None,
        kinds: Iterable[str] | None = None,
        origins: Iterable[str] | None = None,
        source: str | None = None,
        start: datetime | None = None,
        end: datetime | None = None,
    ) -> RecordFilter:
        return RecordFilter(
            kinds=choices(kinds, KINDS, "kind"),
            origins=choices(origins, ORIGINS, "origin"),
            tags=tags_of(tags),
            source=source,
            start=aware(start, "start"),
            end=aware(end, "end"),
        )


def _checked_key(key: object) -> str | None:
    if key is not None and (not isinstance(key, str) or not _KEY.match(key)):
        raise InvalidInputError(
            f"key {key!r} must be 1-128 characters of letters, digits, '.', '_', ':' or '-'"
        )
    return key
