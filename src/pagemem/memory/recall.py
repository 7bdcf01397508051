"""Recall memory: every message of the conversation, searchable once evicted."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from pagemem.errors import InvalidInputError
from pagemem.memory.checks import MAX_K, aware, choices, positive
from pagemem.models import ROLES, Message, Role, ToolCall, check_text
from pagemem.retrieval.lexical import query_terms
from pagemem.store.base import MessageFilter, MessageStore

if TYPE_CHECKING:
    from pagemem.memory.core import ScopedMemory

__all__ = ["Recall"]


class Recall:
    """Every message of the conversation; evicted ones are searchable here."""

    def __init__(self, owner: ScopedMemory) -> None:
        self._owner = owner
        self._store: MessageStore = owner.memory.store

    def append(
        self,
        role: Role,
        content: str,
        *,
        name: str | None = None,
        tool_call_id: str | None = None,
        extract: bool = False,
        tool_calls: Sequence[ToolCall] = (),
    ) -> Message:
        """Store a message as part of the live context (not yet recall). With `extract`,
        a user message is also marked for fact extraction, in the same row: the write
        costs no more, and a `JobRunner` extracts later."""
        choices(role, ROLES, "role")
        for what, value in (("message name", name), ("tool_call_id", tool_call_id)):
            if value is not None:
                check_text(value, what, max_bytes=256)
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
            extract=extract and role == "user",
            tool_calls=self._calls(role, tool_calls),
        )

    def _calls(self, role: str, calls: Sequence[ToolCall]) -> tuple[ToolCall, ...]:
        checked = tuple(calls)
        if checked and role != "assistant":
            raise InvalidInputError("only assistant messages carry tool calls")
        for call in checked:
            if not isinstance(call, ToolCall):
                raise InvalidInputError(f"expected ToolCall, got {type(call).__name__}")
            for what in ("id", "name"):
                check_text(getattr(call, what), f"tool call {what}", max_bytes=256)
            check_text(call.arguments, "tool call arguments", max_bytes=65_536, allow_empty=True)
        return checked

    def in_context(self) -> list[Message]:
        return self._store.context_messages(self._owner.scope)

    def evict(self, message_ids: Sequence[str]) -> list[Message]:
        """Move messages from the context to recall; return the ones that moved."""
        if isinstance(message_ids, str) or not isinstance(message_ids, Sequence):
            raise InvalidInputError(
                f"evict takes a list of message ids, not {type(message_ids).__name__}"
            )
        if not all(isinstance(i, str) for i in message_ids):
            raise InvalidInputError("evict takes message ids (strings such as 'm3')")
        scope = self._owner.scope
        return self._store.evict_messages(scope, message_ids, at=self._owner.memory.now())

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
        query = self._owner._text(query, "query")
        where = MessageFilter(
            roles=choices(roles, ROLES, "role"),
            start=aware(start, "start"),
            end=aware(end, "end"),
        )
        limit = positive(limit, "limit", MAX_K)
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

    def retract(self, message_ids: Sequence[str], *, actor: str = "agent") -> int:
        """Remove messages that should never have been kept (a turn that failed before
        the model answered); the history records it. Returns how many were removed."""
        ids = [str(i) for i in message_ids]
        if not ids:
            return 0
        return self._store.delete_messages(
            self._owner.scope, ids, actor=actor, at=self._owner.memory.now()
        )

    def list(self, *, limit: int = 100, offset: int = 0) -> list[Message]:
        """Evicted messages in the order they were written (for browsing and review)."""
        limit = positive(limit, "limit", MAX_K)
        if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
            raise InvalidInputError(f"offset must be a whole number from 0, got {offset!r}")
        scope = self._owner.scope
        ids = sorted(
            self._store.filter_message_ids(scope, MessageFilter()), key=lambda i: int(i[1:])
        )
        found = self._store.get_messages(scope, ids[offset : offset + limit])
        return sorted(found, key=lambda m: int(m.id[1:]))
