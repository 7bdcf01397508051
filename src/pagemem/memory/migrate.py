"""Moving a whole memory between stores (SQLite to PostgreSQL and back), verified.

Every scope is read whole from the source and restored into the target in one
transaction, ids, history and stored vectors included; then both sides are
counted and checksummed scope by scope, and any difference is an error. The REST
server's API keys (hashes, revoked ones too) and named agents' settings go with
them, so clients keep working against the new store.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pagemem.errors import InvalidInputError
from pagemem.models import Scope
from pagemem.store.base import (
    AdminStore,
    AgentEntry,
    ApiKey,
    Collection,
    MessageFilter,
    RecordFilter,
    ScopeDump,
    Store,
)

__all__ = ["Migration", "checksum", "dump_scope", "migrate"]

_PAGE = 5_000


@dataclass
class Migration:
    """What was copied, and the checksum both sides agreed on for each scope."""

    scopes: int = 0
    notes: int = 0
    messages: int = 0
    blocks: int = 0
    history: int = 0
    vectors: int = 0
    api_keys: int = 0
    agents: int = 0
    checksums: dict[str, str] = field(default_factory=dict)


def dump_scope(store: Store, scope: Scope) -> ScopeDump:
    """Everything a scope holds, held notes and retired facts included."""
    records = []
    offset = 0
    while page := store.list_records(
        scope, RecordFilter(quarantined=None), limit=_PAGE, offset=offset
    ):
        records += page
        offset += len(page)
    evicted = sorted(store.filter_message_ids(scope, MessageFilter()), key=lambda i: int(i[1:]))
    messages = store.get_messages(scope, evicted) + store.context_messages(scope)
    summary, sources = store.get_summary(scope)
    return ScopeDump(
        records=records,
        messages=sorted(messages, key=lambda m: m.seq),
        blocks=store.list_blocks(scope),
        summary=summary,
        summary_sources=sources,
        history=store.history(scope, limit=10**12),
        retention=store.get_retention(scope),
    )


def checksum(dump: ScopeDump, *, skip_ops: tuple[str, ...] = ("import",)) -> str:
    """A digest of a scope's content that two backends agree on: canonical JSON, no
    backend-assigned numbers (history sequence), no entries the copy itself wrote."""
    digest = hashlib.sha256()

    def add(kind: str, value: object) -> None:
        line = json.dumps([kind, value], sort_keys=True, default=str, ensure_ascii=False)
        digest.update(line.encode("utf-8") + b"\n")

    for r in sorted(dump.records, key=lambda r: int(r.id[1:])):
        add(
            "note",
            [
                r.id, r.text, r.kind, r.origin, r.source, r.created_at.timestamp(),
                r.valid_from.timestamp(), r.valid_to and r.valid_to.timestamp(), list(r.tags),
                r.metadata, list(r.flags), r.quarantined, r.key,
                r.expired_at and r.expired_at.timestamp(), r.superseded_by, r.mentions,
                r.consolidation, r.consolidated_with,
            ],
        )  # fmt: skip
    for m in dump.messages:
        add(
            "message",
            [
                m.id, m.seq, m.role, m.content, m.name, m.tool_call_id, m.created_at.timestamp(),
                m.in_context, m.evicted_at and m.evicted_at.timestamp(),
                [[c.id, c.name, c.arguments] for c in m.tool_calls],
            ],
        )  # fmt: skip
    for b in sorted(dump.blocks, key=lambda b: b.label):
        add("block", [b.label, b.value, b.limit, b.description, b.updated_at.timestamp()])
    add("summary", [dump.summary, list(dump.summary_sources)])
    add("retention", [[r.what, r.max_age_days, list(r.origins)] for r in dump.retention])
    for e in dump.history:
        if e.op not in skip_ops:
            add("history", [e.at.timestamp(), e.op, e.target, e.target_id, e.before, e.after])
    return digest.hexdigest()


def _copy_vectors(
    source: Store, target: Store, scope: Scope, model_id: str, collection: Collection
) -> int:
    copied = 0
    after = 0
    while page := source.index_rows(
        scope, after=after, limit=_PAGE, collection=collection, model_id=model_id
    ):
        found = [(row.id, vector) for row in page if (vector := row.vector) is not None]
        if found:
            target.put_vectors(scope, model_id, found, collection=collection)
            copied += len(found)
        after = page[-1].pk
    return copied


def migrate(
    source: Store,
    target: Store,
    *,
    model_ids: tuple[str, ...] = (),
    actor: str = "migrate",
    progress: Callable[[Scope], None] | None = None,
) -> Migration:
    """Copy every scope of `source` into `target` (whose scopes must be empty), with the
    stored vectors of `model_ids`, and verify each scope by counts and checksum."""
    report = Migration()
    scopes = source.list_scopes()
    taken = [
        str(scope)
        for scope in set(scopes) & set(target.list_scopes())
        if target.count_records(scope, RecordFilter(quarantined=None))
        or target.count_messages(scope)
        or target.list_blocks(scope)
    ]
    if taken:
        raise InvalidInputError(
            f"the target already holds {len(taken)} of these scopes ({', '.join(sorted(taken)[:5])}"
            f"{', ...' if len(taken) > 5 else ''}); migrate into an empty memory"
        )
    source_keys, source_agents = source.api_keys(), source.agents()
    keys, agents = _new_keys(source_keys, target), _new_agents(source_agents, target)
    for scope in scopes:
        dump = dump_scope(source, scope)
        target.restore(scope, dump, actor=actor, at=datetime.now(UTC))
        for model_id in model_ids:
            for collection in ("records", "recall"):
                report.vectors += _copy_vectors(source, target, scope, model_id, collection)
        copied = dump_scope(target, scope)
        expected, found = checksum(dump), checksum(copied)
        counts = (len(dump.records), len(dump.messages), len(dump.blocks))
        if (len(copied.records), len(copied.messages), len(copied.blocks)) != counts or (
            expected != found
        ):
            raise InvalidInputError(
                f"scope {scope} differs after the copy (notes, messages, blocks: {counts} vs "
                f"{(len(copied.records), len(copied.messages), len(copied.blocks))}; "
                f"checksum {expected[:12]} vs {found[:12]}); the target keeps what was written"
            )
        report.scopes += 1
        report.notes += len(dump.records)
        report.messages += len(dump.messages)
        report.blocks += len(dump.blocks)
        report.history += len(dump.history)
        report.checksums[str(scope)] = expected
        if progress is not None:
            progress(scope)
    for key in keys:
        target.add_api_key(
            key.key_hash, key.tenant, label=key.label, at=key.created_at, revoked_at=key.revoked_at
        )
    for agent in agents:
        target.put_agent(agent.tenant, agent.user, agent.name, agent.settings, at=agent.created_at)
    _check_copied(source_keys, source_agents, target)
    report.api_keys, report.agents = len(keys), len(agents)
    return report


def _key_row(key: ApiKey) -> tuple[object, ...]:
    revoked = key.revoked_at and key.revoked_at.timestamp()
    return (key.key_hash, key.tenant, key.label, key.created_at.timestamp(), revoked)


def _agent_name(agent: AgentEntry) -> tuple[str, str, str]:
    return (agent.tenant, agent.user, agent.name)


def _new_keys(mine: list[ApiKey], target: AdminStore) -> list[ApiKey]:
    """The source's keys the target lacks; a hash the target maps differently is refused
    before anything is written (a key must not change tenant or come back to life)."""
    held = {key.key_hash: _key_row(key) for key in target.api_keys()}
    clash = [k for k in mine if k.key_hash in held and held[k.key_hash] != _key_row(k)]
    if clash:
        raise InvalidInputError(
            f"the target already holds {len(clash)} of these API keys with another tenant, "
            "label or state; migrate into an empty memory"
        )
    return [key for key in mine if key.key_hash not in held]


def _new_agents(mine: list[AgentEntry], target: AdminStore) -> list[AgentEntry]:
    held = {_agent_name(a): a.settings for a in target.agents()}
    clash = [
        "/".join(_agent_name(a)) for a in mine if held.get(_agent_name(a), a.settings) != a.settings
    ]
    if clash:
        raise InvalidInputError(
            f"the target already has agents of these names with other settings "
            f"({', '.join(clash[:5])}{', ...' if len(clash) > 5 else ''}); "
            "migrate into an empty memory"
        )
    return [a for a in mine if _agent_name(a) not in held]


def _check_copied(keys: list[ApiKey], agents: list[AgentEntry], target: AdminStore) -> None:
    held_keys = {_key_row(key) for key in target.api_keys()}
    held_agents = {_agent_name(a): a.settings for a in target.agents()}
    lost_keys = [k for k in keys if _key_row(k) not in held_keys]
    lost_agents = [a for a in agents if held_agents.get(_agent_name(a)) != a.settings]
    if lost_keys or lost_agents:
        raise InvalidInputError(
            f"{len(lost_keys)} API keys and {len(lost_agents)} agents differ after the copy; "
            "the target keeps what was written"
        )
