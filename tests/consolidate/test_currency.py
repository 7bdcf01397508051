"""The read side of currency, on hits made by hand: what `arrange` does to an order."""

from __future__ import annotations

from datetime import UTC, datetime

from pagemem.consolidate.currency import OUTDATED, arrange
from pagemem.models import Hit, Record, Scope

SCOPE = Scope("acme", "priya")


def _hit(record_id: str, text: str, score: float, year: int, key: str | None = None) -> Hit:
    when = datetime(year, 1, 1, tzinfo=UTC)
    record = Record(record_id, SCOPE, text, "semantic", "user", "", when, when, key=key)
    return Hit(record, score)


def _far(a: str, b: str) -> float:  # every pair far apart in meaning
    return 0.1


OLD = "I rent a one-bed flat at 14 Harbour Street; the landlord is slow with repairs."
NEW = "Slept at 9 Orchard Close last night for the first time, boxes everywhere."
OTHER = "I need to buy more coffee beans."


def test_facts_a_question_finds_about_as_well_with_rival_values_read_newest_first() -> None:
    hits = [_hit("a1", OLD, 1.0, 2022), _hit("a2", OTHER, 0.9, 2022), _hit("a3", NEW, 0.6, 2023)]
    shown = arrange(hits, 5, cosine=_far)
    # the two homes take the places they held, the newer first; nothing is marked
    assert [h.record.id for h in shown] == ["a3", "a2", "a1"]
    assert not any(f.startswith(OUTDATED) for h in shown for f in h.flags)


def test_a_fact_the_question_barely_finds_keeps_its_place() -> None:
    hits = [_hit("a1", OLD, 1.0, 2022), _hit("a2", OTHER, 0.9, 2022), _hit("a3", NEW, 0.4, 2023)]
    assert [h.record.id for h in arrange(hits, 5, cosine=_far)] == ["a1", "a2", "a3"]


def test_rival_values_of_different_subjects_keep_their_places() -> None:
    sister = "My sister's flat is at 9 Orchard Close, up two flights of stairs."
    hits = [_hit("a1", OLD, 1.0, 2022), _hit("a2", sister, 0.8, 2023)]
    assert [h.record.id for h in arrange(hits, 5, cosine=_far)] == ["a1", "a2"]


def test_facts_under_different_keys_are_never_one_fact_nor_rivals() -> None:
    """The caller named them apart: alike words neither fold nor cap nor mark them."""
    same = "content: the user prefers window seats on trains"
    hits = [_hit(f"a{i}", same, 1.0 - i / 10, 2020 + i, key=f"k{i}") for i in range(1, 5)]
    shown = arrange(hits, 5, cosine=lambda a, b: 0.99)
    assert [h.record.id for h in shown] == ["a1", "a2", "a3", "a4"]
    assert not any(h.flags for h in shown)
    unkeyed = [_hit(f"a{i}", same, 1.0 - i / 10, 2020 + i) for i in range(1, 5)]
    assert len(arrange(unkeyed, 5, cosine=lambda a, b: 0.99)) < 4
