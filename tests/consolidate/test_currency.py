"""The read side of currency, on hits made by hand: what `arrange` does to an order."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pagemem.consolidate.currency import OUTDATED, arrange
from pagemem.models import Hit, Record, Scope

SCOPE = Scope("acme", "priya")


def _hit(
    record_id: str,
    text: str,
    score: float,
    year: int,
    key: str | None = None,
    origin: str = "user",
    flags: tuple[str, ...] = (),
) -> Hit:
    when = datetime(year, 1, 1, tzinfo=UTC)
    record = Record(
        record_id, SCOPE, text, "semantic", origin, "", when, when, key=key, flags=flags
    )
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


@pytest.mark.parametrize(
    ("origin", "flags"),
    [("web", ()), ("tool", ()), ("user", ("directive-shaped",)), ("user", ("neutralised",))],
)
def test_a_less_trusted_or_flagged_note_is_not_read_as_the_newer_value(
    origin: str, flags: tuple[str, ...]
) -> None:
    """As on write: a page that says the user moved does not move them."""
    hits = [
        _hit("a1", OLD, 1.0, 2022),
        _hit("a2", OTHER, 0.9, 2022),
        _hit("a3", NEW, 0.6, 2023, origin=origin, flags=flags),
    ]
    shown = arrange(hits, 5, cosine=_far)
    assert [h.record.id for h in shown] == ["a1", "a2", "a3"]
    # a newer note as trusted as the old one, or more, still goes first
    hits[0] = _hit("a1", OLD, 1.0, 2022, origin="web")
    hits[2] = _hit("a3", NEW, 0.6, 2023, origin="agent")
    assert [h.record.id for h in arrange(hits, 5, cosine=_far)] == ["a3", "a2", "a1"]


def test_a_fact_the_question_barely_finds_keeps_its_place() -> None:
    """Under SHORT_ANSWERS (0.3) of the best fact's score, a rival value is no answer."""
    hits = [_hit("a1", OLD, 1.0, 2022), _hit("a2", OTHER, 0.9, 2022), _hit("a3", NEW, 0.25, 2023)]
    assert [h.record.id for h in arrange(hits, 5, cosine=_far)] == ["a1", "a2", "a3"]


def test_documents_need_the_question_to_find_them_about_as_well() -> None:
    """Two emails with other numbers are not one fact changed: between documents (more
    than two sentences) the newer goes first only at ANSWERS (0.5) of the best score."""
    old = f"{OLD} The boiler was fixed in May. The deposit was 900."
    new = f"{NEW} The removal van cost 400. The keys came on Friday."
    hits = [_hit("a1", old, 1.0, 2022), _hit("a2", OTHER, 0.9, 2022), _hit("a3", new, 0.4, 2023)]
    assert [h.record.id for h in arrange(hits, 5, cosine=_far)] == ["a1", "a2", "a3"]
    hits[2] = _hit("a3", NEW, 0.4, 2023)  # short notes: 0.4 is about as well
    hits[0] = _hit("a1", OLD, 1.0, 2022)
    assert [h.record.id for h in arrange(hits, 5, cosine=_far)] == ["a3", "a2", "a1"]


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


LETTERS = [
    "Dear Anna, The doctor gave me clarithromycin, since I cannot take penicillin. How is "
    "Lyon? Love always, Mum",
    "Dear Anna, The hip operation is next month; I reminded them twice about my penicillin "
    "allergy. Love always, Mum",
    "Dear Anna, Please make sure the doctors know that penicillin brings me out in a rash. "
    "Love always, Mum",
]


def test_facts_that_answer_with_the_same_words_fill_two_places() -> None:
    """Three letters that each say, among other news, the same thing (words no other
    note says) are one answer: two places of the k, the third left out (still stored)."""
    hits = [_hit(f"a{i}", text, 1.0 - i / 10, 2018 + i) for i, text in enumerate(LETTERS, 1)]
    hits.append(_hit("a4", "Dear Anna, I joined a chair yoga class. Love always, Mum", 0.5, 2022))
    answers = {f"a{i}": frozenset({"penicillin"}) for i in (1, 2, 3)}
    assert [h.record.id for h in arrange(hits, 5, cosine=_far)] == ["a1", "a2", "a3", "a4"]
    shown = arrange(hits, 5, cosine=_far, answers=answers)
    assert [h.record.id for h in shown] == ["a1", "a2", "a4"]


@pytest.mark.parametrize(
    ("texts", "words", "shown"),
    [
        (  # a date against a date where the words are said: three flights
            [
                "Flight: BA 2490 LGW -> Malaga, 1 Jul.",
                "Flight for Mum: BA 2490 LGW -> Malaga, 15 Jul.",
                "Flight for Dad: BA 2490 LGW -> Malaga, 29 Jul.",
            ],
            {"ba", "2490", "lgw"},
            3,
        ),
        (  # "also": one more allergy
            [
                "I am allergic to peanuts.",
                "Peanuts make my throat swell, allergic since I was a kid.",
                "I am also allergic to shellfish, on top of peanuts.",
            ],
            {"peanut"},
            3,
        ),
        (  # a ticket's own number is not a value against another ticket's
            [
                "Ticket HC-900. Boiler cover: Greenstar 30i combi, fitted 2017.",
                "Ticket HC-1010. No hot water. Greenstar 30i combi; valve replaced.",
                "Ticket HC-1188. Service done on the Greenstar 30i combi.",
            ],
            {"greenstar", "30i", "combi"},
            2,
        ),
    ],
)
def test_shared_words_do_not_make_one_answer_of_rival_values_or_additions(
    texts: list[str], words: set[str], shown: int
) -> None:
    """A value against the other's where the words are said, or a note that adds one
    ("also"), is another fact, shared words or not."""
    hits = [_hit(f"a{i}", text, 1.0 - i / 10, 2020 + i) for i, text in enumerate(texts, 1)]
    answers = {hit.record.id: frozenset(words) for hit in hits}
    assert len(arrange(hits, 5, cosine=_far, answers=answers)) == shown


def test_facts_that_answer_with_the_same_words_and_rival_values_read_newest_first() -> None:
    """The words only these two notes say ("hall", "rehearse") carry a day in each: the
    same answer, changed. The newer goes first, unmarked, even far apart in meaning and
    far down the ranking."""
    old = "Went to my first choir rehearsal tonight, Wednesdays at 7:30 in the church hall."
    new = "Marion announced that the hall is let midweek, so we rehearse on Thursdays."
    hits = [_hit("a1", old, 1.0, 2023), _hit("a2", OTHER, 0.5, 2023), _hit("a3", new, 0.1, 2024)]
    assert [h.record.id for h in arrange(hits, 5, cosine=_far)] == ["a1", "a2", "a3"]
    answers = {"a1": frozenset({"hall", "rehears"}), "a3": frozenset({"hall", "rehears"})}
    shown = arrange(hits, 5, cosine=_far, answers=answers)
    assert [h.record.id for h in shown] == ["a3", "a2", "a1"]
    assert not any(h.flags for h in shown)


def test_the_same_answer_words_with_an_addition_or_another_subject_keep_their_places() -> None:
    old = "Went to my first choir rehearsal tonight, Wednesdays at 7:30 in the church hall."
    also = "We also rehearse on Thursdays in the hall before concerts."
    sister = "My sister's choir rehearses on Thursdays in the same hall."
    answers = {i: frozenset({"hall", "rehears"}) for i in ("a1", "a3")}
    for text in (also, sister):
        hits = [
            _hit("a1", old, 1.0, 2023),
            _hit("a2", OTHER, 0.5, 2023),
            _hit("a3", text, 0.1, 2024),
        ]
        shown = arrange(hits, 5, cosine=_far, answers=answers)
        assert [h.record.id for h in shown] == ["a1", "a2", "a3"]
