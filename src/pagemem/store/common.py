"""What both backends compute the same way, kept in one place."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from functools import lru_cache
from typing import Any

from pagemem.models import Record, RetentionRule, Scope, ToolCall
from pagemem.store.base import NewRecord, ScopeDump

__all__ = [
    "SOURCES_KEPT",
    "calls_json",
    "highest_id",
    "origin_of_role",
    "rules_from",
    "rules_json",
    "scope_of",
    "stored",
    "text_hash",
    "with_source",
]


SOURCES_KEPT = 100  # sources a restated fact lists; its mention count keeps the rest


def origin_of_role(role: str) -> str:
    """An evicted message ranks as its author's notes would: the assistant's as the
    agent's, the others' by their role."""
    return "agent" if role == "assistant" else role


def with_source(metadata: dict[str, Any], source: str) -> dict[str, Any]:
    """A fact's metadata after a restatement from `source`: the source listed once, the
    latest SOURCES_KEPT kept."""
    sources = list(metadata.get("sources", []))
    if source and source not in sources:
        sources.append(source)
    return {**metadata, "sources": sources[-SOURCES_KEPT:]}


@lru_cache(maxsize=4096)
def scope_of(tenant: str, user: str, agent: str | None) -> Scope:
    """A row's scope, checked once per scope rather than once per row read (a scope is
    immutable, so rows can share it)."""
    return Scope(tenant, user, agent or None)


def text_hash(text: str) -> str:
    """Finds an identical note's vector without comparing texts."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def calls_json(calls: Sequence[ToolCall]) -> str | None:
    return json.dumps([asdict(call) for call in calls]) if calls else None


def rules_json(rules: Iterable[RetentionRule]) -> str:
    return json.dumps(
        [
            {"what": r.what, "max_age_days": r.max_age_days, "origins": list(r.origins)}
            for r in rules
        ]
    )


def rules_from(items: Iterable[dict[str, Any]]) -> list[RetentionRule]:
    return [RetentionRule(i["what"], i["max_age_days"], tuple(i["origins"])) for i in items]


def highest_id(prefix: str, ids: list[str], dump: ScopeDump) -> int:
    """The highest id number a restored scope used, counting ids only history remembers
    (deleted ones), so new ids never repeat them."""
    seen = [*ids, *(e.target_id for e in dump.history)]
    numbers = [int(i[1:]) for i in seen if i[:1] == prefix and i[1:].isdigit() and len(i) < 20]
    return max(numbers, default=0)


def stored(record_id: str, scope: Scope, r: NewRecord) -> Record:
    """The record a store hands back for a new row it just wrote."""
    return Record(
        id=record_id,
        scope=scope,
        text=r.text,
        kind=r.kind,
        origin=r.origin,
        source=r.source,
        created_at=r.created_at,
        valid_from=r.valid_from,
        valid_to=r.valid_to,
        tags=r.tags,
        metadata=r.metadata,
        flags=r.flags,
        quarantined=r.quarantined,
        key=r.key,
        expired_at=r.expired_at,
        superseded_by=r.superseded_by,
        consolidation=r.consolidation,
        consolidated_with=r.consolidated_with,
    )
