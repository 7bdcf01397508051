"""How two notes relate, by the rules alone."""

from __future__ import annotations

import pytest

from pagemem.consolidate.relation import relate, stops_a_value, subjects_agree
from pagemem.consolidate.statement import read


def kind(old: str, new: str, cosine: float | None) -> str:
    return relate(read(old), read(new), cosine).kind


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Dr Mbeki's clinic line is 021 555 0192.",
            "Dr Mbeki's clinic number remains 021 555 0192.",
        ),
        ("Lars is vegan.", "Lars has been plant-based for years."),
        ("I teach year 4 at Hillside Primary", "parents evening for my year 4 class at Hillside"),
    ],
)
def test_other_words_with_no_value_against_a_value_are_not_a_possible_change(
    old: str, new: str
) -> None:
    assert kind(old, new, 0.7) == "distinct"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Based in Nairobi.", "Relocated to Kampala.", "maybe"),  # a name for a name
        ("Usual order: flat white.", "Switched my usual order to a cortado now.", "maybe"),
        ("Mobile: +44 7700 900123", "Mobile: +44 7700 900990", "change"),
    ],
)
def test_a_value_against_a_value_or_a_word_of_change_still_competes(
    old: str, new: str, expected: str
) -> None:
    assert kind(old, new, 0.62) == expected


def test_stopping_a_dated_value_is_a_change_whoever_did_it() -> None:
    old = read("Client requested reschedule. Biometrics now 19 June 2023, same centre.")
    new = read("VFS cancelled the 19 June slot due to an outage. Rebooked for 26 June 2023.")
    assert stops_a_value(old, new)
    assert relate(old, new, 0.3).kind == "change"
    # someone named by a role keeps their own: "my sister's" flight is not mine
    mine = read("My flight to Rome is on 19 June.")
    hers = read("My sister's 19 June flight was cancelled.")
    assert not stops_a_value(mine, hers)
    assert relate(mine, hers, 0.6).kind != "change"


def test_a_denial_in_passing_is_not_a_change() -> None:
    old = "Household meeting - minutes. Noted that the van's MOT is due on 14 May. Action: book it."
    new = "Household meeting - minutes. Noted that the bus passes were renewed. No action."
    assert kind(old, new, 0.5) != "change"
    # the same statement denied still is, and is certain
    relation = relate(read("I am vegetarian"), read("I'm no longer vegetarian"), 0.8)
    assert (relation.kind, relation.certain) == ("change", True)
    assert kind("Rex smokes a pack a day", "Rex quit smoking", 0.6) == "change"


def test_a_change_that_rests_on_a_marker_word_is_not_certain() -> None:
    swapped = relate(read("Priya is 34 years old"), read("Priya is 35 years old"), 0.9)
    assert (swapped.kind, swapped.certain) == ("change", True)
    said = relate(read("Lives in Seville."), read("Moved to Lisbon now."), 0.6)
    assert (said.kind, said.certain) == ("change", False)


def test_a_blood_type_chain_changes_at_every_link() -> None:
    first, second, third = (read(f"Dad's blood type: {v}.") for v in ("A+", "A-", "AB-"))
    assert relate(first, second, 0.95).kind == "change"
    assert relate(second, third, 0.95).kind == "change"


@pytest.mark.parametrize(
    "note",
    [
        "Sad news for our little group: the Rook & Pawn shut, so we meet at the Cider Press.",
        "Marion announced tonight that from next week we rehearse on Thursdays.",
    ],
)
def test_a_first_word_never_marked_as_a_name_may_still_be_about_the_user(note: str) -> None:
    """ "Sad news ...", "Marion announced that we ...": the word that acts first is read
    as the subject, but nothing marks it as a name, so it does not rule out the user."""
    mine = read("I run a board game group; we meet at the Rook & Pawn on Sundays.")
    assert subjects_agree(read(note), mine)


def test_two_people_or_a_marked_name_still_keep_subjects_apart() -> None:
    mine = read("I live at 14 Harbour Street.")
    assert not subjects_agree(read("Maya lives at 9 Orchard Close."), read("Priya lives there."))
    assert not subjects_agree(read("Maya's flat is at 9 Orchard Close."), mine)
    assert not subjects_agree(read("My sister lives at 9 Orchard Close."), mine)


def test_a_role_named_in_apposition_is_the_person_named() -> None:
    """ "My wife Hana works nights" is about Hana: a later "Hana's on earlies" competes."""
    wife = read("My wife Hana works night shifts at the sorting centre, 10pm to 6am.")
    assert {"user:wife", "hana"} <= wife.subjects
    assert subjects_agree(wife, read("Hana's on earlies, finishes at 2."))
    assert not subjects_agree(wife, read("Priya's on earlies, finishes at 2."))


def test_in_a_note_about_the_user_their_role_is_the_users() -> None:
    """An assistant's summary ("User mentioned their dad ...") speaks of the user's dad."""
    summary = read("User mentioned their dad settled into Elmhurst assisted living.")
    assert "user:dad" in summary.subjects
    assert subjects_agree(summary, read("My dad lives on his own in Tressel Gardens."))
    assert not subjects_agree(summary, read("My sister lives in Tressel Gardens."))
