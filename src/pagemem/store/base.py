"""The store protocol: what every backend must do, always inside one scope.

Every method takes a Scope first and filters on all of tenant, user and agent in
the query itself; no method reads across scopes. Backends receive lexical search
terms already split into words and are responsible for quoting them safely.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from pagemem.models import (
    Block,
    HistoryEntry,
    Kind,
    Message,
    Origin,
    Record,
    RetentionRule,
    Role,
    Scope,
    ToolCall,
)
from pagemem.store.announce import Listener

__all__ = [
    "AdminStore",
    "AgentEntry",
    "ApiKey",
    "BlockStore",
    "Candidate",
    "ChangeFeed",
    "Collection",
    "IndexCache",
    "IndexRow",
    "Job",
    "JobStore",
    "MessageFilter",
    "MessageStore",
    "NewRecord",
    "RecordFilter",
    "RecordStore",
    "ScopeDump",
    "Store",
    "StoreSearch",
]

# What a search index covers: archival records, or evicted messages (recall).
Collection = Literal["records", "recall"]


# revision steps of a collection the change feed keeps; a reader further behind rebuilds
CHANGES_KEPT = 4096


@dataclass(frozen=True, slots=True)
class IndexRow:
    """What a search index needs of a record, read without building a full Record."""

    pk: int  # the store's row order, for paging through a scope
    id: str
    text: str
    created_at: float  # POSIX seconds
    origin: str
    speaker: str | None
    vector: bytes | None = None  # the stored vector of the model asked for, if any
    flags: tuple[str, ...] = ()
    valid_from: float = float("-inf")  # POSIX seconds; facts only
    valid_to: float = float("inf")
    expired: bool = False
    episodic: bool = False  # an event or conversation turn (messages always are)


@dataclass(frozen=True, slots=True)
class NewRecord:
    """A record as the memory layer hands it to the store; the store assigns the id."""

    text: str
    kind: Kind
    origin: Origin
    source: str
    created_at: datetime
    valid_from: datetime
    valid_to: datetime | None
    tags: tuple[str, ...]
    metadata: dict[str, Any]
    flags: tuple[str, ...]
    quarantined: bool = False
    key: str | None = None
    # what consolidation decided (see Record); a restatement is written already retired
    consolidation: str | None = None
    consolidated_with: str | None = None
    expired_at: datetime | None = None
    superseded_by: str | None = None
    # the note's embedding as (model id, float32 bytes), when it is known before the
    # write: stored in the same transaction as the note (one commit, not two)
    vector: tuple[str, bytes] | None = None


@dataclass(frozen=True, slots=True)
class RecordFilter:
    """Conditions applied inside the query. Empty tuples mean 'no condition'."""

    kinds: tuple[str, ...] = ()
    origins: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()  # a record matches when it has any of these tags
    source: str | None = None  # exact source text
    start: datetime | None = None  # created_at >= start
    end: datetime | None = None  # created_at < end
    quarantined: bool | None = False  # False: searchable notes; True: held ones; None: all
    key: str | None = None  # the fact's slot (`Record.key`)
    current: bool | None = None  # True: not closed (expired_at unset); False: closed


@dataclass(frozen=True, slots=True)
class MessageFilter:
    """Conditions on recall search; only evicted messages are searched."""

    roles: tuple[str, ...] = ()
    start: datetime | None = None
    end: datetime | None = None


@dataclass(frozen=True, slots=True)
class Job:
    """A unit of background work, claimed by one worker at a time."""

    id: int
    scope: Scope
    kind: str
    payload: dict[str, Any]
    attempts: int
    status: str = "running"
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Candidate:
    """An item a database-side search found, with what fusion needs to rank it."""

    id: str
    lexical: float  # the text-search rank (0: no word matched)
    cosine: float | None  # similarity to the query vector (None: not among the nearest)
    origin: str
    flags: tuple[str, ...]
    created_at: float  # POSIX seconds
    valid_from: float = float("-inf")  # POSIX seconds; facts only


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A REST API key as stored: never the key, only its hash, its tenant and its state."""

    key_hash: str
    tenant: str
    label: str
    created_at: datetime
    revoked_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class AgentEntry:
    """A named agent's stored settings; its memory is the scope (tenant, user, name)."""

    tenant: str
    user: str
    name: str
    settings: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ScopeDump:
    """Everything one scope holds, as export writes it and import restores it."""

    records: Sequence[Record]
    messages: Sequence[Message]
    blocks: Sequence[Block]
    summary: str
    summary_sources: tuple[str, ...]
    history: Sequence[HistoryEntry]
    retention: Sequence[RetentionRule]


class RecordStore(Protocol):
    """Archival notes: written, read, closed and restated, with their vectors."""

    def insert_record(self, scope: Scope, record: NewRecord, *, actor: str) -> Record: ...
    def insert_records(
        self, scope: Scope, records: Sequence[NewRecord], *, actor: str
    ) -> list[Record]:
        """Insert all or none, in one transaction, ids in order."""
        ...

    def get_record(self, scope: Scope, record_id: str) -> Record | None: ...
    def list_records(
        self,
        scope: Scope,
        where: RecordFilter,
        *,
        limit: int,
        offset: int,
        newest_first: bool = False,
    ) -> list[Record]:
        """In the order they were written (`newest_first`: the other way)."""
        ...

    def count_records(self, scope: Scope, where: RecordFilter) -> int: ...
    def delete_record(self, scope: Scope, record_id: str, *, actor: str, at: datetime) -> bool: ...
    def delete_records(
        self, scope: Scope, record_ids: Sequence[str], *, actor: str, at: datetime
    ) -> int:
        """Delete these records in one transaction, a tombstone each; return how many."""
        ...

    def get_records(self, scope: Scope, record_ids: Sequence[str]) -> list[Record]: ...
    def index_rows(
        self,
        scope: Scope,
        *,
        after: int,
        limit: int,
        collection: Collection = "records",
        model_id: str | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[IndexRow]:
        """Records (or evicted messages) of the scope with pk > after, in pk order, each
        with its stored vector of `model_id`; with `ids`, only those (searchable ones)."""
        ...

    def filter_record_ids(self, scope: Scope, where: RecordFilter) -> set[str]: ...
    def find_vectors(
        self,
        scope: Scope,
        model_id: str,
        texts: Sequence[str],
        *,
        collection: Collection = "records",
    ) -> dict[str, bytes]:
        """Vectors of items of the scope with exactly these texts, by text."""
        ...

    def put_vectors(
        self,
        scope: Scope,
        model_id: str,
        vectors: Sequence[tuple[str, bytes]],
        *,
        collection: Collection = "records",
    ) -> None: ...
    def retire(
        self,
        scope: Scope,
        record_id: str,
        *,
        valid_to: datetime | None,
        superseded_by: str | None,
        reason: str,
        op: str,
        actor: str,
        at: datetime,
    ) -> Record | None:
        """Close a current fact: it stops being true at `valid_to` (if given) and is
        expired now; nothing is deleted. The history records `op` and `reason`."""
        ...

    def restate(
        self, scope: Scope, record_id: str, *, source: str, reason: str, actor: str, at: datetime
    ) -> Record | None:
        """A restatement of this fact was stored (as its own retired record): count it
        and keep its source."""
        ...

    def current_facts(self, scope: Scope, *, key: str) -> list[Record]:
        """Current (unexpired, not held) facts of the scope with this key."""
        ...

    def set_consolidation(
        self, scope: Scope, record_id: str, outcome: str, other: str | None
    ) -> None:
        """Record what consolidation did with a note written before the decision was
        known (a batch, the consolidation pass)."""
        ...

    def newer_facts(self, scope: Scope, record_ids: Sequence[str]) -> list[Record]:
        """Facts written as possibly newer values of these records ("kept-both" with one
        of them), for the read side to rank first; closed ones too (what closed them is
        newer still)."""
        ...

    def set_quarantined(
        self, scope: Scope, record_id: str, held: bool, *, actor: str, at: datetime
    ) -> Record | None:
        """Hold a record for review or release it; None if it does not exist."""
        ...


class MessageStore(Protocol):
    """A scope's messages: in context until evicted, then searchable as recall; and the
    running summary of what was evicted."""

    def append_message(
        self,
        scope: Scope,
        *,
        role: Role,
        content: str,
        created_at: datetime,
        name: str | None = None,
        tool_call_id: str | None = None,
        extract: bool = False,
        tool_calls: Sequence[ToolCall] = (),
    ) -> Message:
        """Store a message; with `extract`, marked for fact extraction (in the same row, so
        it costs the write nothing); `sweep` turns marks into jobs."""
        ...

    def context_messages(self, scope: Scope) -> list[Message]: ...
    def evict_messages(
        self, scope: Scope, message_ids: Sequence[str], *, at: datetime
    ) -> list[Message]:
        """Move messages out of the context into recall; return those that moved."""
        ...

    def get_messages(self, scope: Scope, message_ids: Sequence[str]) -> list[Message]: ...
    def filter_message_ids(self, scope: Scope, where: MessageFilter) -> set[str]:
        """Ids of evicted messages that pass the filter."""
        ...

    def search_messages(
        self, scope: Scope, terms: Sequence[str], where: MessageFilter, *, limit: int
    ) -> list[Message]: ...
    def count_messages(self, scope: Scope, *, in_context: bool | None = None) -> int: ...
    def get_summary(self, scope: Scope) -> tuple[str, tuple[str, ...]]: ...
    def set_summary(
        self, scope: Scope, text: str, sources: Sequence[str], *, at: datetime
    ) -> None: ...
    def delete_messages(
        self, scope: Scope, message_ids: Sequence[str], *, actor: str, at: datetime
    ) -> int:
        """Remove messages (and their index entries and vectors); return how many."""
        ...


class BlockStore(Protocol):
    """Core memory blocks."""

    def get_block(self, scope: Scope, label: str) -> Block | None: ...
    def list_blocks(self, scope: Scope) -> list[Block]: ...
    def set_block(
        self,
        scope: Scope,
        label: str,
        value: str,
        *,
        limit: int,
        description: str,
        at: datetime,
        actor: str,
    ) -> Block: ...
    def delete_block(self, scope: Scope, label: str, *, actor: str, at: datetime) -> bool: ...


class JobStore(Protocol):
    """The durable queue of background work (extraction, consolidation, retention)."""

    def enqueue(self, scope: Scope, kind: str, payload: dict[str, Any], *, at: datetime) -> int: ...
    def claim(self, kinds: Sequence[str], *, at: datetime, lease_seconds: float) -> Job | None:
        """Take the oldest ready job (or one whose worker's lease ran out)."""
        ...

    def finish(
        self,
        job: Job,
        *,
        records: Sequence[NewRecord] = (),
        follow_up: str | None = None,
        actor: str,
        at: datetime,
    ) -> list[Record]:
        """Write the job's records, enqueue a `follow_up` job over them and mark the job
        done, all in one transaction: a job is applied whole or not at all. Nothing is
        written if another worker took the job over (its lease ran out)."""
        ...

    def fail(self, job: Job, error: str, *, at: datetime, retry_after: float | None) -> None: ...
    def sweep(self, *, at: datetime, limit: int = 500) -> int:
        """Turn messages marked for extraction into extract jobs, one per scope, in one
        transaction; return how many jobs were made."""
        ...

    def jobs(self, *, scope: Scope | None = None, status: str | None = None) -> list[Job]: ...


class ChangeFeed(Protocol):
    """What every index follows: each collection's revision, the items each step changed
    and a listener told after each commit; and the per-scope write lock."""

    def changes(
        self, scope: Scope, collection: Collection, after: int, until: int
    ) -> list[str] | None:
        """The change feed: the id of the item each revision step after `after` up to
        `until` (a revision the caller read) changed, in order; None when the feed cannot
        tell (trimmed, or a step that changed the whole scope, such as forget or
        restore): then the reader rebuilds."""
        ...

    def revision(self, scope: Scope, collection: Collection = "records") -> int:
        """A number that changes whenever the collection gains or loses an item
        (quarantined records are not part of the searchable collection)."""
        ...

    def listen(self, listener: Listener) -> None:
        """Have `listener(scope, collection, items)` told, once each write has committed,
        the items it changed in order (None: the whole collection, as after a forget or
        restore). This process's indexes follow the store through it."""
        ...

    def scope_lock(self, scope: Scope) -> AbstractContextManager[None]:
        """The scope's write lock, held across a read-decide-write (supersede on write) so
        concurrent writers, in this process or another, take turns."""
        ...

    def close(self) -> None: ...


class AdminStore(Protocol):
    """History, forgetting, retention, import, agents, API keys and the list of scopes."""

    def history(
        self,
        scope: Scope,
        *,
        target_id: str | None = None,
        op: str | None = None,
        limit: int = 1000,
        newest_first: bool = False,
    ) -> list[HistoryEntry]:
        """The scope's history in the order written (`newest_first`: the other way),
        optionally of one target or one kind of entry (`op`)."""
        ...

    def forget_scope(self, scope: Scope, *, actor: str, at: datetime) -> dict[str, int]:
        """Remove everything stored for the scope; history keeps one tombstone."""
        ...

    def find_text(self, scope: Scope, phrase: str) -> tuple[list[str], list[str]]:
        """Ids of records and of messages whose text contains `phrase` (any case)."""
        ...

    def scrub_history(self, scope: Scope, phrase: str) -> int:
        """Blank history texts of the scope that contain `phrase`; return how many rows."""
        ...

    def note_event(
        self,
        scope: Scope,
        *,
        op: str,
        target: str,
        target_id: str,
        text: str,
        actor: str,
        at: datetime,
    ) -> None:
        """A history row for a decision that changed no table (an approval asked and
        answered)."""
        ...

    def purge(self) -> None:
        """Make deleted text unrecoverable from the files (indexes rewritten, WAL emptied)."""
        ...

    def reset(self, scope: Scope) -> None:
        """Move the scope's revisions past the change feed, so every index of it, in every
        process, is read afresh: after a forget or retention, no index may keep the words
        of what was deleted."""
        ...

    def get_retention(self, scope: Scope) -> list[RetentionRule]: ...
    def set_retention(self, scope: Scope, rules: Sequence[RetentionRule]) -> None: ...
    def restore(self, scope: Scope, dump: ScopeDump, *, actor: str, at: datetime) -> None:
        """Write a dump into an empty scope, ids kept, in one transaction; refuse (and
        change nothing) if the scope holds anything."""
        ...

    def put_agent(
        self, tenant: str, user: str, name: str, settings: dict[str, Any], *, at: datetime
    ) -> None: ...
    def get_agent(self, tenant: str, user: str, name: str) -> dict[str, Any] | None: ...
    def agents(self, *, tenant: str | None = None, user: str | None = None) -> list[AgentEntry]:
        """The named agents of one user, or (admin) of a tenant or of every tenant."""
        ...

    def add_api_key(
        self,
        key_hash: str,
        tenant: str,
        *,
        label: str,
        at: datetime,
        revoked_at: datetime | None = None,
    ) -> None:
        """Store a key's hash; `revoked_at` restores a key that was already revoked."""
        ...

    def api_keys(self) -> list[ApiKey]:
        """Admin only: every key hash, revoked ones too, oldest first."""
        ...

    def tenant_for_key(self, key_hash: str) -> str | None:
        """The tenant of an unrevoked key (by its hash), or None."""
        ...

    def revoke_api_key(self, key_hash: str, *, at: datetime) -> bool: ...
    def list_scopes(self, *, tenant: str | None = None) -> list[Scope]:
        """Admin only: every scope that has stored anything (optionally of one tenant)."""
        ...


class Store(RecordStore, MessageStore, BlockStore, JobStore, ChangeFeed, AdminStore, Protocol):
    """A scoped, durable home for records, messages, blocks, summaries and history: every
    role at once, as both backends implement it. A part of pagemem that needs one role
    takes that protocol."""


@runtime_checkable
class StoreSearch(Protocol):
    """A store that can search a scope itself (text index and vector index), for scopes
    too large to hold in each process's memory."""

    def search_in_store(
        self,
        scope: Scope,
        collection: Collection,
        *,
        words: Sequence[str],
        vector: bytes | None,
        model_id: str | None,
        limit: int,
        now: datetime | None = None,
        as_of: datetime | None = None,
        only: Sequence[str] | None = None,
        sharing_words: bool = False,
        retired: bool = False,
    ) -> list[Candidate]:
        """The best `limit` items by text rank and the nearest `limit` by vector, merged;
        archival notes filtered to those valid `now` (or `as_of`; with `retired`, notes a
        later one closed or restated too), as in-process search; with `only`, among those
        ids alone. With `sharing_words` (and a vector), only the nearest `limit` items
        that share a word, each with lexical 1.0."""
        ...

    def ensure_vector_index(
        self, scope: Scope, collection: Collection, model_id: str, dim: int
    ) -> None:
        """Have the scope's own vector index built (once, in the background: searches are
        exact, and slower, until it is ready); returns at once."""
        ...

    def wait_for_vector_indexes(self, timeout: float | None = None) -> bool:
        """Wait for the index builds this process started; False if some still run."""
        ...


@runtime_checkable
class IndexCache(Protocol):
    """A store on this machine's disk, beside which a process may keep snapshots of its
    search indexes for the next process to start from (SQLite files)."""

    def index_folder(self) -> Path | None:
        """Where snapshots go; None when there is nowhere (an in-memory database)."""
        ...

    def instance(self) -> str:
        """An id made when the database was created: a snapshot of another database at
        the same path is never taken for this one's."""
        ...

    def writes_held(self) -> AbstractContextManager[None]:
        """No write commits while this is held (a snapshot is put in place under it, after
        checking that nothing changed since it was read)."""
        ...

    def index_keys(self, scope: Scope, collection: Collection) -> list[tuple[str, float, bool]]:
        """Every searchable item of the scope as (id, valid_to, expired), in row order: what
        an index read from a snapshot is checked against when the feed cannot say what
        changed since."""
        ...
