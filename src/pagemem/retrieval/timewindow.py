"""The time a question asks about, read from its words into a soft window.

"What did Melanie paint in May 2023?" is about notes from May 2023; no word of the
answer ("painted a sunset") says so, but the note's time does. A window found here
boosts notes whose time falls inside it (the ranker's `time_boost`); it never filters,
so a misread phrase costs some order, not an answer.

Absolute phrases: a day ("25 May, 2022", "May 25th 2023", "2023-05-25"), a month
("May 2023"), a season ("summer 2022", northern hemisphere), a year after a preposition
("in 2022", "during 2021"). A day, month or season without a year ("in June", "on
August 11") takes the year the question names elsewhere, else matches that part of
any year: the reference is often not when the question is about. Relative ones are
read against a reference time (now, or the search's `as_of`): "today", "yesterday",
"last week", "this month", "last year", "last June", "three days ago", "a couple of
weeks ago", "last weekend", "on Monday". "before"/"after"/"since" in front of a phrase
open the window on one side; a count ahead ("two days before 25 May 2023") moves it.
A question with none ("when did...") gets no window. A time relative to an event
("two days before the trip") needs the event found among the notes first:
`event_offset` gives the shift and the words naming it, and the ranker's features
find the note.

dateparser was tried for this: it returns points, not periods ("in 2022" is 1 Aug
2022 when asked on 1 Aug), and reads "May I ask" as a date, so the span of each phrase
would have to be parsed again here.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import numpy as np
import numpy.typing as npt
import snowballstemmer

__all__ = ["Window", "asks_when", "event_offset", "tells_when", "time_window"]

_DAY = 86_400.0
stem = snowballstemmer.stemmer("english").stemWord

_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_ORD = r"(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
# a part of a year: its first month and how many months it spans
_PARTS = {
    "start": (1, 4), "beginning": (1, 4), "early": (1, 4),
    "middle": (5, 4), "mid": (5, 4),
    "end": (9, 4), "late": (9, 4),
    "first half": (1, 6), "second half": (7, 6),
}  # fmt: skip
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_SEASONS = {"spring": (3, 3), "summer": (6, 3), "autumn": (9, 3), "fall": (9, 3), "winter": (12, 3)}
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "a couple": 2,
    "couple of": 2,
    "a few": 3,
    "few": 3,
    "several": 4,
}
_COUNT = r"(?P<count>\d{1,3}|" + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + ")"
_SIDE = r"(?:(?P<side>before|after|since|until|till|by)\s+)?"

_LEAD = r"(?:(?P<side>before|after|since|until|till|by)|on|in|during|of|between|from|and|to)"
_NO_YEAR = r"(?!,?\s*(?:of\s+)?(?:19|20)\d\d)"

# Longest phrases first: a day is tried before the month it contains. Phrases without
# a year take the year the question names elsewhere ("between August 11 and August 15
# 2023"), else match that day or month of any year ("When did Melanie camp in June?"
# asked of a memory whose Junes are in the past); "last June" is the latest one.
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("iso", re.compile(_SIDE + r"\b" + _YEAR + r"-(?P<mm>\d{1,2})-(?P<dd>\d{1,2})\b")),
    (
        "day",
        re.compile(
            _SIDE
            + r"\b(?:on\s+)?(?:the\s+)?(?P<dd>\d{1,2})"
            + _ORD
            + r"\s+(?:of\s+)?"
            + _MONTH
            + r",?\s+"
            + _YEAR
            + r"\b"
        ),
    ),
    (
        "day",
        re.compile(
            _SIDE
            + r"\b"
            + _MONTH
            + r"\s+(?:the\s+)?(?P<dd>\d{1,2})"
            + _ORD
            + r",?\s+"
            + _YEAR
            + r"\b"
        ),
    ),
    ("month", re.compile(_SIDE + r"\b" + _MONTH + r",?\s+(?:of\s+)?" + _YEAR + r"\b")),
    (
        "season",
        re.compile(
            _SIDE
            + r"\b(?:the\s+)?(?P<season>spring|summer|autumn|fall|winter)\s+(?:of\s+)?"
            + _YEAR
            + r"\b"
        ),
    ),
    (
        "part-of-year",
        re.compile(
            _SIDE
            + r"\b(?:(?:the\s+)?(?P<part>start|beginning|end|middle|first\s+half|second\s+half)"
            r"\s+of\s+(?:the\s+year\s+)?|(?P<early>early|late|mid)[\s-]+)" + _YEAR + r"\b"
        ),
    ),
    (
        "year",
        re.compile(
            r"\b(?:(?P<side>before|after|since|until|till|by)|in|during|throughout)"
            r"\s+(?:the\s+year\s+)?" + _YEAR + r"\b(?!\s*(?:%|-|\d))"
        ),
    ),
    (
        "yearless-day",
        re.compile(
            r"\b"
            + _LEAD
            + r"\s+(?:the\s+)?"
            + _MONTH
            + r"\s+(?:the\s+)?(?P<dd>\d{1,2})"
            + _ORD
            + r"\b"
            + _NO_YEAR
        ),
    ),
    (
        "yearless-day",
        re.compile(
            r"\b(?:"
            + _LEAD
            + r"\s+)?(?:the\s+)?(?P<dd>\d{1,2})(?:st|nd|rd|th)\s+(?:of\s+)?"
            + _MONTH
            + r"\b"
            + _NO_YEAR
        ),
    ),
    (
        "yearless-month",
        re.compile(
            r"\b(?:"
            + _LEAD
            + r"|(?P<which>last|this)|early|late|mid)[\s-]+(?:the\s+)?"
            + _MONTH
            + r"\b(?!\s*\d)"
        ),
    ),
    (
        "yearless-season",
        re.compile(
            r"\b(?:(?P<side>before|after|since|until|till|by)|in|during|over|(?P<which>last|this))"
            r"\s+(?:the\s+)?(?P<season>spring|summer|autumn|fall|winter)\b" + _NO_YEAR
        ),
    ),
    ("ago", re.compile(r"\b" + _COUNT + r"\s+(?P<unit>day|week|month|year)s?\s+ago\b")),
    (
        "relative",
        re.compile(
            r"\b(?P<rel>the\s+day\s+before\s+yesterday|yesterday|today|tonight|this\s+morning|"
            r"(?:last|past|previous|this)\s+(?:week(?:end)?|month|year))\b"
        ),
    ),
    (
        "weekday",
        re.compile(r"\b(?:on\s+|last\s+)(?P<weekday>" + "|".join(_WEEKDAYS) + r")\b"),
    ),
]
_VERBS = frozenset(["may", "mar", "march"])  # months that are also verbs
_VERB_LEADS = frozenset(["and", "to", "on", "by", "this"])
# "two days before <a time>": the count and unit just ahead of a phrase read with "before"
_OFFSET = re.compile(r"\b" + _COUNT + r"\s+(?P<unit>day|week|month|year)s?\s+$")
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
# "two days before the trip": a count, a unit, a side, then words naming an event
_EVENT = re.compile(
    r"\b" + _COUNT + r"\s+(?P<unit>day|week|month|year)s?\s+(?P<side>before|after)\s+"
    r"(?P<event>[^?.!,;]{3,80})"
)
_ANY_YEAR = re.compile(r"\b(?:19|20)\d\d\b")

Span = tuple[float, float]
Yearly = tuple[int, int]  # [first, last) as month * 100 + day, in any year


@dataclass(frozen=True, slots=True)
class Window:
    """A span of time a question asks about: [start, end) in POSIX seconds (the hull of
    the dated phrases; empty when there are none), and days of any year (`yearly`)."""

    start: float
    end: float
    yearly: tuple[Yearly, ...]
    phrase: str  # the words it was read from, for `explain`

    def mask(self, moments: npt.NDArray[np.float64], slack: float) -> npt.NDArray[np.bool_]:
        """Which of these moments (POSIX seconds) fall inside, `slack` seconds either side
        counted in."""
        inside = (moments >= self.start - slack) & (moments < self.end + slack)
        for shift in (0.0, -slack, slack) if self.yearly else ():
            days = (moments + shift).astype("datetime64[s]").astype("datetime64[D]")
            months = days.astype("datetime64[M]")
            day_of_year = (months.astype(np.int64) % 12 + 1) * 100 + (
                (days - months).astype(np.int64) + 1
            )
            for first, last in self.yearly:
                if first < last:
                    inside |= (day_of_year >= first) & (day_of_year < last)
                else:  # winter: December into the next year
                    inside |= (day_of_year >= first) | (day_of_year < last)
        return np.asarray(inside, dtype=np.bool_)


def time_window(query: str, reference: datetime) -> Window | None:
    """The window of every time phrase in the query, read against `reference`; None when
    the query names no time."""
    if reference.tzinfo is None:
        raise ValueError("the reference time needs a timezone")
    text = query.lower()
    today = reference.astimezone(UTC).date()
    years = {int(y) for y in _ANY_YEAR.findall(text)}
    named_year = years.pop() if len(years) == 1 else None
    spans: list[Span] = []
    yearly: list[Yearly] = []
    phrases: list[str] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            if any(match.start() < end and start < match.end() for start, end in taken):
                continue  # inside a longer phrase already read
            taken.append((match.start(), match.end()))
            read = _read(kind, match, today, named_year)
            if read is None:  # "31 February 2023" names no day, nor February
                continue
            phrase = match.group(0).strip()
            if isinstance(read[0], int):
                phrases.append(phrase)
                yearly.append((int(read[0]), int(read[1])))
                continue
            start, end = float(read[0]), float(read[1])
            side = match.groupdict().get("side")
            offset = _OFFSET.search(text, 0, match.start()) if side in ("before", "after") else None
            if offset is not None:  # "two days before 25 May 2023": the span, moved
                shift = _shift(offset.group("count"), offset.group("unit"), side == "before")
                start, end, side = start + shift, end + shift, None
                phrase = f"{offset.group(0).strip()} {phrase}"
            phrases.append(phrase)
            if side == "before" or side in ("until", "till", "by"):
                start, end = float("-inf"), end if side != "before" else start
            elif side in ("after", "since"):
                start, end = (end if side == "after" else start), float("inf")
            spans.append((start, end))
    if not phrases:
        return None
    if not spans:
        return Window(float("inf"), float("-inf"), tuple(yearly), "; ".join(phrases))
    return Window(
        min(s for s, _ in spans), max(e for _, e in spans), tuple(yearly), "; ".join(phrases)
    )


def _read(
    kind: str, match: re.Match[str], today: date, named_year: int | None
) -> Span | Yearly | None:
    """[start, end) of one matched phrase, or the days of any year it names; None when
    its numbers name no real date."""
    group = match.groupdict()
    try:
        if kind == "iso":
            day = date(int(group["year"]), int(group["mm"]), int(group["dd"]))
            return _days(day, 1)
        if kind == "day":
            month = _MONTHS[group["month"]]
            return _days(date(int(group["year"]), month, int(group["dd"])), 1)
        if kind == "month":
            return _months(int(group["year"]), _MONTHS[group["month"]], 1)
        if kind == "season":
            first, length = _SEASONS[group["season"]]
            return _months(int(group["year"]), first, length)
        if kind == "part-of-year":  # "at the start of 2023", "late 2022": a third or a half
            part = " ".join((group["part"] or group["early"]).split())
            first, length = _PARTS[part]
            return _months(int(group["year"]), first, length)
        if kind == "year":
            return _months(int(group["year"]), 1, 12)
        if kind == "yearless-day":
            month, dd = _MONTHS[group["month"]], int(group["dd"])
            date(2000, month, dd)  # a real day (of a leap year)
            if named_year is not None:
                return _days(date(named_year, month, dd), 1)
            return month * 100 + dd, month * 100 + dd + 1
        if kind in ("yearless-month", "yearless-season"):
            if kind == "yearless-month":
                if match.group(0).split()[0] in _VERB_LEADS and group["month"] in _VERBS:
                    return None  # "and may I ask", "to march in the parade"
                first, length = _MONTHS[group["month"]], 1
            else:
                first, length = _SEASONS[group["season"]]
            if group.get("which"):  # "last June": the latest June before this month
                year = today.year if first < today.month else today.year - 1
                if group["which"] == "this":
                    year = today.year
                return _months(year, first, length)
            if named_year is not None:
                return _months(named_year, first, length)
            last = (first + length - 1) % 12 + 1
            return first * 100 + 1, last * 100 + 1
    except ValueError:  # 31 February, month 13
        return None
    if kind == "ago":
        return _ago(group["count"], group["unit"], today)
    if kind == "weekday":
        back = (today.weekday() - _WEEKDAYS.index(group["weekday"])) % 7 or 7
        return _days(today - timedelta(days=back), 1)
    return _relative(" ".join(group["rel"].split()), today)


def _count(word: str) -> int:
    """A count as written: "3", "three", "a couple of"."""
    return int(word) if word.isdigit() else _NUMBERS[" ".join(word.split())]


def _shift(count: str, unit: str, before: bool) -> float:
    """Seconds that many units away (a month is 30 days, a year 365), back if `before`."""
    seconds = _count(count) * _UNIT_DAYS[unit] * _DAY
    return -seconds if before else seconds


def _ago(count_word: str, unit: str, today: date) -> tuple[float, float]:
    count = _count(count_word)
    if unit == "day":
        return _days(today - timedelta(days=count), 1)
    if unit == "week":
        return _days(today - timedelta(days=7 * count + 3), 7)
    if unit == "month":
        months = today.year * 12 + today.month - 1 - count
        return _months(months // 12, months % 12 + 1, 1)
    return _months(today.year - count, 1, 12)


def _relative(phrase: str, today: date) -> tuple[float, float]:
    if phrase in ("today", "tonight", "this morning"):
        return _days(today, 1)
    if phrase == "yesterday":
        return _days(today - timedelta(days=1), 1)
    if phrase == "the day before yesterday":
        return _days(today - timedelta(days=2), 1)
    which, unit = phrase.split()
    week_start = today - timedelta(days=today.weekday())
    if unit == "weekend":
        saturday = week_start + timedelta(days=5)
        if which != "this" or saturday > today:
            saturday -= timedelta(days=7)
        return _days(saturday, 2)
    if which == "this":
        if unit == "week":
            return _days(week_start, 7)
        if unit == "month":
            return _months(today.year, today.month, 1)
        return _months(today.year, 1, 12)
    # "last week" is the week before this one, and also the seven days up to today: both
    if unit == "week":
        return _days(week_start - timedelta(days=7), (today - week_start).days + 8)
    if unit == "month":
        months = today.year * 12 + today.month - 2
        first = _months(months // 12, months % 12 + 1, 1)[0]
        return first, _days(today, 1)[1]
    return _months(today.year - 1, 1, 12)[0], _days(today, 1)[1]


def _days(first: date, count: int) -> tuple[float, float]:
    start = datetime(first.year, first.month, first.day, tzinfo=UTC).timestamp()
    return start, start + count * _DAY


def _months(year: int, month: int, count: int) -> tuple[float, float]:
    start = datetime(year, month, 1, tzinfo=UTC)
    months = year * 12 + month - 1 + count
    end = datetime(months // 12, months % 12 + 1, 1, tzinfo=UTC)
    return start.timestamp(), end.timestamp()


# A question that asks for a time ("When did Melanie go camping?", "What year...",
# "How long ago...") is answered by a note that says when something happened.
_ASKS_WHEN = re.compile(
    r"^\W*(?:when\b|what\s+(?:date|day|year|month|time|week|season)\b|how\s+long\s+ago\b|"
    r"(?:in|on|during)\s+(?:what|which)\s+(?:date|day|year|month|week|season)\b)",
    re.IGNORECASE,
)
# A note that says when: a day, month or year named, or a time relative to when it was
# written ("yesterday", "last week", "two days ago", "recently"). Read for every note
# that enters an index, from the terms the index's analyzer already made of it (stop
# words gone, Snowball stems), so it costs a set lookup, not another pass over the
# text. "May" and "March" count only beside a number: they are verbs too.
_TIME_TERMS = frozenset(
    [
        "yesterday",
        "today",
        "tonight",
        "tomorrow",
        "recent",
        "ago",
        "weekend",
        *(stem(name) for name in _WEEKDAYS),
        *(stem(name) for name in _MONTHS if len(name) > 3 and name != "march"),
    ]
)
_LEADS = frozenset(["last", "next", "past"])
_UNITS = frozenset(
    stem(unit) for unit in ["week", "month", "year", "night", "morning", "evening", *_SEASONS]
)
_VERB_MONTHS = frozenset(["may", "march"])
_YEARS = frozenset(str(year) for year in range(1900, 2100))


def asks_when(query: str) -> bool:
    """Does the question ask for a time?"""
    return _ASKS_WHEN.search(query) is not None


def tells_when(terms: Sequence[str]) -> bool:
    """Does a note say when something happened (a date, or a time relative to when it
    was written)? `terms` are the note's terms as `Analyzer.terms` makes them."""
    if not (_TIME_TERMS.isdisjoint(terms) and _YEARS.isdisjoint(terms)):
        return True
    if _LEADS.isdisjoint(terms) and _VERB_MONTHS.isdisjoint(terms):
        return False
    for before, after in itertools.pairwise(terms):
        if before in _LEADS and after in _UNITS:  # "last week", "next summer"
            return True
        if (before in _VERB_MONTHS and after.isdigit()) or (
            after in _VERB_MONTHS and before[:1].isdigit()
        ):  # "May 5", "5th March"
            return True
    return False


def event_offset(query: str) -> tuple[float, str] | None:
    """For a time relative to an event ("two days before the trip"): the shift in
    seconds (negative: before) and the words naming the event, which the caller finds
    among the notes. None when the query has no such phrase."""
    match = _EVENT.search(query.lower())
    if match is None:
        return None
    shift = _shift(match.group("count"), match.group("unit"), match.group("side") == "before")
    return shift, match.group("event").strip()
