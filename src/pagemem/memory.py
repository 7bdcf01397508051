"""The scoped facade every surface talks to: `Memory(path).scope(tenant, user)`.

Surfaces (tools, CLI, servers, the agent) never touch the store directly: this
module validates input, stamps time and provenance, runs the guard on every
write, and turns free-text questions into store queries.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pagemem.errors import BlockOverflowError, InvalidInputError, NotFoundError
from pagemem.guard import flags_for, redact
from pagemem.models import (
    KINDS,
    ORIGINS,
    ROLES,
    Block,
    HistoryEntry,
    Hit,
    Kind,
    Message,
    Origin,
    Record,
    Role,
    Scope,
    check_text,
)
from pagemem.retrieval.embed import Embedder, OnnxEmbedder
from pagemem.retrieval.lexical import query_terms
from pagemem.retrieval.ranker import Ranker, RetrievalConfig
from pagemem.store.base import MessageFilter, NewRecord, RecordFilter, Store
from pagemem.store.sqlite import SQLiteStore
from pagemem.tokens import TokenCounter, get_counter

__all__ = ["Archive", "Blocks", "Forgetting", "Memory", "Recall", "ScopedMemory"]

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]

DEFAULT_BLOCK_LIMIT = 2000
MAX_K = 1000
_LABEL = re.compile(r"^[a-z][a-z0-9_\-]{0,63}$")
_MAX_SOURCE = 1000
_MAX_TAG = 64


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _aware(value: datetime | None, what: str) -> datetime | None:
    """Naive datetimes are read as UTC; anything else is rejected."""
    if value is None:
        return None
    if not isinstance(value, datetime):
        raise InvalidInputError(f"{what} must be a datetime, not {type(value).__name__}")
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


def _choices(
    values: Iterable[str] | str | None, allowed: Sequence[str], what: str
) -> tuple[str, ...]:
    if values is None:
        return ()
    items = (values,) if isinstance(values, str) else tuple(values)
    for item in items:
        if item not in allowed:
            raise InvalidInputError(
                f"unknown {what} {item!r}; expected one of {', '.join(allowed)}"
            )
    return items


def _tags(tags: Iterable[str] | str | None) -> tuple[str, ...]:
    if tags is None:
        return ()
    items = (tags,) if isinstance(tags, str) else tuple(tags)
    for tag in items:
        if not isinstance(tag, str) or not tag.strip() or len(tag) > _MAX_TAG:
            raise InvalidInputError(
                f"tags must be non-empty strings of at most {_MAX_TAG} characters"
            )
        check_text(tag, "tag", max_bytes=4 * _MAX_TAG)
    return tuple(dict.fromkeys(items))


def _positive(value: int, what: str, ceiling: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= ceiling:
        raise InvalidInputError(f"{what} must be a whole number from 1 to {ceiling}, got {value!r}")
    return value


class Memory:
    """A memory database: open it once, then work through `scope(...)`.

    `target` is a SQLite path (":memory:" for a throwaway one) or a Store.
    `tokenizer` is what block caps are counted in.
    """

    def __init__(
        self,
        target: str | Path | Store = ":memory:",
        *,
        tokenizer: str | TokenCounter = "o200k_base",
        clock: Clock | None = None,
        max_text_bytes: int = 1_048_576,
        redact_secrets: bool = True,
        retrieval: RetrievalConfig | None = None,
        embedder: Embedder | Literal["default"] | None = "default",
    ) -> None:
        self.store: Store = SQLiteStore(target) if isinstance(target, str | Path) else target
        if isinstance(embedder, str):
            if embedder != "default":
                raise InvalidInputError(
                    f"embedder must be 'default', None or an Embedder, got {embedder!r}"
                )
            embedder = OnnxEmbedder()
        self.ranker = Ranker(self.store, retrieval, embedder)
        self.counter = get_counter(tokenizer)
        self.clock = clock or _utc_now
        self.max_text_bytes = max_text_bytes
        self.redact_secrets = redact_secrets

    def scope(self, tenant: str, user: str, agent: str | None = None) -> ScopedMemory:
        return ScopedMemory(self, Scope(tenant, user, agent))

    def scopes(self, *, tenant: str | None = None) -> list[ScopedMemory]:
        """Admin: every scope with stored data (for reindexing, export and retention jobs)."""
        return [ScopedMemory(self, scope) for scope in self.store.list_scopes(tenant=tenant)]

    def forget_tenant(self, tenant: str, *, actor: str = "admin") -> int:
        """Forget every scope of a tenant; return how many scopes were forgotten."""
        scopes = self.scopes(tenant=tenant)
        for me in scopes:
            me.forget_all(actor=actor)
        return len(scopes)

    def now(self) -> datetime:
        return self.clock()

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class Forgetting:
    """What `forget` found (and, when `done`, removed)."""

    phrase: str
    records: list[Record]
    messages: list[Message]
    blocks: list[str]
    done: bool


class ScopedMemory:
    """One tenant's user's (or agent's) memory: archive, recall, blocks and history."""

    def __init__(self, memory: Memory, scope: Scope) -> None:
        self.memory = memory
        self.scope = scope
        self.archive = Archive(self)
        self.recall = Recall(self)
        self.blocks = Blocks(self)

    @property
    def counter(self) -> TokenCounter:
        return self.memory.counter

    def forget_all(self, *, actor: str = "user") -> dict[str, int]:
        """Remove everything stored for this scope: notes, messages, blocks, summary and
        history (one tombstone stays). Returns how many rows each table lost."""
        store = self.memory.store
        counts = store.forget_scope(self.scope, actor=actor, at=self.memory.now())
        self.memory.ranker.forget(self.scope)
        store.purge()
        return counts

    def forget(self, phrase: str, *, confirm: bool = False, actor: str = "user") -> Forgetting:
        """Everything that mentions `phrase` (any case): previewed, or removed with `confirm`.

        Notes and messages that contain it are deleted; blocks and the running summary
        have it replaced by "[forgotten]"; history texts that contain it are blanked.
        A live `Context` of this scope should be re-created afterwards.
        """
        phrase = self._text(phrase, "phrase")
        store = self.memory.store
        record_ids, message_ids = store.find_text(self.scope, phrase)
        records = store.get_records(self.scope, record_ids)
        messages = store.get_messages(self.scope, message_ids)
        blocks = [b.label for b in self.blocks.list() if phrase.lower() in b.value.lower()]
        plan = Forgetting(phrase, records, messages, blocks, done=False)
        if not confirm:
            return plan
        at = self.memory.now()
        for record_id in record_ids:
            store.delete_record(self.scope, record_id, actor=actor, at=at)
        store.delete_messages(self.scope, message_ids, actor=actor, at=at)
        pattern = re.compile(re.escape(phrase), re.IGNORECASE)
        for label in blocks:
            block = self.blocks.get(label)
            self.blocks.set(label, pattern.sub("[forgotten]", block.value), actor=actor)
        summary, sources = store.get_summary(self.scope)
        if summary:
            kept = [source for source in sources if source not in set(message_ids)]
            store.set_summary(self.scope, pattern.sub("[forgotten]", summary), kept, at=at)
        store.scrub_history(self.scope, phrase)
        self.memory.ranker.forget(self.scope)
        store.purge()
        return Forgetting(phrase, records, messages, blocks, done=True)

    def reindex(self) -> int:
        """Embed every note that has no vector of the current model; return how many."""
        return self.memory.ranker.reindex(self.scope)

    def history(self, target_id: str | None = None, *, limit: int = 1000) -> list[HistoryEntry]:
        """Every write in this scope, oldest first (optionally for one record or block)."""
        return self.memory.store.history(
            self.scope, target_id=target_id, limit=_positive(limit, "limit", 100_000)
        )

    def _clean(self, text: str, what: str) -> tuple[str, tuple[str, ...]]:
        """Replace secrets before a write; report the kinds (never the values)."""
        if not self.memory.redact_secrets:
            return text, ()
        result = redact(text)
        if result.changed:
            log.info("redacted %s from %s in %s", ", ".join(result.kinds), what, self.scope)
        return result.text, result.kinds

    def _text(self, text: object, what: str, *, allow_empty: bool = False) -> str:
        return check_text(text, what, max_bytes=self.memory.max_text_bytes, allow_empty=allow_empty)

    def __repr__(self) -> str:
        return f"<ScopedMemory {self.scope}>"


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
        actor: str | None = None,
    ) -> str:
        """Store a note and return its id. `origin` says who it came from."""
        record = self._prepare(
            text,
            source=source,
            origin=origin,
            kind=kind,
            tags=tags,
            metadata=metadata,
            valid_from=valid_from,
            valid_to=valid_to,
        )
        return self._store_all([record], actor or record.origin)[0]

    def insert_many(
        self, items: Iterable[str | Mapping[str, Any]], *, actor: str | None = None
    ) -> list[str]:
        """Store many notes in one transaction, embedded in batches; all or nothing.

        Each item is a text or a mapping of `insert`'s arguments (`text` required).
        Every item is checked before anything is written.
        """
        prepared = []
        for position, item in enumerate(items):
            fields = {"text": item} if isinstance(item, str) else dict(item)
            try:
                prepared.append(self._prepare(**fields))
            except TypeError as exc:
                raise InvalidInputError(f"item {position}: {exc}") from None
            except InvalidInputError as exc:
                raise InvalidInputError(f"item {position}: {exc}") from None
        origin = prepared[0].origin if prepared else "agent"
        return self._store_all(prepared, actor or origin)

    def _store_all(self, records: list[NewRecord], actor: str) -> list[str]:
        owner = self._owner
        stored = self._store.insert_records(owner.scope, records, actor=actor)
        if stored:
            owner.memory.ranker.added(owner.scope, stored)
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
    ) -> NewRecord:
        owner = self._owner
        text, redacted = owner._clean(owner._text(text, "text"), "a note")
        if not isinstance(source, str) or len(source) > _MAX_SOURCE:
            raise InvalidInputError(f"source must be a string of at most {_MAX_SOURCE} characters")
        check_text(source, "source", max_bytes=4 * _MAX_SOURCE, allow_empty=True)
        (origin_checked,) = _choices(origin, ORIGINS, "origin")
        (kind_checked,) = _choices(kind, KINDS, "kind")
        meta = dict(metadata or {})
        if redacted:
            meta["redacted"] = list(redacted)
        try:
            json.dumps(meta, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise InvalidInputError(f"metadata must be JSON-serialisable: {exc}") from None
        now = owner.memory.now()
        start = _aware(valid_from, "valid_from") or now
        end = _aware(valid_to, "valid_to")
        if end is not None and end <= start:
            raise InvalidInputError("valid_to must be later than valid_from")
        return NewRecord(
            text=text,
            kind=kind_checked,  # type: ignore[arg-type]
            origin=origin_checked,  # type: ignore[arg-type]
            source=source,
            created_at=now,
            valid_from=start,
            valid_to=end,
            tags=_tags(tags),
            metadata=meta,
            flags=flags_for(text),
        )

    def get(self, record_id: str) -> Record:
        record = self._store.get_record(self._owner.scope, str(record_id))
        if record is None:
            raise NotFoundError(f"no archival record {record_id!r} in this scope")
        return record

    def count(self) -> int:
        return self._store.count_records(self._owner.scope, RecordFilter())

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
    ) -> list[Hit]:
        """The k best notes for a free-text question, best first."""
        query = self._owner._text(query, "query", allow_empty=True)
        where = self._filter(
            tags=tags, kinds=kinds, origins=origins, source=source, start=start, end=end
        )
        scope = self._owner.scope
        allowed = None if where == RecordFilter() else self._store.filter_record_ids(scope, where)
        ranked = self._owner.memory.ranker.search(
            scope, query, _positive(k, "k", MAX_K), allowed=allowed, now=self._owner.memory.now()
        )
        records = {r.id: r for r in self._store.get_records(scope, [r.id for r in ranked])}
        # A record deleted by another process since the index was read is skipped.
        return [
            Hit(records[r.id], r.score, records[r.id].flags, r.explain)
            for r in ranked
            if r.id in records
        ]

    def delete(self, record_id: str, *, actor: str = "user") -> None:
        """Remove a note from the table and the text index; history keeps a tombstone."""
        owner = self._owner
        if not self._store.delete_record(
            owner.scope, str(record_id), actor=actor, at=owner.memory.now()
        ):
            raise NotFoundError(f"no archival record {record_id!r} in this scope")
        owner.memory.ranker.removed(owner.scope, str(record_id))

    def list(
        self,
        *,
        limit: int = 100,
        offset: int = 0,
        tags: Iterable[str] | None = None,
        kinds: Iterable[str] | None = None,
        origins: Iterable[str] | None = None,
    ) -> list[Record]:
        """Records in insertion order, filtered like `search`."""
        if not isinstance(offset, int) or offset < 0:
            raise InvalidInputError(f"offset must be a whole number >= 0, got {offset!r}")
        where = self._filter(tags=tags, kinds=kinds, origins=origins)
        return self._store.list_records(
            self._owner.scope, where, limit=_positive(limit, "limit", 100_000), offset=offset
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
            kinds=_choices(kinds, KINDS, "kind"),
            origins=_choices(origins, ORIGINS, "origin"),
            tags=_tags(tags),
            source=source,
            start=_aware(start, "start"),
            end=_aware(end, "end"),
        )


class Recall:
    """Every message of the conversation; evicted ones are searchable here."""

    def __init__(self, owner: ScopedMemory) -> None:
        self._owner = owner
        self._store = owner.memory.store

    def append(
        self,
        role: Role,
        content: str,
        *,
        name: str | None = None,
        tool_call_id: str | None = None,
    ) -> Message:
        """Store a message as part of the live context (not yet recall)."""
        _choices(role, ROLES, "role")
        content, _ = self._owner._clean(
            self._owner._text(content, "message content", allow_empty=True), "a message"
        )
        return self._store.append_message(
            self._owner.scope,
            role=role,
            content=content,
            created_at=self._owner.memory.now(),
            name=name,
            tool_call_id=tool_call_id,
        )

    def in_context(self) -> list[Message]:
        return self._store.context_messages(self._owner.scope)

    def evict(self, message_ids: Sequence[str]) -> list[Message]:
        """Move messages from the context to recall; return the ones that moved."""
        scope = self._owner.scope
        moved = self._store.evict_messages(scope, message_ids, at=self._owner.memory.now())
        if moved:
            self._owner.memory.ranker.evicted(scope, moved)
        return moved

    def count(self) -> int:
        """How many messages have been paged out to recall."""
        return self._store.count_messages(self._owner.scope, in_context=False)

    def search(
        self,
        query: str,
        *,
        roles: Iterable[str] | None = None,
        start: datetime | None = None,
        end: datetime | None = None,
        limit: int = 10,
        order: Literal["newest", "relevance"] = "newest",
    ) -> list[Message]:
        """Evicted messages about the query.

        `order="newest"`: messages that contain a query word, newest first.
        `order="relevance"`: the archive's hybrid ranking over recall, best first.
        """
        query = self._owner._text(query, "query", allow_empty=True)
        where = MessageFilter(
            roles=_choices(roles, ROLES, "role"),
            start=_aware(start, "start"),
            end=_aware(end, "end"),
        )
        limit = _positive(limit, "limit", MAX_K)
        scope = self._owner.scope
        if order == "newest":
            return self._store.search_messages(scope, query_terms(query), where, limit=limit)
        if order != "relevance":
            raise InvalidInputError(f"order must be 'newest' or 'relevance', got {order!r}")
        allowed = None if where == MessageFilter() else self._store.filter_message_ids(scope, where)
        ranked = self._owner.memory.ranker.search(
            scope, query, limit, collection="recall", allowed=allowed, now=self._owner.memory.now()
        )
        found = {m.id: m for m in self._store.get_messages(scope, [r.id for r in ranked])}
        return [found[r.id] for r in ranked if r.id in found]

    def summary(self) -> str:
        """The running summary of evicted messages."""
        return self._store.get_summary(self._owner.scope)[0]

    def summary_sources(self) -> tuple[str, ...]:
        """Ids of the messages folded into the running summary."""
        return self._store.get_summary(self._owner.scope)[1]

    def set_summary(self, text: str, sources: Sequence[str]) -> None:
        text, _ = self._owner._clean(
            self._owner._text(text, "summary", allow_empty=True), "the summary"
        )
        self._store.set_summary(self._owner.scope, text, sources, at=self._owner.memory.now())


class Blocks:
    """Core memory: labelled blocks always rendered into the prompt, each capped in tokens."""

    def __init__(self, owner: ScopedMemory) -> None:
        self._owner = owner
        self._store = owner.memory.store

    def get(self, label: str) -> Block:
        block = self._store.get_block(self._owner.scope, self._label(label))
        if block is None:
            known = ", ".join(b.label for b in self.list()) or "none"
            raise NotFoundError(f"no core memory block {label!r}; blocks here: {known}")
        return block

    def list(self) -> list[Block]:
        return self._store.list_blocks(self._owner.scope)

    def tokens(self, label: str) -> int:
        return self._owner.counter.count(self.get(label).value)

    def set(
        self,
        label: str,
        value: str,
        *,
        limit: int | None = None,
        description: str | None = None,
        actor: str = "user",
    ) -> Block:
        """Create or overwrite a block; refused if `value` exceeds the cap."""
        label = self._label(label)
        value, _ = self._owner._clean(
            self._owner._text(value, f"block '{label}'", allow_empty=True), f"block '{label}'"
        )
        existing = self._store.get_block(self._owner.scope, label)
        if limit is None:
            limit = existing.limit if existing else DEFAULT_BLOCK_LIMIT
        limit = _positive(limit, "limit", 1_000_000)
        if description is None:
            description = existing.description if existing else ""
        tokens = self._owner.counter.count(value)
        if tokens > limit:
            raise BlockOverflowError(label, tokens, limit)
        return self._store.set_block(
            self._owner.scope,
            label,
            value,
            limit=limit,
            description=description,
            at=self._owner.memory.now(),
            actor=actor,
        )

    def append(self, label: str, content: str, *, actor: str = "agent") -> Block:
        """Add a line to a block (refused, unchanged, if it would exceed the cap)."""
        block = self.get(label)
        content = self._owner._text(content, "content")
        value = f"{block.value}\n{content}" if block.value else content
        return self.set(label, value, actor=actor)

    def replace(self, label: str, old: str, new: str, *, actor: str = "agent") -> Block:
        """Replace the one occurrence of `old` in a block with `new`."""
        block = self.get(label)
        old = self._owner._text(old, "old content")
        new = self._owner._text(new, "new content", allow_empty=True)
        found = block.value.count(old)
        if found == 0:
            raise InvalidInputError(f"block '{block.label}' does not contain {old!r}")
        if found > 1:
            raise InvalidInputError(
                f"block '{block.label}' contains {old!r} {found} times; quote more of it"
            )
        return self.set(label, block.value.replace(old, new), actor=actor)

    def delete(self, label: str, *, actor: str = "user") -> None:
        if not self._store.delete_block(
            self._owner.scope, self._label(label), actor=actor, at=self._owner.memory.now()
        ):
            raise NotFoundError(f"no core memory block {label!r}")

    @staticmethod
    def _label(label: object) -> str:
        if not isinstance(label, str) or not _LABEL.match(label):
            raise InvalidInputError(
                f"block label {label!r} must be 1-64 lowercase letters, digits, '_' or '-', "
                "starting with a letter"
            )
        return label
