"""LoCoMo retrieval benchmark, measured through the public API and without any LLM.

Each conversation goes into its own scope, one archival note per dialog turn with
the turn's `dia_id` as its source. Every question of categories 1-4 is asked with
`archive.search`; a question's evidence lists the turns that hold its answer, so
recall@k of those turns needs no model. Tune on the dev split only.

The data set (CC BY-NC 4.0) is read from a path the user gives; pagemem never
ships a copy.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from pagemem.errors import InvalidInputError
from pagemem.eval.metrics import Scoreboard
from pagemem.memory import Memory

__all__ = [
    "CATEGORIES",
    "DEV",
    "HELD_OUT",
    "Conversation",
    "Question",
    "ReplayClock",
    "Turn",
    "evaluate",
    "load",
    "normalise_evidence",
]

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
DEV = ("conv-26", "conv-30", "conv-41", "conv-42", "conv-43", "conv-44")
HELD_OUT = ("conv-47", "conv-48", "conv-49", "conv-50")
_EVIDENCE = re.compile(r"D:?(\d+):(\d+)")


@dataclass(frozen=True, slots=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    session: int
    when: datetime | None

    def note(self) -> str:
        """The turn as one note: the speaker stays in the text."""
        return f"{self.speaker}: {self.text}"


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    category: int
    evidence: frozenset[str]


@dataclass(frozen=True, slots=True)
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]
    dropped_evidence: int  # evidence ids that name no turn of the conversation


class ReplayClock:
    """A memory's clock that a replay sets: messages paged out to recall are stamped
    with the time they were said, as in a live conversation, not all with the moment
    the benchmark ran (which would make every turn a neighbour of every other and
    leave no time for a question to name)."""

    def __init__(self) -> None:
        self.at: datetime | None = None

    def __call__(self) -> datetime:
        return self.at or datetime.now(UTC)


def _session_time(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.strptime(value, "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    except ValueError:
        return None


def normalise_evidence(raw: Iterable[str]) -> set[str]:
    """'D8:6; D9:17' -> {D8:6, D9:17}; 'D:11:26' -> D11:26; 'D30:05' -> D30:5."""
    found = set()
    for item in raw:
        for session, turn in _EVIDENCE.findall(str(item)):
            found.add(f"D{int(session)}:{int(turn)}")
    return found


def _parse(sample: dict[str, Any]) -> Conversation:
    conv = sample["conversation"]
    turns = []
    session = 1
    while f"session_{session}" in conv:
        when = _session_time(conv.get(f"session_{session}_date_time"))
        for turn in conv[f"session_{session}"]:
            text = turn["text"]
            if turn.get("blip_caption"):
                text = f"{text} [shares {turn['blip_caption']}]"
            turns.append(Turn(turn["dia_id"], turn["speaker"], text, session, when))
        session += 1
    known = {turn.dia_id for turn in turns}
    questions, dropped = [], 0
    for qa in sample["qa"]:
        category = int(qa.get("category", 0))
        if category not in CATEGORIES:
            continue
        evidence = normalise_evidence(qa.get("evidence", []))
        dropped += len(evidence - known)
        evidence &= known
        if evidence:
            questions.append(Question(str(qa["question"]), category, frozenset(evidence)))
    return Conversation(
        sample_id=sample["sample_id"],
        speakers=(conv["speaker_a"], conv["speaker_b"]),
        turns=tuple(turns),
        questions=tuple(questions),
        dropped_evidence=dropped,
    )


def load(path: str | Path) -> list[Conversation]:
    """Read locomo10.json (or a file of the same shape)."""
    try:
        samples = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InvalidInputError(f"no LoCoMo file at {path}") from None
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"{path} is not JSON: {exc}") from None
    try:
        return [_parse(sample) for sample in samples]
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInputError(f"{path} does not have LoCoMo's shape: {exc!r}") from None


def ingest(memory: Memory, conversation: Conversation, *, plain: bool = False) -> None:
    """Insert every turn of a conversation as one note, in order, in its own scope.

    `plain` writes what a user who passes only text would: no metadata (the speaker is
    then known only from the note's leading "Name:").
    """
    me = memory.scope("locomo", conversation.sample_id)
    for turn in conversation.turns:
        me.archive.insert(
            turn.note(),
            source=turn.dia_id,
            origin="user",
            kind="episodic",
            valid_from=turn.when,
            metadata=None if plain else {"speaker": turn.speaker, "session": turn.session},
        )


def ingest_recall(
    memory: Memory, conversation: Conversation, clock: ReplayClock | None = None
) -> dict[str, str]:
    """Append every turn as a message and page it out to recall; map message id -> dia_id.

    With the memory's `clock`, each turn is said at its session's time and the clock is
    left a day after the last (when the questions are asked)."""
    me = memory.scope("locomo-recall", conversation.sample_id)
    first = conversation.speakers[0]
    by_message: dict[str, str] = {}
    for turn in conversation.turns:
        if clock is not None and turn.when is not None:
            clock.at = turn.when
        role: Literal["user", "assistant"] = "user" if turn.speaker == first else "assistant"
        message = me.recall.append(role, turn.note())
        by_message[message.id] = turn.dia_id
        me.recall.evict([message.id])
    if clock is not None and clock.at is not None:
        clock.at += timedelta(days=1)
    return by_message


def evaluate(
    conversations: Iterable[Conversation],
    *,
    memory: Memory | None = None,
    clock: ReplayClock | None = None,
    depth: int = 20,
    target: Literal["archive", "recall"] = "archive",
    plain: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Scoreboard:
    """Ingest each conversation and score every question's ranking of its evidence.

    `target="archive"` asks `archive.search`; `target="recall"` pages the turns out as
    messages and asks `recall.search(order="relevance")`. `plain` inserts notes with no
    metadata (messages never have any). `clock` is `memory`'s own (made here with it
    when no memory is given): messages are then said at their session's time.
    """
    if memory is None:
        clock = clock or ReplayClock()
        memory = Memory(":memory:", clock=clock)
    board = Scoreboard()
    for conversation in conversations:
        if target == "archive":
            ingest(memory, conversation, plain=plain)
            me = memory.scope("locomo", conversation.sample_id)
        else:
            dia_ids = ingest_recall(memory, conversation, clock)
            me = memory.scope("locomo-recall", conversation.sample_id)
        for question in conversation.questions:
            if target == "archive":
                ranked = [hit.record.source for hit in me.archive.search(question.text, k=depth)]
            else:
                found = me.recall.search(question.text, limit=depth, order="relevance")
                ranked = [dia_ids[message.id] for message in found]
            board.add(ranked, set(question.evidence), [CATEGORIES[question.category]])
            if progress:
                progress(1)
    return board
