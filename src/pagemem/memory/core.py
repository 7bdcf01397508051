"""The scoped facade every surface talks to: `Memory(path).scope(tenant, user)`.

Surfaces (tools, CLI, servers, the agent) never touch the store directly: this
package validates input, stamps time and provenance, runs the guard on every
write, and turns free-text questions into store queries.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any, Literal

from pagemem.consolidate import Consolidator
from pagemem.errors import InvalidInputError, NotFoundError
from pagemem.extract import Extractor, RuleExtractor
from pagemem.guard import TrustPolicy, redact
from pagemem.guard.learned import LearnedDirectives
from pagemem.memory.agents import Agents
from pagemem.memory.archive import Archive
from pagemem.memory.blocks import Blocks
from pagemem.memory.checks import positive, utc_now
from pagemem.memory.consolidation import Consolidation, consolidate_scope
from pagemem.memory.recall import Recall
from pagemem.memory.retention import Expired, Retention
from pagemem.memory.transfer import Imported, export_scope, import_scope, jsonl
from pagemem.models import ApiKeyInfo, HistoryEntry, Message, Record, Scope, check_text
from pagemem.retrieval.embed import Embedder, OnnxEmbedder
from pagemem.retrieval.ranker import Ranker, RetrievalConfig
from pagemem.store import open_store
from pagemem.store.base import Job, Store
from pagemem.tokens import TokenCounter, get_counter

__all__ = ["Forgetting", "Memory", "ScopedMemory"]

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]


def _hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _key_id(key_hash: str) -> str:
    """A key's short id: "k" and the first 10 hex digits of its hash."""
    return "k" + key_hash[:10]


def _shown(key: object) -> str:
    """A key named in an error without repeating a secret."""
    if isinstance(key, str) and key.startswith("pm_"):
        return "that key"
    return repr(key)[:40]


class Memory:
    """A memory database: open it once, then work through `scope(...)`.

    `target` is a SQLite path (":memory:" for a throwaway one), a PostgreSQL URL
    ("postgresql://...") or a Store.
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
        trust: TrustPolicy | None = None,
        extractor: Extractor | None = None,
        consolidator: Consolidator | None = None,
        embedder: Embedder | Literal["default"] | None = "default",
    ) -> None:
        self.store: Store = open_store(target) if isinstance(target, str | Path) else target
        if isinstance(embedder, str):
            if embedder != "default":
                raise InvalidInputError(
                    f"embedder must be 'default', None or an Embedder, got {embedder!r}"
                )
            embedder = OnnxEmbedder()
        self.consolidator = consolidator or Consolidator()
        self.extractor: Extractor = extractor or RuleExtractor()
        self.trust = trust or TrustPolicy()
        self.ranker = Ranker(self.store, retrieval, embedder, self.trust)
        self.learned = LearnedDirectives.bundled()
        self.counter = get_counter(tokenizer)
        self.clock = clock or utc_now
        self.max_text_bytes = max_text_bytes
        self.redact_secrets = redact_secrets

    def scope(self, tenant: str, user: str, agent: str | None = None) -> ScopedMemory:
        return ScopedMemory(self, Scope(tenant, user, agent))

    def agents(self, tenant: str, user: str) -> Agents:
        """The named agents of a user (each with its own memory: `scope(tenant, user, name)`)."""
        return Agents(self, tenant, user)

    def scopes(self, *, tenant: str | None = None) -> list[ScopedMemory]:
        """Admin: every scope with stored data (for reindexing, export and retention jobs)."""
        return [ScopedMemory(self, scope) for scope in self.store.list_scopes(tenant=tenant)]

    def jobs(self, *, status: str | None = None) -> list[Job]:
        """Admin: the background job queue of every scope (optionally in one state)."""
        return self.store.jobs(status=status)

    def forget_tenant(self, tenant: str, *, actor: str = "admin") -> int:
        """Forget every scope of a tenant; return how many scopes were forgotten."""
        scopes = self.scopes(tenant=tenant)
        for me in scopes:
            me.forget_all(actor=actor)
        return len(scopes)

    def apply_retention(self, *, tenant: str | None = None) -> dict[Scope, Expired]:
        """Apply every scope's retention rules now; the scopes that lost something."""
        done = {}
        for me in self.scopes(tenant=tenant):
            expired = me.retention.apply()
            if expired:
                done[me.scope] = expired
        return done

    def consolidate(
        self, *, tenant: str | None = None, dry_run: bool = False
    ) -> dict[Scope, Consolidation]:
        """The consolidation pass over every scope (of a tenant); the scopes it changed."""
        done = {}
        for me in self.scopes(tenant=tenant):
            result = me.consolidate(dry_run=dry_run)
            if result:
                done[me.scope] = result
        return done

    def issue_api_key(self, tenant: str, *, label: str = "") -> str:
        """A new API key for a tenant, shown once: only its hash is stored."""
        Scope(tenant, "key-check")  # the same rules as any scope part
        key = "pm_" + secrets.token_urlsafe(32)
        self.store.add_api_key(_hash_key(key), tenant, label=label, at=self.now())
        return key

    def tenant_for_api_key(self, key: str) -> str | None:
        """The tenant a key belongs to (None for an unknown or revoked key)."""
        if not isinstance(key, str) or not key.startswith("pm_") or len(key) > 200:
            return None
        return self.store.tenant_for_key(_hash_key(key))

    def api_keys(self, *, tenant: str | None = None) -> list[ApiKeyInfo]:
        """Every key (revoked ones too), oldest first, by its short id: never the key."""
        return [
            ApiKeyInfo(_key_id(k.key_hash), k.tenant, k.label, k.created_at, k.revoked_at)
            for k in self.store.api_keys()
            if tenant is None or k.tenant == tenant
        ]

    def revoke_api_key(self, key: str) -> bool:
        """Revoke a key given in full ("pm_...") or by its short id ("k3f9a2b1c0d");
        raises NotFoundError when no live key matches."""
        if isinstance(key, str) and key.startswith("pm_"):
            key_hash = _hash_key(key)
        else:
            found = [k.key_hash for k in self.store.api_keys() if _key_id(k.key_hash) == key]
            key_hash = found[0] if len(found) == 1 else ""
        if not key_hash or not self.store.revoke_api_key(key_hash, at=self.now()):
            raise NotFoundError(f"no live key matches {_shown(key)}")
        return True

    def now(self) -> datetime:
        return self.clock()

    def close(self) -> None:
        """Write what the next process can start from (index snapshots), then close."""
        try:
            self.ranker.close()
        finally:
            self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


APPROVAL_ANSWERS = ("approved", "refused", "no approver")


@dataclass(frozen=True, slots=True)
class Approval:
    """A call held for approval: when, which tool with which arguments, why, the answer."""

    at: datetime
    tool: str
    arguments: dict[str, Any]
    why: str
    answer: str


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
        self.retention = Retention(self)

    @property
    def counter(self) -> TokenCounter:
        return self.memory.counter

    def forget_all(self, *, actor: str = "user") -> dict[str, int]:
        """Remove everything stored for this scope: notes, messages, blocks, summary and
        history (one tombstone stays). Returns how many rows each table lost."""
        store = self.memory.store
        counts = store.forget_scope(self.scope, actor=actor, at=self.memory.now())
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
        store.reset(self.scope)  # no index, here or in another process, keeps its words
        store.purge()
        return Forgetting(phrase, records, messages, blocks, done=True)

    def export(self) -> Iterator[dict[str, Any]]:
        """Everything stored for this scope, as JSON-ready lines (header first)."""
        return export_scope(self)

    def export_jsonl(self, out: IO[str]) -> int:
        """Write the export as JSON lines; return how many lines."""
        count = 0
        for line in self.export():
            out.write(jsonl(line))
            count += 1
        return count

    def restore(
        self, lines: Iterable[str | Mapping[str, Any]], *, actor: str = "import"
    ) -> Imported:
        """Import an export (JSON lines or parsed dicts) into this scope, which must be
        empty. All or nothing; secrets are redacted and notes judged again."""
        return import_scope(self, lines, actor=actor)

    def extract(self, messages: Sequence[Message | str]) -> int:
        """Queue extraction of durable facts from these messages (or message ids); returns
        the job id at once. A `JobRunner` or `JobWorker` does the work."""
        ids = [m.id if isinstance(m, Message) else str(m) for m in messages]
        if not ids:
            raise InvalidInputError("no messages to extract from")
        found = {m.id for m in self.memory.store.get_messages(self.scope, ids)}
        missing = [i for i in ids if i not in found]
        if missing:
            raise InvalidInputError(f"no message {missing[0]!r} in this scope")
        return self.memory.store.enqueue(
            self.scope, "extract", {"messages": ids}, at=self.memory.now()
        )

    def consolidate(
        self, *, dry_run: bool = False, only: Sequence[str] | None = None
    ) -> Consolidation:
        """Fold restatements into the facts they repeat and close facts a later one
        changed; nothing is deleted, a second pass finds nothing (see consolidation)."""
        return consolidate_scope(self, dry_run=dry_run, only=only)

    def reindex(self) -> int:
        """Embed every note that has no vector of the current model; return how many."""
        return self.memory.ranker.reindex(self.scope)

    def history(self, target_id: str | None = None, *, limit: int = 1000) -> list[HistoryEntry]:
        """Every write in this scope, oldest first (optionally for one record or block)."""
        return self.memory.store.history(
            self.scope, target_id=target_id, limit=positive(limit, "limit", 100_000)
        )

    def note_approval(self, tool: str, arguments: Mapping[str, Any], why: str, answer: str) -> None:
        """Keep, in the history, that a call of `tool` was held for approval, why, and the
        answer ("approved", "refused", or "no approver"): what a reviewer looks back on.
        Secrets in the arguments are redacted like any text stored."""
        if answer not in APPROVAL_ANSWERS:
            raise InvalidInputError(f"answer must be one of {', '.join(APPROVAL_ANSWERS)}")
        text = json.dumps({"arguments": dict(arguments), "why": why, "answer": answer}, default=str)
        cleaned, _ = self._clean(text, "an approval")
        self.memory.store.note_event(
            self.scope,
            op="approval",
            target="tool",
            target_id=self._text(tool, "tool name"),
            text=cleaned,
            actor="approver",
            at=self.memory.now(),
        )

    def approvals(self, *, limit: int = 100) -> list[Approval]:
        """The calls held for approval in this scope, newest first, with their answers."""
        entries = self.memory.store.history(
            self.scope, op="approval", limit=positive(limit, "limit", 100_000), newest_first=True
        )
        out = []
        for entry in entries:
            data = json.loads(entry.after) if entry.after else {}
            out.append(
                Approval(
                    entry.at,
                    entry.target_id,
                    data.get("arguments", {}),
                    str(data.get("why", "")),
                    str(data.get("answer", "")),
                )
            )
        return out

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
