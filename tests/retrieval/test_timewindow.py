from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import numpy as np
import pytest

from pagemem import Memory
from pagemem.retrieval.analysis import Analyzer
from pagemem.retrieval.ranker import RetrievalConfig
from pagemem.retrieval.timewindow import asks_when, event_offset, tells_when, time_window

# a Wednesday
REFERENCE = datetime(2023, 8, 2, 15, 30, tzinfo=UTC)
LEXICAL = RetrievalConfig(neighbour_weight=0, context_weight=0)
INF = float("inf")


def _days(query: str, reference: datetime = REFERENCE) -> tuple[object, object]:
    """The window as dates (end exclusive), or the infinities."""
    window = time_window(query, reference)
    assert window is not None, query

    def day(t: float) -> object:
        return t if abs(t) == INF else datetime.fromtimestamp(t, UTC).date()

    return day(window.start), day(window.end)


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("What did Melanie paint on 25 May, 2023?", date(2023, 5, 25), date(2023, 5, 26)),
        ("what happened May 25th 2023", date(2023, 5, 25), date(2023, 5, 26)),
        ("the 3rd of June 2022", date(2022, 6, 3), date(2022, 6, 4)),
        ("Sept. 9, 2021", date(2021, 9, 9), date(2021, 9, 10)),
        ("log of 2023-02-28", date(2023, 2, 28), date(2023, 3, 1)),
        ("What did Melanie paint in May 2023?", date(2023, 5, 1), date(2023, 6, 1)),
        ("in December of 2022", date(2022, 12, 1), date(2023, 1, 1)),
        ("Where did Gina travel in summer 2022?", date(2022, 6, 1), date(2022, 9, 1)),
        ("the winter of 2022", date(2022, 12, 1), date(2023, 3, 1)),
        ("What did John do in 2022?", date(2022, 1, 1), date(2023, 1, 1)),
        ("during 2021", date(2021, 1, 1), date(2022, 1, 1)),
        # a part of a year: a third of it, or a half
        ("Where was I living at the start of 2023?", date(2023, 1, 1), date(2023, 5, 1)),
        ("in early 2023", date(2023, 1, 1), date(2023, 5, 1)),
        ("in mid-2021", date(2021, 5, 1), date(2021, 9, 1)),
        ("by the end of 2022", -INF, date(2023, 1, 1)),
        ("the second half of 2020", date(2020, 7, 1), date(2021, 1, 1)),
        # a month or day without a year takes the one the question names
        ("between August 11 and August 15 2023", date(2023, 8, 11), date(2023, 8, 16)),
        ("in June, or was it 2021?", date(2021, 6, 1), date(2021, 7, 1)),
        ("last August", date(2022, 8, 1), date(2022, 9, 1)),
        ("last June", date(2023, 6, 1), date(2023, 7, 1)),
        ("last summer", date(2023, 6, 1), date(2023, 9, 1)),
    ],
)
def test_absolute_phrases(query: str, start: date, end: date) -> None:
    assert _days(query) == (start, end)


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("what did I eat today", date(2023, 8, 2), date(2023, 8, 3)),
        ("Yesterday I said what?", date(2023, 8, 1), date(2023, 8, 2)),
        ("the day before yesterday", date(2023, 7, 31), date(2023, 8, 1)),
        ("what did I buy last week", date(2023, 7, 24), date(2023, 8, 3)),
        ("this week", date(2023, 7, 31), date(2023, 8, 7)),
        ("last weekend", date(2023, 7, 29), date(2023, 7, 31)),
        ("this month", date(2023, 8, 1), date(2023, 9, 1)),
        ("last month", date(2023, 7, 1), date(2023, 8, 3)),
        ("this year", date(2023, 1, 1), date(2024, 1, 1)),
        ("last year", date(2022, 1, 1), date(2023, 8, 3)),
        ("what happened two days ago", date(2023, 7, 31), date(2023, 8, 1)),
        ("3 days ago", date(2023, 7, 30), date(2023, 7, 31)),
        ("a couple of weeks ago", date(2023, 7, 16), date(2023, 7, 23)),
        ("three months ago", date(2023, 5, 1), date(2023, 6, 1)),
        ("a year ago", date(2022, 1, 1), date(2023, 1, 1)),
        ("on Monday", date(2023, 7, 31), date(2023, 8, 1)),
        ("last Wednesday", date(2023, 7, 26), date(2023, 7, 27)),
    ],
)
def test_relative_phrases_read_against_the_reference(query: str, start: date, end: date) -> None:
    assert _days(query) == (start, end)


def _moments(*days: date) -> np.ndarray:
    return np.asarray([datetime(d.year, d.month, d.day, 12, tzinfo=UTC).timestamp() for d in days])


@pytest.mark.parametrize(
    ("query", "inside", "outside"),
    [
        ("what did I cook in March", [date(2019, 3, 31), date(2023, 3, 1)], [date(2023, 4, 1)]),
        ("in mid-July", [date(2020, 7, 15)], [date(2020, 6, 30), date(2020, 8, 1)]),
        ("the second week of November", [date(2022, 11, 9)], [date(2022, 12, 9)]),
        ("on August 11", [date(2021, 8, 11), date(2024, 8, 11)], [date(2021, 8, 12)]),
        ("on the 5th of May", [date(2021, 5, 5)], [date(2021, 5, 6)]),
        ("in the winter", [date(2021, 12, 1), date(2022, 2, 28)], [date(2022, 3, 1)]),
        ("in December", [date(2021, 12, 31)], [date(2022, 1, 1), date(2021, 11, 30)]),
    ],
)
def test_without_a_year_any_year_matches(
    query: str, inside: list[date], outside: list[date]
) -> None:
    window = time_window(query, REFERENCE)
    assert window is not None
    assert window.mask(_moments(*inside), 0.0).all()
    assert not window.mask(_moments(*outside), 0.0).any()


def test_slack_widens_a_yearly_window_too() -> None:
    window = time_window("on August 11", REFERENCE)
    assert window is not None
    near = _moments(date(2021, 8, 12))
    assert not window.mask(near, 0.0).any()
    assert window.mask(near, 86_400.0).all()


def test_the_reference_moves_relative_phrases_only() -> None:
    earlier = REFERENCE - timedelta(days=365)
    assert _days("yesterday", earlier) == (date(2022, 8, 1), date(2022, 8, 2))
    assert _days("in May 2023", earlier) == _days("in May 2023")


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("before 2022", -INF, date(2022, 1, 1)),
        ("after May 2023", date(2023, 6, 1), INF),
        ("since March 2023", date(2023, 3, 1), INF),
        ("until 4 July 2023", -INF, date(2023, 7, 5)),
        # a count and unit ahead of "before"/"after" move the span instead
        ("two days before 25 May 2023", date(2023, 5, 23), date(2023, 5, 24)),
        ("a week after 1 June 2023", date(2023, 6, 8), date(2023, 6, 9)),
        ("3 days before 2023-03-02", date(2023, 2, 27), date(2023, 2, 28)),
    ],
)
def test_before_after_and_since_open_one_side(query: str, start: object, end: object) -> None:
    assert _days(query) == (start, end)


def test_several_phrases_give_their_hull() -> None:
    window = time_window("on May 25th, 2023 and on June 3, 2023", REFERENCE)
    assert window is not None
    assert _days("on May 25th, 2023 and on June 3, 2023") == (date(2023, 5, 25), date(2023, 6, 4))
    assert window.phrase == "may 25th, 2023; june 3, 2023"


@pytest.mark.parametrize(
    "query",
    [
        "When did Caroline go to the LGBTQ support group?",
        "May I ask what Caroline likes?",
        "this may be wrong",
        "how many times did she march in protest",
        "out of 2000 people",
        "room 2022",
        "version 2023-13-01",  # no month 13
        "on 31 February 2023",  # no such day
        "the meeting at 10:30",
        "two days before the trip",  # relative to an event: not read
        "and may I ask",
        "we want to march in the parade",
        "",
        "   ",
    ],
)
def test_no_time_means_no_window(query: str) -> None:
    assert time_window(query, REFERENCE) is None


def test_a_naive_reference_is_refused() -> None:
    with pytest.raises(ValueError, match="timezone"):
        time_window("yesterday", datetime(2023, 8, 2))


def _diary(mem: Memory) -> list[str]:
    me = mem.scope("acme", "diary")
    painted = {3: "a lake at dawn", 5: "her dog asleep", 7: "sunflowers in a vase"}
    return [
        me.archive.insert(
            f"Melanie painted {what}", valid_from=datetime(2023, month, 10, tzinfo=UTC)
        )
        for month, what in painted.items()
    ]


def test_notes_from_the_named_time_rank_first(store_target: str) -> None:
    with Memory(store_target, embedder=None, retrieval=LEXICAL) as mem:
        march, may, july = _diary(mem)
        me = mem.scope("acme", "diary")
        hits = me.archive.search("What did Melanie paint in May 2023?", k=3)
        assert hits[0].record.id == may
        assert "time='may 2023'" in hits[0].explain
        assert all("time=" not in h.explain for h in hits[1:])
        assert me.archive.search("what did Melanie paint in July 2023", k=1)[0].record.id == july
        # a time no note falls in changes nothing; neither does a question with none
        plain = [h.record.id for h in me.archive.search("what did Melanie paint", k=3)]
        assert [h.record.id for h in me.archive.search("Melanie paint in 2019", k=3)] == plain
        # a boost, not a filter: notes outside the window are still found
        assert {h.record.id for h in hits} == {march, may, july}


def test_relative_time_is_read_against_as_of(store_target: str) -> None:
    with Memory(store_target, embedder=None, retrieval=LEXICAL) as mem:
        march, may, _ = _diary(mem)
        me = mem.scope("acme", "diary")
        as_of = datetime(2023, 6, 1, tzinfo=UTC)
        hits = me.archive.search("what did Melanie paint last month", k=2, as_of=as_of)
        assert hits[0].record.id == may
        as_of = datetime(2023, 3, 12, tzinfo=UTC)
        hits = me.archive.search("what did Melanie paint two days ago", k=2, as_of=as_of)
        assert hits[0].record.id == march


def test_time_boost_zero_turns_it_off() -> None:
    config = RetrievalConfig(neighbour_weight=0, context_weight=0, time_boost=0)
    with Memory(":memory:", embedder=None, retrieval=config) as mem:
        _diary(mem)
        hits = mem.scope("acme", "diary").archive.search("Melanie paint in May 2023", k=3)
        assert all("time=" not in h.explain for h in hits)


def test_recall_boosts_messages_written_in_the_window(store_target: str) -> None:
    clock = [datetime(2023, 3, 10, tzinfo=UTC)]
    with Memory(store_target, embedder=None, retrieval=LEXICAL, clock=lambda: clock[0]) as mem:
        me = mem.scope("acme", "chat")
        said = []
        for month in (3, 5, 7):
            clock[0] = datetime(2023, month, 10, tzinfo=UTC)
            said.append(me.recall.append("user", "I painted a landscape"))
        clock[0] = datetime(2023, 8, 10, tzinfo=UTC)
        me.recall.evict([m.id for m in said])
        found = me.recall.search("what did I paint in May 2023", order="relevance")
        assert [m.id for m in found] == [said[1].id, said[0].id, said[2].id]


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        ("When did Caroline go to the support group?", True),
        ("  when was the trip", True),
        ("What year did Jon move?", True),
        ("what date is the wedding", True),
        ("How long ago did Nate adopt the turtles?", True),
        ("In which month did she start?", True),
        ("Where did she go when it rained?", False),  # "when" not asked
        ("Whenever I call, who answers?", False),
        ("What did Melanie paint?", False),
        ("", False),
    ],
)
def test_a_question_asks_when(query: str, asks: bool) -> None:
    assert asks_when(query) is asks


@pytest.mark.parametrize(
    ("text", "tells"),
    [
        ("I went to the support group yesterday", True),
        ("We went camping two weekends ago", True),
        ("Last Friday was the recital", True),
        ("I signed up for a pottery class last week", True),
        ("We moved here in 2019", True),
        ("See you on Saturday!", True),
        ("The party is May 5", True),
        ("On the 3rd of March we flew", True),
        ("Next summer we sail", True),
        ("It happened recently", True),
        ("We may go camping", False),  # a verb, not a month
        ("They march for rights", False),
        ("The party is in May", False),  # "in" is a stop word: May alone could be a verb
        ("I love painting sunsets", False),
        ("", False),
    ],
)
def test_a_note_tells_when(text: str, tells: bool) -> None:
    assert tells_when(Analyzer().terms(text)) is tells


def test_a_when_question_prefers_notes_that_say_when(store_target: str) -> None:
    with Memory(store_target, embedder=None, retrieval=LEXICAL) as mem:
        me = mem.scope("acme", "camp")
        undated = me.archive.insert("Mel: camping with the kids is the best, we love camping")
        dated = me.archive.insert("Mel: we went camping with the kids last weekend")
        hits = me.archive.search("When did Mel go camping with the kids?", k=2)
        assert [h.record.id for h in hits] == [dated, undated]
        assert "says-when" in hits[0].explain
        assert "says-when" not in hits[1].explain
        # not asked when: no boost, the note with more of the words first
        hits = me.archive.search("Does Mel like camping with the kids?", k=2)
        assert hits[0].record.id == undated
        assert all("says-when" not in h.explain for h in hits)


def test_a_time_relative_to_an_event_is_read_from_the_note_that_names_it(
    store_target: str,
) -> None:
    with Memory(store_target, embedder=None, retrieval=LEXICAL) as mem:
        me = mem.scope("acme", "travel")
        day = datetime(2023, 6, 10, tzinfo=UTC)
        hat = me.archive.insert("I bought a straw hat", valid_from=day - timedelta(days=9))
        cream = me.archive.insert("I bought sunscreen", valid_from=day - timedelta(days=2))
        trip = me.archive.insert("We left for the trip to Rome", valid_from=day)
        hits = me.archive.search("What had I bought two days before the trip?", k=3)
        assert hits[0].record.id == cream
        assert f"from the trip ({trip})" in hits[0].explain
        assert all("time=" not in h.explain for h in hits[1:])
        assert hat in {h.record.id for h in hits}  # a boost, not a filter
        # no note names the event: no window
        hits = me.archive.search("What had I bought two days before the wedding?", k=3)
        assert all("time=" not in h.explain for h in hits)


@pytest.mark.parametrize(
    ("query", "shift_days", "event"),
    [
        ("What did I buy two days before the trip?", -2, "the trip"),
        ("a week after the wedding, where were we", 7, "the wedding"),
        ("3 months after my surgery", 90, "my surgery"),
    ],
)
def test_event_offsets(query: str, shift_days: int, event: str) -> None:
    found = event_offset(query)
    assert found is not None
    assert found == (shift_days * 86_400.0, event)


def test_no_event_offset_without_a_count_and_a_side() -> None:
    assert event_offset("before the trip") is None
    assert event_offset("two days in Rome") is None
