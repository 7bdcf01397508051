"""Facts that stay true, through the public API: supersede, merge, as_of, versions, the pass."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from click.testing import CliRunner

from pagemem import InvalidInputError, Memory, ScopedMemory
from pagemem.cli import cli
from pagemem.consolidate import Consolidator, slot_of
from pagemem.eval import facts


def at(year: int, month: int) -> datetime:
    return datetime(year, month, 1, tzinfo=UTC)


NOW = at(2026, 6)


@pytest.fixture(params=["dense", "words"])
def me(request: pytest.FixtureRequest, db_target: str) -> ScopedMemory:
    embedder = "default" if request.param == "dense" else None
    memory = Memory(db_target, clock=lambda: NOW, embedder=embedder)  # type: ignore[arg-type]
    return memory.scope("acme", "priya")


@pytest.mark.parametrize("dense", [True, False], ids=["dense", "words"])
def test_the_scenario_suite_scores_zero(dense: bool) -> None:
    score = facts.run(embedder="default" if dense else None)
    assert score.questions >= 13
    assert score.as_dict() == {
        "questions": score.questions,
        "stale_in_top5": 0,
        "duplicates_in_top5": 0,
        "wrong_merges": 0,
        "misses": 0,
        "problems": [],
    }


def test_a_move_closes_the_old_city_and_keeps_it_in_history(me: ScopedMemory) -> None:
    seattle = me.archive.insert("I live in Seattle", origin="user", valid_from=at(2023, 1))
    austin = me.archive.insert("I moved to Austin", origin="user", valid_from=at(2025, 1))
    old = me.archive.get(seattle)
    assert (old.valid_to, old.superseded_by) == (at(2025, 1), austin)
    assert old.expired_at == NOW
    assert seattle not in [h.record.id for h in me.archive.search("Seattle", k=5)]
    then = me.archive.search("Seattle", k=5, as_of=at(2024, 1))
    assert then[0].record.id == seattle
    versions = me.archive.history(austin)
    assert [(v.record.id, v.replaced_by) for v in versions] == [(seattle, austin), (austin, None)]
    assert "user home: seattle -> austin" in versions[0].reasons[0]
    assert [e.op for e in me.history(seattle)] == ["insert", "supersede"]


def test_a_restatement_merges_with_its_count_and_sources(me: ScopedMemory) -> None:
    first = me.archive.insert("I prefer window seats", origin="user", source="turn 1")
    again = me.archive.insert("I really prefer a window seat", origin="user", source="turn 9")
    assert again == first
    record = me.archive.get(first)
    assert record.mentions == 2
    assert record.metadata["sources"] == ["turn 9"]
    assert me.archive.count() == 1
    assert [e.op for e in me.history(first)] == ["insert", "merge"]


def test_a_web_page_cannot_supersede_what_the_user_said(me: ScopedMemory) -> None:
    mine = me.archive.insert("I live in Seattle", origin="user", valid_from=at(2023, 1))
    me.archive.insert("Priya lives in Austin", origin="web", valid_from=at(2025, 1))
    me.archive.insert("I live in Austin", origin="web", valid_from=at(2025, 2))
    assert me.archive.get(mine).expired_at is None


def test_keys_replace_without_guessing_and_are_checked(me: ScopedMemory) -> None:
    a = me.archive.insert("Gate B12", key="flight.gate", valid_from=at(2026, 1))
    b = me.archive.insert("Gate C3", key="flight.gate", valid_from=at(2026, 2))
    assert me.archive.get(a).superseded_by == b
    assert me.archive.insert("gate c3", key="flight.gate") == b  # the same fact again
    for bad in ("", " x", "a" * 200, "has space"):
        with pytest.raises(InvalidInputError, match="key"):
            me.archive.insert("x", key=bad)


def test_episodic_notes_and_opt_outs_are_stored_as_they_are(me: ScopedMemory) -> None:
    one = me.archive.insert("Met Ana for coffee", kind="episodic")
    two = me.archive.insert("Met Ana for coffee", kind="episodic")
    three = me.archive.insert("I live in Lisbon", origin="user")
    four = me.archive.insert("I live in Lisbon", origin="user", consolidate=False)
    assert len({one, two, three, four}) == 4


def test_the_consolidation_pass_is_idempotent(db_target: str) -> None:
    memory = Memory(db_target, clock=lambda: NOW)
    me = memory.scope("acme", "priya")
    me.archive.insert_many(
        [
            {"text": "I live in Seattle", "origin": "user", "valid_from": at(2023, 1)},
            {"text": "I prefer window seats", "origin": "user", "valid_from": at(2023, 2)},
            {"text": "I really prefer a window seat", "origin": "user", "valid_from": at(2023, 3)},
            {"text": "I moved to Austin", "origin": "user", "valid_from": at(2024, 1)},
            {"text": "I like green tea", "origin": "user", "valid_from": at(2024, 2)},
            {"text": "I like green apples", "origin": "user", "valid_from": at(2024, 3)},
        ]
    )
    preview = me.consolidate(dry_run=True)
    assert preview.merged == [("a3", "a2")]
    assert preview.superseded == [("a1", "a4")]
    assert me.archive.get("a1").expired_at is None  # a dry run changes nothing
    done = me.consolidate()
    assert (done.merged, done.superseded) == (preview.merged, preview.superseded)
    assert not me.consolidate()  # a second pass finds nothing
    assert me.archive.get("a2").mentions == 2
    lived = [h.record.text for h in me.archive.search("where do I live", k=5)]
    assert "I moved to Austin" in lived
    assert "I live in Seattle" not in lived
    out = CliRunner().invoke(cli, ["consolidate", "--db", db_target])
    assert out.exit_code == 0, out.output
    assert "merged 0 notes, closed 0" in out.output


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I live in Seattle", ("user", "home", "seattle", False)),
        ("I've just moved to Denver", ("user", "home", "denver", False)),
        ("Priya's sister lives in Porto", ("priya's sister", "home", "porto", False)),
        ("I'm no longer vegetarian", ("user", "is", "vegetarian", True)),
        ("I don't eat meat", ("user", "likes", "meat", True)),
        ("My new phone number is +1 555 0199", ("user", "phone", "+1 555 0199", False)),
        ("I started working at Globex", ("user", "employer", "globex", False)),
        ("My favourite colour is blue", ("user", "likes", "blue colour", False)),
        ("Window seats are my favourite", ("user", "likes", "window seats", False)),
    ],
)
def test_slots_of_common_shapes(text: str, slot: tuple[str, str, str, bool]) -> None:
    found = slot_of(text)
    assert found is not None
    assert (found.subject, found.attribute, found.value, found.negated) == slot


def test_decisions_without_embeddings() -> None:
    consolidator = Consolidator()
    assert slot_of("The museum opens at nine") is None
    assert consolidator.decide("Gate 12 at 9am", []).action == "insert"


def test_a_fact_about_the_past_written_late_is_closed_by_the_newer_one(me: ScopedMemory) -> None:
    now = me.archive.insert("I live in Austin", origin="user", valid_from=at(2025, 1))
    then = me.archive.insert("I live in Seattle", origin="user", valid_from=at(2019, 1))
    old = me.archive.get(then)
    assert (old.superseded_by, old.valid_to) == (now, at(2025, 1))
    assert me.archive.get(now).expired_at is None
    assert [h.record.id for h in me.archive.search("live", k=5, as_of=at(2020, 1))] == [then]


def test_an_llm_judge_decides_and_bad_verdicts_fall_back_to_the_rules(db_target: str) -> None:
    from pagemem.consolidate import LLMJudge

    replies = iter(
        [
            '{"action": "supersede", "targets": [1], "reason": "new city"}',
            "garbage",
            '{"action": "merge", "targets": [9]}',  # not one of the numbers: rejected
        ]
    )
    judge = LLMJudge(lambda messages: next(replies))
    memory = Memory(
        db_target, clock=lambda: NOW, embedder=None, consolidator=Consolidator(judge=judge)
    )
    me = memory.scope("acme", "priya")
    a = me.archive.insert("Home base: Seattle", origin="user", valid_from=at(2024, 1))
    b = me.archive.insert("Home base: Austin", origin="user", valid_from=at(2025, 1))
    assert me.archive.get(a).superseded_by == b  # the judge saw what the rules could not
    assert any("judge: new city" in (e.after or "") for e in me.history(a))
    # two bad answers: the rules decide (two different facts, no slot: insert)
    c = me.archive.insert("Home base: Denver", origin="user", valid_from=at(2026, 1))
    assert c not in (a, b)
    assert me.archive.get(b).expired_at is None

    def down(messages: list[dict[str, str]]) -> str:
        raise TimeoutError("model down")

    assert LLMJudge(down)("x", [me.archive.get(c)]) is None
