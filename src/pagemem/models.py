"""The data types every layer shares: scopes, messages, blocks, records and hits."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, get_args

from pagemem.errors import InvalidInputError

__all__ = [
    "CONSOLIDATIONS",
    "KINDS",
    "NEUTRALISED_FLAG",
    "NEUTRALISED_MARK",
    "ORIGINS",
    "ROLES",
    "Block",
    "Chat",
    "HistoryEntry",
    "Hit",
    "Kind",
    "Message",
    "Origin",
    "Record",
    "RetentionRule",
    "Role",
    "Scope",
    "ToolCall",
    "check_text",
    "replaced",
]

Origin = Literal["user", "agent", "tool", "web", "system"]
Kind = Literal["semantic", "episodic", "procedural"]
Role = Literal["user", "assistant", "tool", "system"]
ORIGINS: tuple[str, ...] = get_args(Origin)
KINDS: tuple[str, ...] = get_args(Kind)
ROLES: tuple[str, ...] = get_args(Role)
# What consolidation did with a note when it was written (Record.consolidation).
CONSOLIDATIONS = ("added", "restated", "superseded", "kept-both")

MAX_SCOPE_PART = 128

# A chat model as pagemem's LLM-backed parts use it (judge, extractor, summarizer): chat
# messages in, the reply text out. pagemem's LLM clients provide one.
Chat = Callable[[list[dict[str, str]]], str]


def check_text(text: object, what: str, *, max_bytes: int, allow_empty: bool = False) -> str:
    """Return `text` if it can be stored intact, else raise a specific InvalidInputError."""
    if not isinstance(text, str):
        raise InvalidInputError(f"{what} must be a string, not {type(text).__name__}")
    if not allow_empty and not text.strip():
        raise InvalidInputError(f"{what} is empty")
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise InvalidInputError(
            f"{what} is not valid Unicode: lone surrogate {text[exc.start]!r} "
            f"at position {exc.start}"
        ) from None
    if "\x00" in text:
        raise InvalidInputError(f"{what} contains a NUL character at position {text.index(chr(0))}")
    if size > max_bytes:
        raise InvalidInputError(f"{what} is {size:,} bytes; the limit is {max_bytes:,}")
    return text


def _check_part(value: object, what: str, *, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(f"scope {what} must be a non-empty string, got {value!r}")
    if len(value) > MAX_SCOPE_PART:
        raise InvalidInputError(f"scope {what} is longer than {MAX_SCOPE_PART} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value):
        raise InvalidInputError(f"scope {what} contains control or surrogate characters")
    return value


@dataclass(frozen=True, slots=True)
class Scope:
    """Whose memory: a tenant, a user within it, and optionally one agent of that user.

    Every store call takes a Scope and filters on all three parts; an agent-less
    scope and an agent scope of the same user are distinct memories.
    """

    tenant: str
    user: str
    agent: str | None = None

    def __post_init__(self) -> None:
        _check_part(self.tenant, "tenant")
        _check_part(self.user, "user")
        _check_part(self.agent, "agent", optional=True)

    def __str__(self) -> str:
        tail = f"/{self.agent}" if self.agent else ""
        return f"{self.tenant}/{self.user}{tail}"


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A tool the model asked for; `arguments` is the JSON text it wrote."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message; `in_context` is False once it was evicted to recall. An assistant
    message may carry the tool calls it made; a tool message names the call it answers."""

    id: str
    role: Role
    content: str
    created_at: datetime
    seq: int
    name: str | None = None
    tool_call_id: str | None = None
    in_context: bool = True
    evicted_at: datetime | None = None
    tool_calls: tuple[ToolCall, ...] = ()


@dataclass(frozen=True, slots=True)
class ApiKeyInfo:
    """A REST API key as an admin sees it: a short id (never the key), its tenant, label
    and state. The id is enough to revoke it."""

    id: str
    tenant: str
    label: str
    created_at: datetime
    revoked_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Block:
    """A core memory block: always in the prompt, capped at `limit` tokens."""

    label: str
    value: str
    limit: int
    updated_at: datetime
    description: str = ""


# The flag of a note whose directive sentences the guard cut out of what a model is
# shown (`Record.shown`), and the marker that stands in their place.
NEUTRALISED_FLAG = "neutralised"
NEUTRALISED_MARK = "[instruction to the model removed]"


def replaced(text: str, spans: Any, mark: str) -> str:
    """`text` with each of its character spans ((start, end), taken in order; malformed
    or overlapping ones skipped: they may come from stored metadata) put as `mark`."""
    out, at = [], 0
    for start, end in sorted(spans):
        if not (isinstance(start, int) and isinstance(end, int) and at <= start < end):
            continue
        out += [text[at:start], mark]
        at = min(end, len(text))
    return "".join([*out, text[at:]])


@dataclass(frozen=True, slots=True)
class Record:
    """An archival note and everything known about where it came from."""

    id: str
    scope: Scope
    text: str
    kind: Kind
    origin: Origin
    source: str
    created_at: datetime
    valid_from: datetime
    valid_to: datetime | None = None
    tags: tuple[str, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)
    flags: tuple[str, ...] = ()
    quarantined: bool = False  # held for review: stored, never returned by search
    key: str | None = None  # a fact's slot, e.g. "user.home_city": one current fact per key
    expired_at: datetime | None = None  # when pagemem retired it (superseded or merged)
    superseded_by: str | None = None  # the record that replaced it
    mentions: int = 1  # how many times it was stated (its restatements included)
    # what consolidation did when it was written: "added", "restated" (it repeats
    # `consolidated_with` and hides behind it), "superseded" (it closed
    # `consolidated_with` and maybe others) or "kept-both" (possibly a newer value of
    # `consolidated_with`; both stay current); None for notes that were not consolidated
    consolidation: str | None = None
    consolidated_with: str | None = None

    @property
    def shown(self) -> str:
        """The text as a model is shown it: directive sentences the guard neutralised
        (`metadata["neutralised"]`, character spans) replaced by a visible marker. The
        stored `text` keeps them, for review and export."""
        spans = self.metadata.get("neutralised")
        if not spans or NEUTRALISED_FLAG not in self.flags:
            return self.text
        return replaced(self.text, spans, NEUTRALISED_MARK)

    def valid_at(self, when: datetime) -> bool:
        """Was this fact true at `when` (valid time), as far as pagemem knows now?"""
        if self.valid_from > when:
            return False
        if self.valid_to is not None:
            return when < self.valid_to
        return self.expired_at is None


@dataclass(frozen=True, slots=True)
class Hit:
    """A search result: the record, its score (higher is better), its flags and why."""

    record: Record
    score: float
    flags: tuple[str, ...] = ()
    explain: str = ""


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One write as the history table keeps it; `before`/`after` are None once forgotten."""

    seq: int
    at: datetime
    op: str
    target: str
    target_id: str
    before: str | None
    after: str | None
    actor: str


@dataclass(frozen=True, slots=True)
class RetentionRule:
    """Delete what is older than `max_age_days`: archival notes (optionally only those of
    some origins) or evicted messages. Messages still in the context are never expired."""

    what: Literal["notes", "messages"]
    max_age_days: float
    origins: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.what not in ("notes", "messages"):
            raise InvalidInputError(
                f"retention applies to 'notes' or 'messages', not {self.what!r}"
            )
        age = self.max_age_days
        if isinstance(age, bool) or not isinstance(age, int | float) or not 0 < age <= 36_500:
            raise InvalidInputError(f"max_age_days must be from 0 to 36500 days, got {age!r}")
        if isinstance(self.origins, str) or not isinstance(self.origins, tuple):
            raise InvalidInputError("origins must be a tuple of origin names")
        for origin in self.origins:
            if origin not in ORIGINS:
                raise InvalidInputError(
                    f"unknown origin {origin!r}; expected one of {', '.join(ORIGINS)}"
                )
        if self.origins and self.what == "messages":
            raise InvalidInputError("origins apply to notes only")

    def __str__(self) -> str:
        whose = f" from {'/'.join(self.origins)}" if self.origins else ""
        return f"{self.what}{whose} older than {self.max_age_days:g} days"
