"""LangGraph's `BaseStore` backed by pagemem, so LangGraph and LangMem keep their memory here.

Each namespace is a pagemem scope of one tenant (the namespace, as a JSON list, is the
scope's user), so isolation, forgetting, retention and export work per namespace as
they do for any scope. An item is a note written with `Archive.put` under a key of its
own: a put closes the item's previous version (kept in history), a delete removes every
version. The value is kept exactly as given (the store's contract: `get` returns what
was put); the searchable text made from it is redacted and judged like any note, so a
search with a query ranks with pagemem's hybrid ranking and never shows a held
(quarantined) item, while `get` still returns it.

Items put with `index=False` are listed and returned by `get`, never by a query. TTLs
are not supported (`supports_ttl` is False): pagemem's retention rules expire notes by
age instead.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)
from langgraph.store.base.embed import get_text_at_path, tokenize_path

from pagemem.errors import InvalidInputError
from pagemem.memory import Memory, ScopedMemory
from pagemem.models import MAX_SCOPE_PART, Origin, Record

__all__ = ["PagememStore"]

_ENVELOPE = "langgraph"  # the metadata field that holds an item's key, value and times
_PAGE = 1000
_MAX_K = 1000  # the most hits one pagemem search returns


class PagememStore(BaseStore):
    """A LangGraph store over `memory`, every namespace a scope of `tenant`.

    `fields` are the parts of a value that are searchable (LangGraph's path syntax:
    `"content"`, `"facts[*].text"`); by default the whole value. `origin` is what pagemem
    records as the items' origin ("agent": the graph wrote them).
    """

    supports_ttl = False

    def __init__(
        self,
        memory: Memory,
        *,
        tenant: str = "langgraph",
        fields: Sequence[str] | None = None,
        origin: Origin = "agent",
    ) -> None:
        self.memory = memory
        self.tenant = tenant
        self.fields = list(fields) if fields is not None else ["$"]
        self.origin = origin
        memory.scope(tenant, "[]")  # the tenant name is checked now, not at the first write

    # the two methods BaseStore asks for

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Reads see the store as it was before the batch; puts to one item keep the last."""
        ops = list(ops)
        results: list[Result] = []
        puts: dict[tuple[tuple[str, ...], str], PutOp] = {}
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(op))
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            elif isinstance(op, PutOp):
                puts[(tuple(op.namespace), op.key)] = op
                results.append(None)
            else:
                raise InvalidInputError(f"unknown store operation {type(op).__name__}")
        for op in puts.values():
            self._put(op)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    # operations

    def _get(self, op: GetOp) -> Item | None:
        record = self._current(self._scope(op.namespace), op.key)
        return None if record is None else _item(record, tuple(op.namespace))

    def _put(self, op: PutOp) -> None:
        namespace = tuple(op.namespace)
        me = self._scope(namespace)
        slot = _slot(op.key)
        if op.value is None:
            for record in me.archive.list(key=slot, quarantined=None, limit=100_000):
                me.archive.delete(record.id, actor="langgraph")
            return
        if not isinstance(op.value, Mapping):
            raise InvalidInputError(f"a value must be a mapping, not {type(op.value).__name__}")
        value = dict(op.value)
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise InvalidInputError(f"a value must be plain JSON: {error}") from None
        before = self._current(me, op.key)
        created = before.metadata[_ENVELOPE]["created_at"] if before else None
        now = self.memory.now().isoformat()
        indexed = op.index is not False
        paths = self.fields if op.index is None or op.index is False else list(op.index)
        envelope = {
            "key": op.key,
            "value": value,
            "created_at": created or now,
            "indexed": indexed,
        }
        me.archive.put(
            slot,
            _text(value, paths) or op.key,
            origin=self.origin,
            source=f"langgraph item {op.key}"[:200],
            metadata={_ENVELOPE: envelope},
            actor="langgraph",
        )

    def _search(self, op: SearchOp) -> list[SearchItem]:
        if op.limit < 0 or op.offset < 0:
            raise InvalidInputError("limit and offset must not be negative")
        wanted = op.offset + op.limit
        found: list[tuple[float, SearchItem]] = []
        for namespace in self._namespaces(prefix=tuple(op.namespace_prefix), nonempty=False):
            me = self._scope(namespace)
            if op.query:
                found.extend(self._ranked(me, namespace, op, wanted))
            else:
                found.extend(self._listed(me, namespace, op, wanted))
        found.sort(key=lambda pair: -pair[0])
        return [item for _, item in found[op.offset : wanted]]

    def _ranked(
        self, me: ScopedMemory, namespace: tuple[str, ...], op: SearchOp, wanted: int
    ) -> list[tuple[float, SearchItem]]:
        """The namespace's items a query finds, by pagemem's score; with a filter (or
        when items put with `index=False` took places), among the best `_MAX_K` notes."""
        k = min(_MAX_K, max(1, wanted if not op.filter else _MAX_K))
        while True:
            hits = me.archive.search(str(op.query), k=k)
            out: list[tuple[float, SearchItem]] = []
            seen: set[str] = set()
            for hit in hits:
                envelope = hit.record.metadata.get(_ENVELOPE)
                if not isinstance(envelope, dict) or not envelope.get("indexed", True):
                    continue
                if envelope["key"] in seen or not _matches(envelope["value"], op.filter):
                    continue
                seen.add(envelope["key"])
                out.append((hit.score, _found(hit.record, namespace, hit.score)))
            if len(out) >= wanted or len(hits) < k or k >= _MAX_K:
                return out
            k = _MAX_K

    def _listed(
        self, me: ScopedMemory, namespace: tuple[str, ...], op: SearchOp, wanted: int
    ) -> list[tuple[float, SearchItem]]:
        """The namespace's items, most recently put first (as many as the page needs)."""
        out: list[tuple[float, SearchItem]] = []
        offset = 0
        while len(out) < wanted:
            page = me.archive.list(
                current=True, quarantined=None, newest_first=True, limit=_PAGE, offset=offset
            )
            for record in page:
                envelope = record.metadata.get(_ENVELOPE)
                if isinstance(envelope, dict) and _matches(envelope["value"], op.filter):
                    item = _found(record, namespace)
                    out.append((item.updated_at.timestamp(), item))
            if len(page) < _PAGE:
                break
            offset += _PAGE
        return out

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = op.match_conditions or ()
        namespaces = [
            ns
            for ns in self._namespaces(nonempty=False)
            if all(_match(condition, ns) for condition in conditions)
            and self._holds_items(self._scope(ns))
        ]
        if op.max_depth is not None:
            namespaces = list({ns[: op.max_depth] for ns in namespaces})
        return sorted(namespaces)[op.offset : op.offset + op.limit]

    # pagemem underneath

    def _scope(self, namespace: Sequence[str]) -> ScopedMemory:
        if not namespace or not all(isinstance(label, str) and label for label in namespace):
            raise InvalidInputError(f"a namespace is a tuple of non-empty strings: {namespace!r}")
        user = json.dumps(list(namespace), ensure_ascii=False, separators=(",", ":"))
        if len(user) > MAX_SCOPE_PART:
            raise InvalidInputError(
                f"namespace {namespace!r} is too long: at most {MAX_SCOPE_PART} characters "
                "written as a JSON list"
            )
        return self.memory.scope(self.tenant, user)

    def _namespaces(
        self, *, prefix: tuple[str, ...] = (), nonempty: bool = True
    ) -> list[tuple[str, ...]]:
        """The namespaces under `prefix` (one query for the tenant's scopes); with
        `nonempty`, only those that hold at least one item (a query each)."""
        out = []
        for me in self.memory.scopes(tenant=self.tenant):
            namespace = _namespace(me.scope.user)
            if namespace is None or me.scope.agent is not None:
                continue
            if namespace[: len(prefix)] == prefix and (not nonempty or self._holds_items(me)):
                out.append(namespace)
        return out

    @staticmethod
    def _holds_items(me: ScopedMemory) -> bool:
        return bool(me.archive.list(current=True, quarantined=None, limit=1))

    @staticmethod
    def _current(me: ScopedMemory, key: str) -> Record | None:
        for record in me.archive.list(
            key=_slot(key), current=True, quarantined=None, newest_first=True, limit=1
        ):
            if isinstance(record.metadata.get(_ENVELOPE), dict):
                return record
        return None


def _slot(key: str) -> str:
    """The pagemem fact key of an item's key: any string fits, none collide."""
    if not isinstance(key, str):
        raise InvalidInputError(f"an item key is a string, not {type(key).__name__}")
    return "lg:" + hashlib.sha256(key.encode()).hexdigest()[:40]


def _namespace(user: str) -> tuple[str, ...] | None:
    try:
        labels = json.loads(user)
    except ValueError:
        return None
    if isinstance(labels, list) and labels and all(isinstance(x, str) for x in labels):
        return tuple(labels)
    return None


def _fields(record: Record, namespace: tuple[str, ...]) -> dict[str, Any]:
    envelope = record.metadata[_ENVELOPE]
    return {
        "namespace": namespace,
        "key": envelope["key"],
        "value": envelope["value"],
        "created_at": datetime.fromisoformat(envelope["created_at"]),
        "updated_at": record.created_at,
    }


def _item(record: Record, namespace: tuple[str, ...]) -> Item:
    return Item(**_fields(record, namespace))


def _found(record: Record, namespace: tuple[str, ...], score: float | None = None) -> SearchItem:
    return SearchItem(**_fields(record, namespace), score=score)


def _text(value: dict[str, Any], paths: Sequence[str]) -> str:
    """What pagemem indexes of a value: the whole value as `field: text` lines, or the
    text at each path."""
    if list(paths) == ["$"]:
        return "\n".join(_lines(value))
    texts: list[str] = []
    for path in paths:
        texts.extend(get_text_at_path(value, tokenize_path(path)))
    return "\n".join(t for t in texts if t.strip())


def _lines(value: Any, name: str = "") -> list[str]:
    if isinstance(value, Mapping):
        return [line for k, v in value.items() for line in _lines(v, str(k))]
    if isinstance(value, list | tuple):
        return [line for v in value for line in _lines(v, name)]
    if value is None:
        return []
    text = value if isinstance(value, str) else json.dumps(value)
    return [f"{name}: {text}" if name else text]


def _matches(value: Any, conditions: Mapping[str, Any] | None) -> bool:
    """LangGraph's filter: exact values (nested mappings compared field by field) or
    `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`."""
    if not conditions:
        return True
    if not isinstance(value, Mapping):
        return False
    return all(_compare(value.get(field), wanted) for field, wanted in conditions.items())


def _compare(value: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        if any(str(k).startswith("$") for k in wanted):
            return all(_operator(value, op, operand) for op, operand in wanted.items())
        return isinstance(value, Mapping) and all(
            _compare(value.get(k), v) for k, v in wanted.items()
        )
    if isinstance(wanted, list | tuple):
        return (
            isinstance(value, list | tuple)
            and len(value) == len(wanted)
            and all(_compare(v, w) for v, w in zip(value, wanted, strict=True))
        )
    return bool(value == wanted)


def _operator(value: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(value == operand)
    if op == "$ne":
        return bool(value != operand)
    if op not in ("$gt", "$gte", "$lt", "$lte"):
        raise InvalidInputError(f"unsupported filter operator {op!r}")
    try:
        left, right = float(value), float(operand)
    except (TypeError, ValueError):
        return False
    return {
        "$gt": left > right,
        "$gte": left >= right,
        "$lt": left < right,
        "$lte": left <= right,
    }[op]


def _match(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """LangGraph's namespace conditions: a prefix or suffix, `*` matching any label."""
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    kind: Literal["prefix", "suffix"] = condition.match_type
    if kind == "prefix":
        pairs = zip(namespace, path, strict=False)
    elif kind == "suffix":
        pairs = zip(reversed(namespace), reversed(path), strict=False)
    else:
        raise InvalidInputError(f"unsupported namespace match type {kind!r}")
    return all(p == "*" or n == p for n, p in pairs)
