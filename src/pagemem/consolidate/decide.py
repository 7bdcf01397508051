"""The write-time decision: what a new note does to the scope's closest current facts.

Nothing a caller wrote is ever dropped. A restatement is stored as its own record,
retired behind the fact it repeats (which counts it); a change closes the facts it
replaces, which stay in history; an uncertain change keeps both current and links
the new note to the old one, so the read side can rank the newer first and mark the
older. Keyed writes (`key="user.home_city"`) skip the guessing. Each decision carries
a reason for the history.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pagemem.consolidate.relation import CONFLICT_COSINE, relate, stops_a_value
from pagemem.consolidate.statement import read
from pagemem.models import Record

if TYPE_CHECKING:
    from pagemem.consolidate.judge import LLMJudge

__all__ = ["TRUST", "Action", "Consolidator", "Decision"]

# A note may only restate or replace facts of an origin trusted no more than its own.
TRUST = {"system": 3, "user": 3, "agent": 2, "tool": 1, "web": 0}

# restate: stored, retired behind targets[0]; supersede: stored, closes the targets;
# keep-both: stored and current beside targets[0], which it may replace; add: stored.
Action = Literal["restate", "supersede", "keep-both", "add"]

# What each action is called on the record it wrote (Record.consolidation).
OUTCOME = {
    "restate": "restated",
    "supersede": "superseded",
    "keep-both": "kept-both",
    "add": "added",
}


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    targets: tuple[str, ...] = ()
    reason: str = ""

    @property
    def outcome(self) -> str:
        return OUTCOME[self.action]


class Consolidator:
    """Decides, for a new note and the scope's closest current facts, what to do.

    With a `judge` (an `LLMJudge`), the model decides whenever there are candidates; a
    missing or malformed verdict falls back to the rules.
    """

    def __init__(self, *, judge: LLMJudge | None = None) -> None:
        self.judge = judge

    @staticmethod
    def prepare(text: str) -> None:
        """Read a note a decision will weigh, ahead of it (readings are kept): a write
        does this for its candidates while its own note is being embedded."""
        read(text)

    def decide(
        self,
        text: str,
        candidates: Sequence[Record],
        cosines: Sequence[float | None] | None = None,
    ) -> Decision:
        """`candidates`: current facts of the scope, closest first; `cosines`: their
        embedding similarity to `text` (None without an embedder)."""
        if self.judge is not None and candidates:
            verdict = self.judge(text, candidates)
            if verdict is not None:
                return verdict
        return self._rules(text, candidates, cosines)

    @staticmethod
    def _rules(
        text: str,
        candidates: Sequence[Record],
        cosines: Sequence[float | None] | None,
    ) -> Decision:
        new = read(text)
        changed: list[tuple[str, str]] = []
        marked: list[tuple[float, str, str]] = []  # changes that rest on a marker word
        maybe: list[tuple[float, str, str]] = []
        for position, record in enumerate(candidates):
            cosine = cosines[position] if cosines is not None else None
            # too far apart in meaning for any relation but "distinct", unless the new
            # note stops a value the old one holds ("the 19 June slot was cancelled")
            far = cosine is not None and cosine < CONFLICT_COSINE
            if far and not (new.stopping and stops_a_value(read(record.text), new)):
                continue
            relation = relate(read(record.text), new, cosine)
            if relation.kind == "same":
                return Decision("restate", (record.id,), f"restates {record.id}")
            if relation.kind == "change" and relation.certain:
                changed.append((record.id, relation.reason))
            elif relation.kind == "change":
                marked.append((cosine if cosine is not None else 0.0, record.id, relation.reason))
            elif relation.kind == "maybe":
                maybe.append((cosine if cosine is not None else 0.0, record.id, relation.reason))
        if marked and not changed:  # the closest one: "now" changes one thing at a time
            _, record_id, why = max(marked, key=lambda item: item[0])
            changed.append((record_id, why))
        elif marked:  # next to a certain change, the others may still be newer values
            maybe += marked
        if changed:
            return Decision(
                "supersede",
                tuple(record_id for record_id, _ in changed),
                "; ".join(f"{record_id}: {why}" for record_id, why in changed),
            )
        if maybe:
            _, record_id, why = max(maybe, key=lambda item: item[0])
            return Decision(
                "keep-both", (record_id,), f"possibly a newer value of {record_id}: {why}"
            )
        return Decision("add")

    @staticmethod
    def keyed(text: str, key: str, current: Sequence[Record]) -> Decision:
        """A keyed write: the same text again restates, anything else replaces every
        current fact of the key."""
        new = read(text)
        for record in current:
            if relate(read(record.text), new).kind == "same":
                return Decision("restate", (record.id,), f"same fact for key {key}")
        ids = tuple(r.id for r in current)
        return Decision("supersede" if ids else "add", ids, f"new {key}")
