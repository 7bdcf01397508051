"""Reading a note for consolidation: values, markers and names, without a model."""

from __future__ import annotations

import pytest

from pagemem.consolidate.statement import read


def values(text: str) -> dict[str, str]:
    statement = read(text)
    return {value: statement.kinds[value] for value in statement.values}


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("limit unchanged at four thousand pounds", "4000"),
        ("we need twenty-five chairs", "25"),
        ("two hundred and fifty quid", "250"),
        ("a hundred people came", "100"),
        ("ninety nine problems", "99"),
        ("five million views", "5000000"),
    ],
)
def test_number_words_make_one_number(text: str, number: str) -> None:
    assert values(text) == {number: "number"}


def test_number_words_that_do_not_build_one_stay_apart() -> None:
    assert values("one two three") == {"1": "number", "2": "number", "3": "number"}
    assert values("a one-off fee") == {}  # a hyphenated word with no number in it
    assert values("work github is jpatel-acme") == {}


def test_day_abbreviations_that_are_everyday_words_need_a_cue() -> None:
    assert values("I sat down in the sun") == {}
    assert values("they wed in a barn") == {}
    assert values("open day this sat") == {"sat": "date"}
    assert values("Open day: Sat 14 Sep")["sat"] == "date"
    assert values("pay lands on fri") == {"fri": "date"}
    assert values("pay comes on the last weekday") == {"weekday": "date"}
    assert values("busy weekend") != values("busy weekday")


def test_too_is_an_addition_only_at_the_end_of_a_clause() -> None:
    assert read("I'm allergic to cats too.").addition
    assert read("Priya has a cat. Me too!").addition
    assert not read("the garden gets too much shade").addition


def test_a_capital_letter_on_its_own_is_a_value() -> None:
    assert values("row D, seats 11 and 12") == {"d": "code", "11": "number", "12": "number"}
    assert values("Take vitamin D daily") == {"d": "code"}
    assert "a" not in values("A new job at Acme")
    assert "i" not in values("I moved")


def test_marker_words_inside_a_name_mark_nothing() -> None:
    assert not read("The rose on the back fence is a 'New Dawn'").changing
    assert read("New job: CTO at Acme").changing  # the first word is not inside a name
    assert read("I moved to New York").changing
    assert read("we adopted ANOTHER one").addition  # capitals for emphasis are words


def test_a_verb_starting_a_sentence_is_not_a_name() -> None:
    assert "insur" not in values("Insuring Grandad's fiddle needed a description")
    assert "grandad" in values("Insuring Grandad's fiddle needed a description")


def test_a_sign_after_capitals_is_part_of_the_value() -> None:
    # blood types and grades: "A-" is not "A", and "AB-" is not "A-" said again
    assert values("Dad's blood type: A-.") == {"a-": "code"}
    assert values("Dad's blood type: AB-.") == {"ab-": "code"}
    assert values("got a B+ on the essay") == {"b+": "code"}
    assert "a-" not in values("an A-level in maths")  # a hyphen inside a word is no sign


@pytest.mark.parametrize(
    "note",
    [
        "Landlord's putting it up by 60 from February.",
        "Dr. Velasquez bumped me up by another 25 at today's appointment.",
        "Added another 8 km to the weekly total for marathon prep.",
    ],
)
def test_a_number_moved_by_an_amount_is_a_delta_not_an_addition(note: str) -> None:
    statement = read(note)
    assert statement.delta
    assert not statement.addition
    assert not statement.changing  # never enough alone to close the old fact


def test_another_thing_is_still_an_addition() -> None:
    statement = read("Booked another flight, LH 902 on the 15th.")
    assert statement.addition
    assert not statement.delta
