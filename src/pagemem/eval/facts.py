"""Facts that stay true, scored through the public API on scenarios nobody tuned for.

The scenarios (eval/data/facts-*.jsonl) come in four families:

- **update**: a value changes one to three times; the current one must rank above
  every stale one in the top 5 (and be there).
- **lookalike**: notes that share most words but are different facts, all true at
  once; each must stay current and be in the top 5 for its own question.
- **restatement**: one fact said several ways; at most 2 of the top 5 may be it.
- **lostwrite**: near-identical notes that differ in one value; every one must stay
  readable under its id (checked for every statement of every family).

They were written in deliberately varied styles and split by style and topic before
any tuning: `dev` (terse, chatty and third-person notes about homes, jobs, contacts,
pets, food, travel, family; and, by an author who saw neither the rules nor the other
sets, voice transcripts, bullet notes, text messages, diaries, CRM records and
non-native English about sport, gardening, school, medicine, bills, music, documents,
vehicles, work tools and neighbours; and, by a third, meeting minutes, support tickets,
social posts, letters, shorthand and an assistant's notes; and, by two more, group chats,
calendar entries, dictation to a voice assistant, forum posts, clinic and landlord
records and journals, then voicemail transcripts, to-do lists, newsletters, app
notifications, hobby logs and machine-translated notes, then screenshots, sticky notes,
school portal messages, interview transcripts, cooking notes and itineraries, then
support chats, bullet journals, hospital letters, club bulletins, letting agents' notes
and typo-ridden texts to self; and three sets by authors asked to make them hard for
rules: changes told as a delta, an event, a pronoun or in passing, and look-alikes that
read like updates) and `test` (corrections,
long-winded notes and assistant logs about health, schedules, vehicles, hobbies,
subscriptions and settings; key-value notes, emails and mixed-person notes about money,
courses, projects, households, friends and shopping), each family of `test` by another
author. Tune on dev only.

With a `judge` (any `Chat`), an `LLMJudge` makes the write-time decisions instead of
the rules. `answer_key(scenarios)` is a scripted model that answers the judge's
prompt from the scenarios' own labels: what a judge that never errs would say. It
measures how far the store and the read side carry a right decision, apart from how
often a real model gets the decision right (`pagemem eval facts --judge`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from pagemem.consolidate import OUTDATED, Consolidator, LLMJudge
from pagemem.errors import InvalidInputError
from pagemem.memory import Memory, ScopedMemory
from pagemem.models import Chat
from pagemem.retrieval.embed import Embedder

__all__ = [
    "FAMILIES",
    "FactReport",
    "Question",
    "Scenario",
    "Statement",
    "answer_key",
    "load",
    "run",
]

FAMILIES = ("update", "lookalike", "restatement", "lostwrite")
TOP = 5


@dataclass(frozen=True, slots=True)
class Statement:
    text: str
    when: datetime


@dataclass(frozen=True, slots=True)
class Question:
    query: str
    current: tuple[int, ...]
    stale: tuple[int, ...] = ()
    as_of: datetime | None = None


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    family: str
    split: str
    style: str
    topic: str
    statements: tuple[Statement, ...]
    questions: tuple[Question, ...]


def _date(value: str) -> datetime:
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


def _scenario(data: dict[str, Any]) -> Scenario:
    statements = tuple(Statement(s["text"], _date(s["when"])) for s in data["statements"])
    questions = tuple(
        Question(
            q["query"],
            tuple(q["current"]),
            tuple(q.get("stale", ())),
            _date(q["as_of"]) if q.get("as_of") else None,
        )
        for q in data["questions"]
    )
    scenario = Scenario(
        data["id"], data["family"], data["split"], data.get("style", ""), data.get("topic", ""),
        statements, questions,
    )  # fmt: skip
    if scenario.family not in FAMILIES:
        raise ValueError(f"unknown family {scenario.family!r}")
    for question in questions:
        for index in (*question.current, *question.stale):
            if not 0 <= index < len(statements):
                raise ValueError(f"statement index {index} out of range")
    return scenario


def load(paths: Iterable[str | Path] | None = None) -> list[Scenario]:
    """The shipped scenarios, or those of these JSON-lines files."""
    if paths is None:
        folder = resources.files("pagemem.eval") / "data"
        sources = [
            (entry.name, entry.read_text(encoding="utf-8"))
            for entry in sorted(folder.iterdir(), key=lambda e: e.name)
            if entry.name.startswith("facts-") and entry.name.endswith(".jsonl")
        ]
    else:
        sources = [(str(p), Path(p).read_text(encoding="utf-8")) for p in paths]
    scenarios = []
    for name, text in sources:
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                scenarios.append(_scenario(json.loads(line)))
            except (ValueError, KeyError, TypeError) as exc:
                raise InvalidInputError(f"{name} line {number}: {exc}") from None
    return scenarios


@dataclass(slots=True)
class Tally:
    passed: int = 0
    total: int = 0

    def add(self, ok: bool) -> None:
        self.passed += ok
        self.total += 1

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 1.0


@dataclass(slots=True)
class FactReport:
    """Per split: the share of questions each family got right, plus lost writes."""

    scenarios: int = 0
    # (split, measure) -> tally; measures: update, update-as-of, lookalike-found,
    # lookalike-first, lookalike-current, lookalike-unmarked, restatement,
    # restatement-found, kept-current
    tallies: dict[tuple[str, str], Tally] = field(default_factory=dict)
    writes: int = 0
    lost: int = 0
    problems: list[str] = field(default_factory=list)

    def tally(self, split: str, measure: str) -> Tally:
        return self.tallies.setdefault((split, measure), Tally())

    def rate(self, split: str, measure: str) -> float:
        return self.tally(split, measure).rate

    def as_dict(self) -> dict[str, Any]:
        return {
            "scenarios": self.scenarios,
            "writes": self.writes,
            "lost_writes": self.lost,
            "splits": {
                split: {m: [t.passed, t.total] for (s, m), t in self.tallies.items() if s == split}
                for split in sorted({s for s, _ in self.tallies})
            },
            "problems": self.problems,
        }


def run(
    scenarios: Sequence[Scenario] | None = None,
    *,
    splits: Sequence[str] = ("dev", "test"),
    embedder: Embedder | str | None = "default",
    target: str = ":memory:",
    clock: Callable[[], datetime] | None = None,
    judge: Chat | None = None,
) -> FactReport:
    """Run every scenario of these splits in its own scope, each statement written
    through `archive.insert` at its date, then score the questions; with `judge`, an
    `LLMJudge` over that model decides what each write does."""
    chosen = [s for s in (load() if scenarios is None else scenarios) if s.split in splits]
    report = FactReport(scenarios=len(chosen))
    moment = {"now": datetime(2000, 1, 1, tzinfo=UTC)}
    memory = Memory(
        target,
        embedder=embedder,  # type: ignore[arg-type]
        clock=clock or (lambda: moment["now"]),
        consolidator=Consolidator(judge=LLMJudge(judge)) if judge is not None else None,
    )
    try:
        for scenario in chosen:
            me = memory.scope("eval-facts", scenario.id)
            ids = []
            for statement in scenario.statements:
                moment["now"] = statement.when + timedelta(hours=12)
                ids.append(
                    me.archive.insert(statement.text, origin="user", valid_from=statement.when)
                )
            moment["now"] = max(s.when for s in scenario.statements) + timedelta(days=30)
            _check_writes(me, scenario, ids, report)
            for question in scenario.questions:
                _score(me, scenario, question, ids, report)
    finally:
        memory.close()
    return report


def _check_writes(me: ScopedMemory, scenario: Scenario, ids: list[str], report: FactReport) -> None:
    _check_current(me, scenario, ids, report)
    exported = {line["id"]: line["text"] for line in me.export() if line.get("type") == "note"}
    if len(set(ids)) != len(ids):
        report.problems.append(f"{scenario.id}: an insert returned another note's id")
    for statement, record_id in zip(scenario.statements, ids, strict=True):
        report.writes += 1
        if (
            me.archive.get(record_id).text != statement.text
            or exported.get(record_id) != statement.text
        ):
            report.lost += 1
            report.problems.append(f"{scenario.id}: {statement.text!r} not kept under {record_id}")


def _check_current(
    me: ScopedMemory, scenario: Scenario, ids: list[str], report: FactReport
) -> None:
    """Every statement no question calls stale must still be current (a restatement
    retired behind its fact counts as kept): a note about something else must never
    close it. Lost-write chains are left out: each link closes the one before."""
    if scenario.family == "lostwrite":
        return
    stale = {i for question in scenario.questions for i in question.stale}
    for index, record_id in enumerate(ids):
        if index in stale:
            continue
        record = me.archive.get(record_id)
        kept = record.expired_at is None or record.consolidation == "restated"
        report.tally(scenario.split, "kept-current").add(kept)
        if not kept:
            why = f"closed by {record.superseded_by}"
            report.problems.append(f"{scenario.id}: {record.text!r} {why}")


def _score(
    me: ScopedMemory, scenario: Scenario, question: Question, ids: list[str], report: FactReport
) -> None:
    hits = me.archive.search(question.query, k=TOP, as_of=question.as_of)
    ranks = {hit.record.id: rank for rank, hit in enumerate(hits)}
    flags = {hit.record.id: hit.flags for hit in hits}
    split, where = scenario.split, f"{scenario.id}: {question.query!r}"
    shown = [hit.record.text for hit in hits]
    current = [ids[i] for i in question.current]
    if scenario.family in ("update", "lostwrite"):
        best = min((ranks[i] for i in current if i in ranks), default=None)
        stale = [ranks[ids[i]] for i in question.stale if ids[i] in ranks and ids[i] not in current]
        ok = best is not None and all(best < rank for rank in stale)
        measure = "update-as-of" if question.as_of is not None else scenario.family
        report.tally(split, measure).add(ok)
        if not ok:
            report.problems.append(f"{where}: current not first, got {shown}")
    elif scenario.family == "lookalike":
        for record_id in current:
            record = me.archive.get(record_id)
            found = record_id in ranks
            report.tally(split, "lookalike-found").add(found)
            # ordering facts newest first must not push the one asked for down
            report.tally(split, "lookalike-first").add(ranks.get(record_id) == 0)
            report.tally(split, "lookalike-current").add(record.expired_at is None)
            marked = any(f.startswith(OUTDATED) for f in flags.get(record_id, ()))
            report.tally(split, "lookalike-unmarked").add(not marked)
            if not found or record.expired_at is not None:
                report.problems.append(f"{where}: {record.text!r} lost its place, got {shown}")
    else:  # restatement
        group = set(current)
        inside = sum(1 for i in ranks if i in group)
        report.tally(split, "restatement").add(inside <= 2)
        report.tally(split, "restatement-found").add(inside >= 1)
        if inside > 2 or inside == 0:
            report.problems.append(f"{where}: {inside} of the top {TOP} are the fact: {shown}")


def answer_key(scenarios: Sequence[Scenario]) -> Chat:
    """A scripted model for `LLMJudge` that answers from the scenarios' labels: a
    statement restates one of its restatement group; it supersedes the earlier
    statements a question lists as stale beside it as current, and in a lost-write
    chain every earlier link; anything else is a new fact."""
    where: dict[str, list[tuple[Scenario, int]]] = {}
    for scenario in scenarios:
        for index, statement in enumerate(scenario.statements):
            where.setdefault(statement.text, []).append((scenario, index))

    def reply(messages: list[dict[str, str]]) -> str:
        asked = next(m["content"] for m in messages if m["role"] == "user")
        head, _, listed = asked.partition("\nEXISTING:\n")
        new_text = head.removeprefix("NEW: ")
        existing = {
            int(number): text
            for number, text in re.findall(r"^\[(\d+)\] (.*)$", listed, flags=re.MULTILINE)
        }
        for scenario, new in where.get(new_text, []):
            index = {
                number: i
                for number, text in existing.items()
                for i, statement in enumerate(scenario.statements)
                if statement.text == text
            }
            if len(index) == len(existing):
                return json.dumps(_verdict(scenario, new, index))
        return json.dumps({"action": "insert", "targets": [], "reason": "not in the key"})

    return reply


def _verdict(scenario: Scenario, new: int, existing: dict[int, int]) -> dict[str, Any]:
    when = scenario.statements[new].when
    if scenario.family == "restatement":
        group = {i for q in scenario.questions for i in q.current}
        same = [n for n, i in existing.items() if new in group and i in group]
        if same:
            return {"action": "merge", "targets": same[:1], "reason": "same fact"}
    replaced = sorted(
        n
        for n, i in existing.items()
        if scenario.statements[i].when < when
        and (
            scenario.family == "lostwrite"
            or any(new in q.current and i in q.stale for q in scenario.questions)
        )
    )
    if replaced:
        return {"action": "supersede", "targets": list(dict.fromkeys(replaced)), "reason": "newer"}
    return {"action": "insert", "targets": [], "reason": "another fact"}
