"""What the inspector's pages show, computed from `Memory` calls alone.

Each function takes a scope and the page's parameters and returns plain data for a
template: no HTML here (templates escape everything they print), and no store access
that the public API does not offer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pagemem.budget import Budget
from pagemem.context import DEFAULT_SYSTEM
from pagemem.guard.envelope import RULE
from pagemem.memory import ScopedMemory
from pagemem.models import KINDS, ORIGINS, Message, Record
from pagemem.tools import MEMORY_TOOLS, openai_tools

__all__ = [
    "KINDS",
    "ORIGINS",
    "BudgetCurve",
    "Segment",
    "TurnBar",
    "Window",
    "browse",
    "budget_curve",
    "facts_as_of",
    "segments",
    "timeline",
    "window",
]

PAGE = 20


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of a note's text, marked when the guard neutralised it."""

    text: str
    neutralised: bool = False


@dataclass(frozen=True, slots=True)
class TurnBar:
    """The window after one message was added: tokens per section."""

    turn: int
    system: int
    tools: int
    core: int
    summary: int
    messages: int
    reserve: int
    paged_out: int  # messages outside the window after this turn

    @property
    def total(self) -> int:
        return self.system + self.tools + self.core + self.summary + self.messages + self.reserve

    @property
    def sections(self) -> list[tuple[str, int]]:
        return [
            ("system", self.system),
            ("tools", self.tools),
            ("core", self.core),
            ("summary", self.summary),
            ("messages", self.messages),
            ("reserve", self.reserve),
        ]


@dataclass(frozen=True, slots=True)
class Window:
    max_tokens: int
    summary_tokens: int
    bars: list[TurnBar]
    paged: list[Message]  # the stored conversation's paged-out messages, oldest first
    in_context: list[Message]
    summary: str


@dataclass(frozen=True, slots=True)
class BudgetCurve:
    """Prompt tokens per call with and without paging, for the live configuration."""

    budget: Budget
    turns: int
    paged: list[int] = field(default_factory=list)
    keep_everything: list[int] = field(default_factory=list)


def window(
    me: ScopedMemory, max_tokens: int, summary_tokens: int | None, *, tools: bool = True
) -> Window:
    """Replays the stored conversation through a window of `max_tokens`: what each
    section held after every message, evicting the oldest first as `Context` does (the
    summary at most `summary_tokens`; by default, as `Context`, a tenth of what the
    fixed sections leave), with the memory tools' definitions offered when `tools`."""
    counter = me.counter
    overhead = counter.message_overhead
    system, core = _fixed(me)
    offered = counter.count(json.dumps(openai_tools(MEMORY_TOOLS))) if tools else 0
    system_and_tools = system + offered
    if summary_tokens is None:
        summary_tokens = max(0, (max_tokens - system_and_tools - core) // 10)
    paged = _all_paged(me)
    live = me.recall.in_context()
    messages = paged + live
    sizes = [counter.count(m.content) + overhead for m in messages]
    bars, window_start, evicted_tokens = [], 0, 0
    for turn in range(len(messages)):
        used = sum(sizes[window_start : turn + 1])
        summary = min(summary_tokens, evicted_tokens)
        while turn > window_start and system_and_tools + core + summary + used > max_tokens:
            used -= sizes[window_start]
            evicted_tokens += sizes[window_start]
            window_start += 1
            summary = min(summary_tokens, evicted_tokens)
        total = system_and_tools + core + summary + used
        bars.append(
            TurnBar(
                turn=turn + 1,
                system=system,
                tools=offered,
                core=core,
                summary=summary,
                messages=used,
                reserve=max(0, max_tokens - total),
                paged_out=window_start,
            )
        )
    return Window(max_tokens, summary_tokens, bars, paged, live, me.recall.summary())


def budget_curve(
    me: ScopedMemory,
    *,
    window_tokens: int,
    output: int,
    reserve: int,
    tools: bool = True,
    turns: int = 60,
) -> BudgetCurve:
    """The `pagemem budget --plot` picture for this scope: its system prompt (and the
    memory tools' definitions, when offered), core memory and average turn (a user and
    an assistant message) as stored."""
    counter = me.counter
    messages = _all_paged(me) + me.recall.in_context()
    per_message = [counter.count(m.content) + counter.message_overhead for m in messages]
    turn = max(1, round(2 * sum(per_message) / len(per_message))) if per_message else 100
    system, core = _fixed(me)
    if tools:
        system += me.counter.count(json.dumps(openai_tools(MEMORY_TOOLS)))
    plan = Budget(window_tokens, system, core, output, reserve, turn)
    shown = max(turns, min(1000, plan.overflow_turn * 3 // 2))
    costs = plan.costs(shown)
    return BudgetCurve(plan, shown, [c.paged for c in costs], [c.keep_everything for c in costs])


@dataclass(frozen=True, slots=True)
class Found:
    record: Record
    segments: list[Segment]
    score: float | None = None
    explain: str = ""
    flags: tuple[str, ...] = ()


def browse(
    me: ScopedMemory,
    *,
    query: str = "",
    kind: str = "",
    origin: str = "",
    tag: str = "",
    start: datetime | None = None,
    end: datetime | None = None,
    page: int = 1,
) -> tuple[list[Found], bool]:
    """One page of notes: ranked as the API ranks them when there is a query, else
    newest first; and whether there is a next page."""
    kinds = [kind] if kind else None
    origins = [origin] if origin else None
    tags = [tag] if tag else None
    page = max(1, page)
    if query.strip():
        hits = me.archive.search(
            query,
            k=min(1000, PAGE * page + 1),
            kinds=kinds,
            origins=origins,
            tags=tags,
            start=start,
            end=end,
        )
        shown = hits[PAGE * (page - 1) : PAGE * page]
        found = [Found(h.record, segments(h.record), h.score, h.explain, h.flags) for h in shown]
        return found, len(hits) > PAGE * page
    records = me.archive.list(
        limit=PAGE + 1,
        offset=PAGE * (page - 1),
        kinds=kinds,
        origins=origins,
        tags=tags,
        quarantined=None,
        newest_first=True,
    )
    if start is not None or end is not None:
        records = [
            r
            for r in records
            if (start is None or r.created_at >= start) and (end is None or r.created_at < end)
        ]
    return [Found(r, segments(r), flags=r.flags) for r in records[:PAGE]], len(records) > PAGE


def segments(record: Record) -> list[Segment]:
    """The note's text cut at the spans the guard neutralised (kept for review)."""
    spans = sorted(
        (int(a), int(b))
        for a, b in record.metadata.get("neutralised", [])
        if 0 <= int(a) < int(b) <= len(record.text)
    )
    out, at = [], 0
    for a, b in spans:
        if a < at:
            continue
        if a > at:
            out.append(Segment(record.text[at:a]))
        out.append(Segment(record.text[a:b], neutralised=True))
        at = b
    if at < len(record.text) or not out:
        out.append(Segment(record.text[at:]))
    return out


@dataclass(frozen=True, slots=True)
class Step:
    """One version of a fact, what closed it, and whether it held at the chosen time."""

    record: Record
    replaced_by: str | None
    reasons: tuple[str, ...]
    true_then: bool


def timeline(me: ScopedMemory, record_id: str, as_of: datetime | None) -> list[Step]:
    """Every version of the fact `record_id` belongs to, oldest first."""
    when = as_of or datetime.now(UTC)
    return [
        Step(v.record, v.replaced_by, v.reasons, _true_at(v.record, when))
        for v in me.archive.history(record_id)
    ]


def facts_as_of(me: ScopedMemory, as_of: datetime, limit: int = 200) -> list[Record]:
    """The facts that held at `as_of` (newest first), as `search(as_of=...)` reads them."""
    out: list[Record] = []
    offset = 0
    while len(out) < limit:
        page = me.archive.list(limit=500, offset=offset, newest_first=True)
        if not page:
            break
        out.extend(r for r in page if r.kind != "episodic" and _true_at(r, as_of))
        offset += len(page)
    return out[:limit]


def _true_at(record: Record, when: datetime) -> bool:
    return bool(record.valid_at(when)) and record.consolidation != "restated"


def _fixed(me: ScopedMemory) -> tuple[int, int]:
    """Tokens of the system message (the default prompt and the envelope rule) and of
    core memory, as `Context` counts them."""
    counter = me.counter
    system = counter.count(f"{DEFAULT_SYSTEM}\n\n{RULE}") + counter.message_overhead
    blocks = me.blocks.list()
    return system, counter.count("\n".join(f"<{b.label}>{b.value}</{b.label}>" for b in blocks))


def _all_paged(me: ScopedMemory) -> list[Message]:
    out: list[Message] = []
    while page := me.recall.list(limit=1000, offset=len(out)):
        out.extend(page)
    return out
