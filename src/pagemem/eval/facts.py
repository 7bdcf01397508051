"""Facts that stay true: scenarios run through the public API, scored as a benchmark.

Each scenario writes a user's statements in order (with the time each became
true), then asks questions. A question lists the fact that must be current
(`expect`), facts that are stale or must not surface (`stale`), and optionally
a time to ask `as_of`. Scored: stale facts in the top 5, duplicates in the top
5 (the same fact returned twice), wrong merges (a statement that should have
stayed its own fact was merged away), and misses (the expected fact not in the
top 5). The LLM-free default should score zero on all four.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pagemem.memory import Memory
from pagemem.retrieval.embed import Embedder

__all__ = ["SCENARIOS", "FactScore", "Question", "Scenario", "Statement", "run"]


def _at(year: int, month: int) -> datetime:
    return datetime(year, month, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Statement:
    text: str
    when: datetime
    key: str | None = None
    separate: bool = False  # must stay its own fact (never merged into another)


@dataclass(frozen=True, slots=True)
class Question:
    query: str
    expect: str
    stale: tuple[str, ...] = ()
    as_of: datetime | None = None


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    statements: tuple[Statement, ...]
    questions: tuple[Question, ...]


SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "moves city twice",
        (
            Statement("I live in Seattle", _at(2023, 1)),
            Statement("I moved to Austin last month", _at(2024, 6)),
            Statement("I've just moved to Denver", _at(2025, 9)),
        ),
        (
            Question(
                "where do I live now",
                "I've just moved to Denver",
                ("I live in Seattle", "I moved to Austin last month"),
            ),
            Question(
                "where did I live",
                "I live in Seattle",
                ("I moved to Austin last month", "I've just moved to Denver"),
                as_of=_at(2024, 1),
            ),
            Question(
                "where did I live",
                "I moved to Austin last month",
                ("I live in Seattle", "I've just moved to Denver"),
                as_of=_at(2025, 1),
            ),
        ),
    ),
    Scenario(
        "a preference stated five times",
        (
            Statement("I prefer window seats on flights", _at(2024, 1)),
            Statement("I really prefer a window seat", _at(2024, 2)),
            Statement("I like window seats best", _at(2024, 3)),
            Statement("Window seats are my favourite", _at(2024, 4)),
            Statement("My favourite seat is the window seat", _at(2024, 5)),
            Statement("I like green tea", _at(2024, 6), separate=True),
        ),
        (Question("which seat do I like on planes", "I prefer window seats on flights"),),
    ),
    Scenario(
        "a negated fact",
        (
            Statement("I am vegetarian", _at(2023, 3)),
            Statement("I'm no longer vegetarian", _at(2025, 2)),
        ),
        (
            Question("am I vegetarian", "I'm no longer vegetarian", ("I am vegetarian",)),
            Question(
                "am I vegetarian", "I am vegetarian", ("I'm no longer vegetarian",), _at(2024, 1)
            ),
        ),
    ),
    Scenario(
        "high word overlap, different facts",
        (
            Statement("Priya lives in Seattle", _at(2024, 1), separate=True),
            Statement("Priya's sister lives in Seattle", _at(2024, 2), separate=True),
            Statement("My flight to Lisbon leaves from gate 12", _at(2024, 3), separate=True),
            Statement("My flight to Lisbon leaves from gate 14", _at(2024, 4), separate=True),
            Statement("I like green tea", _at(2024, 5), separate=True),
            Statement("I like green apples", _at(2024, 6), separate=True),
        ),
        (
            Question("where does Priya's sister live", "Priya's sister lives in Seattle"),
            Question("what do I like to drink", "I like green tea"),
        ),
    ),
    Scenario(
        "job and phone changes",
        (
            Statement("I work at Acme as a data analyst", _at(2022, 1)),
            Statement("My phone number is +1 555 0100", _at(2022, 1)),
            Statement("I started working at Globex", _at(2024, 9)),
            Statement("My new phone number is +1 555 0199", _at(2024, 10)),
        ),
        (
            Question(
                "where do I work",
                "I started working at Globex",
                ("I work at Acme as a data analyst",),
            ),
            Question(
                "what is my phone number",
                "My new phone number is +1 555 0199",
                ("My phone number is +1 555 0100",),
            ),
        ),
    ),
    Scenario(
        "keyed facts",
        (
            Statement("Home airport: SEA", _at(2023, 1), key="user.home_airport"),
            Statement("Home airport: AUS", _at(2024, 6), key="user.home_airport"),
        ),
        (
            Question("which is my home airport", "Home airport: AUS", ("Home airport: SEA",)),
            Question(
                "which is my home airport",
                "Home airport: SEA",
                ("Home airport: AUS",),
                as_of=_at(2024, 1),
            ),
        ),
    ),
    Scenario(
        "a favourite that changes",
        (
            Statement("My favourite colour is blue", _at(2023, 1)),
            Statement("My favourite colour is green", _at(2025, 1)),
        ),
        (
            Question(
                "what is my favourite colour",
                "My favourite colour is green",
                ("My favourite colour is blue",),
            ),
        ),
    ),
)


@dataclass(slots=True)
class FactScore:
    """What went wrong over all scenarios (all zero is the target)."""

    questions: int = 0
    stale_in_top5: int = 0
    duplicates_in_top5: int = 0
    wrong_merges: int = 0
    misses: int = 0
    problems: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {
            "questions": self.questions,
            "stale_in_top5": self.stale_in_top5,
            "duplicates_in_top5": self.duplicates_in_top5,
            "wrong_merges": self.wrong_merges,
            "misses": self.misses,
            "problems": self.problems,
        }


def run(
    scenarios: tuple[Scenario, ...] = SCENARIOS,
    *,
    embedder: Embedder | str | None = "default",
    clock: Callable[[], datetime] | None = None,
) -> FactScore:
    """Run every scenario in its own scope of a fresh in-memory Memory."""
    now = clock or (lambda: datetime(2026, 6, 1, tzinfo=UTC))
    memory = Memory(":memory:", embedder=embedder, clock=now)  # type: ignore[arg-type]
    score = FactScore()
    for number, scenario in enumerate(scenarios):
        me = memory.scope("eval-facts", f"scenario-{number}")
        ids: dict[str, str] = {}
        for statement in scenario.statements:
            record_id = me.archive.insert(
                statement.text, origin="user", valid_from=statement.when, key=statement.key
            )
            if statement.separate and record_id in ids.values():
                score.wrong_merges += 1
                score.problems.append(f"{scenario.name}: {statement.text!r} was merged away")
            ids[statement.text] = record_id
        for question in scenario.questions:
            score.questions += 1
            hits = me.archive.search(question.query, k=5, as_of=question.as_of)
            texts = [hit.record.text for hit in hits]
            found_ids = [hit.record.id for hit in hits]
            where = f"{scenario.name}: {question.query!r}" + (
                f" as of {question.as_of:%Y-%m}" if question.as_of else ""
            )
            stale = [t for t in question.stale if ids.get(t) in found_ids and t != question.expect]
            stale = [t for t in stale if ids[t] != ids.get(question.expect)]
            if stale:
                score.stale_in_top5 += len(stale)
                score.problems.append(f"{where}: stale {stale}")
            if len(set(found_ids)) != len(found_ids) or len(set(texts)) != len(texts):
                score.duplicates_in_top5 += 1
                score.problems.append(f"{where}: duplicates {texts}")
            if ids.get(question.expect) not in found_ids:
                score.misses += 1
                score.problems.append(f"{where}: expected {question.expect!r}, got {texts}")
    memory.close()
    return score
