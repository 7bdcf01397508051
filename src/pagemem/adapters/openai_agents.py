"""An OpenAI Agents SDK `Session` whose history is a paged pagemem `Context`.

The SDK prepends a session's items to every model call. A plain session hands back the
whole conversation, so a long run outgrows the model's window; this one hands back a
window of `max_tokens`: the newest items that fit, and, once anything was paged out, a
first item with the running summary of what left (inside an envelope, as untrusted
text). Every item stays stored: paged-out items are in the scope's recall, found by
`conversation_search` or `Recall.search`, and `all_items()` returns the whole run.

Items are kept as the SDK gave them (plain `{"role", "content"}` messages as messages,
everything else as its JSON), except that secrets in them are redacted like any text
pagemem stores. `get_items(limit=n)` returns the newest n items exactly as stored,
which the SDK relies on to check its own writes; `get_items()` returns the window.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any, cast

from agents.items import TResponseInputItem
from agents.memory.session_settings import SessionSettings

from pagemem.context import Context
from pagemem.errors import InvalidInputError
from pagemem.guard.envelope import RULE, Envelope
from pagemem.memory import Memory, ScopedMemory
from pagemem.models import Message, Role
from pagemem.tokens import TokenCounter

__all__ = ["PagememSession"]

_JSON = "agents.item"  # the name of a message that holds an item's JSON
_SYSTEM = "Conversation history of an Agents SDK session."
_PLAIN_ROLES = ("user", "assistant", "system")


class PagememSession:
    """The history of one Agents SDK session, paged to `max_tokens`.

    The session is the scope `(tenant, session_id)`, or with `user` the agent scope
    `(tenant, user, session_id)`, so one user's sessions stay apart and a user can be
    forgotten as a whole.
    """

    session_settings: SessionSettings | None = None

    def __init__(
        self,
        session_id: str,
        memory: Memory,
        *,
        tenant: str = "openai-agents",
        user: str | None = None,
        max_tokens: int = 8_000,
        summary_tokens: int | None = None,
        counter: TokenCounter | str | None = None,
    ) -> None:
        self.session_id = session_id
        self.scope: ScopedMemory = (
            memory.scope(tenant, session_id)
            if user is None
            else memory.scope(tenant, user, session_id)
        )
        self.max_tokens, self.summary_tokens, self.counter = max_tokens, summary_tokens, counter
        self.context = self._open()
        self._lock = threading.Lock()

    def _open(self) -> Context:
        return Context(
            self.scope,
            max_tokens=self.max_tokens,
            system=_SYSTEM,
            summary_tokens=self.summary_tokens,
            counter=self.counter,
            default_blocks=False,
        )

    # the Session protocol

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """With `limit`, the newest `limit` items as stored, oldest first; without, the
        window: the summary of what was paged out, then the newest items that fit."""
        return await asyncio.to_thread(self._get, limit)

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        await asyncio.to_thread(self._add, list(items))

    async def pop_item(self) -> TResponseInputItem | None:
        return await asyncio.to_thread(self._pop)

    async def clear_session(self) -> None:
        await asyncio.to_thread(self._clear)

    # beyond the protocol

    def all_items(self) -> list[TResponseInputItem]:
        """Every item of the session in order, paged out or not."""
        with self._lock:
            return [_item(m) for m in self._stored()]

    # the work, on a worker thread

    def _get(self, limit: int | None) -> list[TResponseInputItem]:
        with self._lock:
            if limit is not None:
                if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
                    raise InvalidInputError(f"limit must be a whole number >= 0, got {limit!r}")
                return [_item(m) for m in self._newest(limit)] if limit else []
            window = [_item(m) for m in self.context.messages]
            summary = self.context.summary
            head: list[TResponseInputItem] = []
            if summary or self.scope.recall.count():
                head = [cast(TResponseInputItem, {"role": "system", "content": _paged(summary)})]
            return head + _answered(window)

    def _add(self, items: list[TResponseInputItem]) -> None:
        rows = [_message(item) for item in items]  # all checked before any is stored
        with self._lock:
            for role, content, name in rows:
                self.context.append(role, content, name=name)

    def _pop(self) -> TResponseInputItem | None:
        with self._lock:
            messages = self.context.messages
            if not messages:
                return None
            newest = messages[-1]
            self.context.retract([newest.id])
            return _item(newest)

    def _clear(self) -> None:
        with self._lock:
            self.scope.forget_all(actor="openai-agents")
            self.context = self._open()

    def _stored(self) -> list[Message]:
        recall = self.scope.recall
        paged: list[Message] = []
        while page := recall.list(limit=1000, offset=len(paged)):
            paged.extend(page)
        return paged + self.context.messages

    def _newest(self, limit: int) -> list[Message]:
        window = self.context.messages
        if limit <= len(window):
            return window[len(window) - limit :]
        recall = self.scope.recall
        wanted = limit - len(window)
        start = max(0, recall.count() - wanted)
        paged: list[Message] = []
        while len(paged) < wanted and (
            page := recall.list(limit=min(1000, wanted - len(paged)), offset=start + len(paged))
        ):
            paged.extend(page)
        return paged + window


def _message(item: TResponseInputItem) -> tuple[Role, str, str | None]:
    """The role, content and name an item is stored as."""
    if not isinstance(item, dict):
        raise InvalidInputError(f"a session item is a mapping, not {type(item).__name__}")
    data = cast(dict[str, Any], item)
    role, content = data.get("role"), data.get("content")
    if set(data) == {"role", "content"} and role in _PLAIN_ROLES and isinstance(content, str):
        return cast(Role, role), content, None
    try:
        text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidInputError(f"a session item must be plain JSON: {error}") from None
    kind = str(data.get("type", ""))
    if kind.endswith("_output"):
        return "tool", text, _JSON
    if role in _PLAIN_ROLES:
        return cast(Role, role), text, _JSON
    return ("system" if role == "developer" else "assistant"), text, _JSON


def _item(message: Message) -> TResponseInputItem:
    if message.name == _JSON:
        try:
            loaded = json.loads(message.content)
        except ValueError:  # only if redaction broke it: the text as a plain message
            loaded = None
        if isinstance(loaded, dict):
            return cast(TResponseInputItem, loaded)
    role = message.role if message.role in _PLAIN_ROLES else "assistant"
    return cast(TResponseInputItem, {"role": role, "content": message.content})


def _answered(items: list[TResponseInputItem]) -> list[TResponseInputItem]:
    """The window without tool outputs whose call was paged out (the APIs refuse an
    output that answers no call in view); they stay in recall."""
    data = [cast(dict[str, Any], item) for item in items]
    outputs = [str(d.get("type", "")).endswith("_output") for d in data]
    calls = {
        d["call_id"]
        for d, output in zip(data, outputs, strict=True)
        if not output and d.get("call_id")
    }
    return [
        item
        for item, d, output in zip(items, data, outputs, strict=True)
        if not output or d.get("call_id") in calls
    ]


def _paged(summary: str) -> str:
    """The first item of a window that paged something out: what left, as data."""
    told = Envelope().wrap(summary or "(no summary kept)", "summary of earlier messages")
    return (
        f"{RULE}\n\nEarlier items of this conversation were paged out of view; a "
        f"conversation_search tool, when offered, finds them. What they said, in short:\n"
        f"{told}"
    )
