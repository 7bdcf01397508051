"""Export a scope as JSON lines, and import such a file into an empty scope.

Export is the user's copy of everything stored about them: notes (held ones
too), every message, blocks, the running summary, retention rules and history.
Import treats the file as untrusted input: every line is checked, secrets are
redacted again, notes are judged again by the trust policy (an import can add
flags or quarantine, never remove them), and it is all-or-nothing.
Vectors are not exported; they are rebuilt from the text.

The last line is a trailer, `{"type": "end", "lines": N, "sha256": ...}`: how many
lines came before it and a SHA-256 over them (each line as canonical JSON: sorted
keys, no spaces, UTF-8, newline-terminated; see `line_digest`). An export cut short
by a failure has no trailer, and import refuses it, as it refuses one whose lines do
not add up to the trailer.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

from pagemem.errors import InvalidInputError
from pagemem.memory.blocks import LABEL_PATTERN
from pagemem.memory.checks import MAX_SOURCE, aware, check_metadata, tags_of
from pagemem.memory.consolidation import consolidate_scope
from pagemem.models import (
    CONSOLIDATIONS,
    KINDS,
    ORIGINS,
    ROLES,
    Block,
    HistoryEntry,
    Kind,
    Message,
    Origin,
    Record,
    RetentionRule,
    Role,
    ToolCall,
    check_text,
)
from pagemem.store.base import MessageFilter, RecordFilter, ScopeDump

if TYPE_CHECKING:
    from pagemem.memory.core import ScopedMemory

__all__ = ["FORMAT", "Imported", "export_scope", "import_scope", "jsonl", "line_digest"]

FORMAT = "pagemem-export"
VERSION = 2  # 2: ends with the trailer; files of version 1 have none
_PAGE = 1000
_RECORD_ID = re.compile(r"^a[1-9][0-9]{0,17}$")
_MESSAGE_ID = re.compile(r"^m[1-9][0-9]{0,17}$")


@dataclass(frozen=True, slots=True)
class Imported:
    """What an import restored."""

    notes: int
    messages: int
    blocks: int
    history: int


def _time(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def jsonl(line: Mapping[str, Any]) -> str:
    """One export line as JSON text and its newline. Line and paragraph separators
    (U+0085, U+2028, U+2029) are escaped, so readers that split on them as well as on
    newlines (Python's str.splitlines, some editors) still see one line per record."""
    text = json.dumps(line, ensure_ascii=False)
    return text.translate(_SEPARATORS) + "\n"


_SEPARATORS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def line_digest(line: Mapping[str, Any]) -> bytes:
    """The bytes of one export line that the trailer's SHA-256 covers."""
    canonical = json.dumps(line, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return canonical.encode("utf-8") + b"\n"


def export_scope(me: ScopedMemory) -> Iterator[dict[str, Any]]:
    """Every line of the export, header first, trailer last; each a JSON-ready dict."""
    digest = hashlib.sha256()
    count = 0
    for line in _export_lines(me):
        digest.update(line_digest(line))
        count += 1
        yield line
    yield {"type": "end", "lines": count, "sha256": digest.hexdigest()}


def _export_lines(me: ScopedMemory) -> Iterator[dict[str, Any]]:
    store, scope = me.memory.store, me.scope
    summary, sources = store.get_summary(scope)
    yield {
        "type": FORMAT,
        "version": VERSION,
        "scope": {"tenant": scope.tenant, "user": scope.user, "agent": scope.agent},
        "exported_at": me.memory.now().isoformat(),
    }
    offset = 0
    while page := store.list_records(
        scope, RecordFilter(quarantined=None), limit=_PAGE, offset=offset
    ):
        for r in page:
            yield {
                "type": "note",
                "id": r.id,
                "text": r.text,
                "kind": r.kind,
                "origin": r.origin,
                "source": r.source,
                "created_at": _time(r.created_at),
                "valid_from": _time(r.valid_from),
                "valid_to": _time(r.valid_to),
                "tags": list(r.tags),
                "metadata": r.metadata,
                "flags": list(r.flags),
                "quarantined": r.quarantined,
                "key": r.key,
                "expired_at": _time(r.expired_at),
                "superseded_by": r.superseded_by,
                "mentions": r.mentions,
                "consolidation": r.consolidation,
                "consolidated_with": r.consolidated_with,
            }
        offset += len(page)
    evicted = store.filter_message_ids(scope, MessageFilter())
    messages = store.get_messages(scope, sorted(evicted, key=lambda i: int(i[1:])))
    for m in [*messages, *store.context_messages(scope)]:
        yield {
            "type": "message",
            "id": m.id,
            "seq": m.seq,
            "role": m.role,
            "content": m.content,
            "name": m.name,
            "tool_call_id": m.tool_call_id,
            "created_at": _time(m.created_at),
            "in_context": m.in_context,
            "evicted_at": _time(m.evicted_at),
            "tool_calls": [
                {"id": c.id, "name": c.name, "arguments": c.arguments} for c in m.tool_calls
            ],
        }
    for b in store.list_blocks(scope):
        yield {
            "type": "block",
            "label": b.label,
            "value": b.value,
            "limit": b.limit,
            "description": b.description,
            "updated_at": _time(b.updated_at),
        }
    yield {"type": "summary", "text": summary, "sources": list(sources)}
    for rule in store.get_retention(scope):
        yield {
            "type": "retention",
            "what": rule.what,
            "max_age_days": rule.max_age_days,
            "origins": list(rule.origins),
        }
    for e in store.history(scope, limit=10**12):
        yield {
            "type": "history",
            "at": _time(e.at),
            "op": e.op,
            "target": e.target,
            "target_id": e.target_id,
            "before": e.before,
            "after": e.after,
            "actor": e.actor,
        }


# reading a file back, one checked line at a time


class _Line:
    """Typed access to one parsed line; every failure names the line and the field."""

    def __init__(self, position: int, data: Mapping[str, Any]) -> None:
        self.position = position
        self.data = data

    def fail(self, message: str) -> InvalidInputError:
        return InvalidInputError(f"line {self.position}: {message}")

    def text(self, name: str, *, empty: bool = False, limit: int = 1_048_576) -> str:
        value = self.data.get(name)
        try:
            return check_text(value, name, max_bytes=limit, allow_empty=empty)
        except InvalidInputError as exc:
            raise self.fail(str(exc)) from None

    def optional_text(self, name: str) -> str | None:
        return None if self.data.get(name) is None else self.text(name, empty=True)

    def time(self, name: str, *, optional: bool = False) -> datetime | None:
        value = self.data.get(name)
        if value is None and optional:
            return None
        if not isinstance(value, str):
            raise self.fail(f"{name} must be an ISO 8601 time")
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            raise self.fail(f"{name} {value!r} is not an ISO 8601 time") from None
        if parsed.tzinfo is None:
            raise self.fail(f"{name} {value!r} has no timezone")
        try:
            return aware(parsed, name)
        except InvalidInputError as exc:
            raise self.fail(str(exc)) from None

    def required_time(self, name: str) -> datetime:
        return cast(datetime, self.time(name))

    def choice(self, name: str, allowed: tuple[str, ...]) -> str:
        value = self.data.get(name)
        if value not in allowed:
            raise self.fail(f"{name} {value!r} is not one of {', '.join(allowed)}")
        return cast(str, value)

    def whole(self, name: str, *, low: float, high: float) -> int:
        value = self.data.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(f"{name} must be a whole number from {low:g} to {high:g}")
        return value

    def strings(self, name: str) -> tuple[str, ...]:
        value = self.data.get(name, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.fail(f"{name} must be a list of strings")
        return tuple(value)

    def ident(self, name: str, pattern: re.Pattern[str]) -> str:
        value = self.data.get(name)
        if not isinstance(value, str) or not pattern.match(value):
            raise self.fail(f"{name} {value!r} is not a valid id")
        return value


def _parse(lines: Iterable[str | Mapping[str, Any]]) -> Iterator[_Line]:
    for number, raw in enumerate(lines, start=1):
        if isinstance(raw, str):
            if not raw.strip():
                continue
            try:
                data = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise InvalidInputError(f"line {number}: not JSON ({exc.msg})") from None
        else:
            data = raw
        if not isinstance(data, Mapping):
            raise InvalidInputError(f"line {number}: expected a JSON object")
        yield _Line(number, data)


def import_scope(
    me: ScopedMemory, lines: Iterable[str | Mapping[str, Any]], *, actor: str = "import"
) -> Imported:
    """Restore an export into this scope, which must be empty; nothing is written unless
    every line is valid."""
    parsed = _parse(lines)
    header = next(parsed, None)
    if header is None:
        raise InvalidInputError("the export is empty")
    if header.data.get("type") != FORMAT:
        raise header.fail(f"not a pagemem export (expected type {FORMAT!r} first)")
    version = header.data.get("version")
    if version not in (1, VERSION) or isinstance(version, bool):
        raise header.fail(f"export version {version!r}; this pagemem reads 1 and {VERSION}")
    digest = hashlib.sha256(line_digest(header.data))
    count = 1
    ended = False
    records: list[Record] = []
    messages: list[Message] = []
    blocks: list[Block] = []
    history: list[HistoryEntry] = []
    retention: list[RetentionRule] = []
    summary: tuple[str, tuple[str, ...]] = ("", ())
    seen: set[str] = set()
    for line in parsed:
        kind = line.data.get("type")
        if ended:
            raise line.fail("a line after the end of the export")
        if kind == "end" and version != 1:
            _check_end(line, count, digest.hexdigest())
            ended = True
            continue
        digest.update(line_digest(line.data))
        count += 1
        if kind == "note":
            records.append(_note(me, line))
            key = records[-1].id
        elif kind == "message":
            messages.append(_message(me, line))
            key = messages[-1].id
        elif kind == "block":
            blocks.append(_block(me, line))
            key = f"block:{blocks[-1].label}"
        elif kind == "summary":
            text, _ = me._clean(line.text("text", empty=True), "the summary")
            summary, key = (text, line.strings("sources")), "summary"
        elif kind == "retention":
            try:
                retention.append(
                    RetentionRule(
                        line.choice("what", ("notes", "messages")),  # type: ignore[arg-type]
                        line.data.get("max_age_days"),  # type: ignore[arg-type]
                        line.strings("origins"),
                    )
                )
            except InvalidInputError as exc:
                raise line.fail(str(exc)) from None
            continue
        elif kind == "history":
            history.append(_history(me, line))
            continue
        else:
            raise line.fail(f"unknown line type {kind!r}")
        if key in seen:
            raise line.fail(f"{key} appears twice")
        seen.add(key)
    if version != 1 and not ended:
        raise InvalidInputError(
            f"the export ends after {count} lines without its end line: it was cut short "
            "(nothing imported)"
        )
    dump = ScopeDump(records, messages, blocks, summary[0], summary[1], history, retention)
    me.memory.store.restore(me.scope, dump, actor=actor, at=me.memory.now())
    # Facts exported before consolidation was recorded are weighed now, as a write
    # would weigh them (nothing is dropped; see consolidation).
    unweighed = [
        r.id
        for r in records
        if r.consolidation is None
        and r.kind != "episodic"
        and r.expired_at is None
        and not r.quarantined
    ]
    if unweighed:
        consolidate_scope(me, only=unweighed, actor=actor)
    return Imported(len(records), len(messages), len(blocks), len(history))


def _check_end(line: _Line, count: int, sha256: str) -> None:
    if line.data.get("lines") != count:
        raise line.fail(
            f"the end line counts {line.data.get('lines')!r} lines but {count} came before it"
        )
    if line.data.get("sha256") != sha256:
        raise line.fail("the lines do not match the end line's sha256: the file was changed")


def _note(me: ScopedMemory, line: _Line) -> Record:
    text, redacted = me._clean(line.text("text"), "a note")
    origin = line.choice("origin", ORIGINS)
    try:
        metadata = check_metadata(line.data.get("metadata", {}))
    except InvalidInputError as exc:
        raise line.fail(str(exc)) from None
    if redacted:
        metadata["redacted"] = sorted({*metadata.get("redacted", []), *redacted})
    verdict = me.memory.trust.judge(text, origin, learned=me.memory.learned)
    quarantined = line.data.get("quarantined", False)
    if not isinstance(quarantined, bool):
        raise line.fail("quarantined must be true or false")
    try:
        tags = tags_of(line.strings("tags"))
    except InvalidInputError as exc:
        raise line.fail(str(exc)) from None
    return Record(
        id=line.ident("id", _RECORD_ID),
        scope=me.scope,
        text=text,
        kind=cast(Kind, line.choice("kind", KINDS)),
        origin=cast(Origin, origin),
        source=line.text("source", empty=True, limit=4 * MAX_SOURCE),
        created_at=line.required_time("created_at"),
        valid_from=line.required_time("valid_from"),
        valid_to=line.time("valid_to", optional=True),
        tags=tags,
        metadata=metadata,
        flags=tuple(dict.fromkeys([*line.strings("flags"), *verdict.flags])),
        quarantined=quarantined or verdict.quarantined,
        key=line.optional_text("key"),
        expired_at=line.time("expired_at", optional=True),
        superseded_by=(
            None
            if line.data.get("superseded_by") is None
            else line.ident("superseded_by", _RECORD_ID)
        ),
        mentions=line.whole("mentions", low=1, high=10**9) if "mentions" in line.data else 1,
        consolidation=(
            None
            if line.data.get("consolidation") is None
            else line.choice("consolidation", CONSOLIDATIONS)
        ),
        consolidated_with=(
            None
            if line.data.get("consolidated_with") is None
            else line.ident("consolidated_with", _RECORD_ID)
        ),
    )


def _message(me: ScopedMemory, line: _Line) -> Message:
    content, _ = me._clean(line.text("content", empty=True), "a message")
    message_id = line.ident("id", _MESSAGE_ID)
    in_context = line.data.get("in_context")
    if not isinstance(in_context, bool):
        raise line.fail("in_context must be true or false")
    return Message(
        id=message_id,
        role=cast(Role, line.choice("role", ROLES)),
        content=content,
        created_at=line.required_time("created_at"),
        seq=line.whole("seq", low=1, high=10**18),
        name=line.optional_text("name"),
        tool_call_id=line.optional_text("tool_call_id"),
        in_context=in_context,
        evicted_at=line.time("evicted_at", optional=True),
        tool_calls=_calls(line),
    )


def _calls(line: _Line) -> tuple[ToolCall, ...]:
    raw = line.data.get("tool_calls") or []
    if not isinstance(raw, list):
        raise line.fail("tool_calls must be a list")
    calls = []
    for item in raw:
        fields = ("id", "name", "arguments")
        if not isinstance(item, dict) or not all(isinstance(item.get(f), str) for f in fields):
            raise line.fail("each tool call needs string id, name and arguments")
        calls.append(ToolCall(item["id"], item["name"], item["arguments"]))
    return tuple(calls)


def _block(me: ScopedMemory, line: _Line) -> Block:
    label = line.ident("label", LABEL_PATTERN)
    value, _ = me._clean(line.text("value", empty=True), f"block '{label}'")
    return Block(
        label=label,
        value=value,
        limit=line.whole("limit", low=1, high=1_000_000),
        updated_at=line.required_time("updated_at"),
        description=line.text("description", empty=True),
    )


def _history(me: ScopedMemory, line: _Line) -> HistoryEntry:
    before, after = line.optional_text("before"), line.optional_text("after")
    return HistoryEntry(
        seq=0,
        at=line.required_time("at"),
        op=line.text("op", limit=64),
        target=line.text("target", limit=64),
        target_id=line.text("target_id", limit=1024),
        before=None if before is None else me._clean(before, "history")[0],
        after=None if after is None else me._clean(after, "history")[0],
        actor=line.text("actor", limit=1024),
    )
