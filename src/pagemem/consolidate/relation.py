"""How two notes relate: the same fact, a change of value, perhaps one, or two facts.

`relate(old, new)` compares what the notes say, not how close they sound:

- **same**: the same content words (up to inflection and filler words), the same
  values, the same negation. Only this may hide one note behind the other.
- **change**, confident enough to close the old fact: with the same subject, one
  number, code or name swapped for another in an otherwise unchanged note; the old
  statement denied ("no longer vegetarian", "quit smoking"); a correction ("actually",
  "I misspoke") that swaps a value; or a note that says it changed ("moved to",
  "now", "instead") with a value of the same kind swapped, close in meaning.
- **maybe**: the same subject, values swapped, close in meaning: perhaps a change,
  perhaps a second value (allergies, pets, bookings). Both stay current; the read side
  ranks the newer first and marks the older.
- **distinct**: anything else: additions ("also", "another"), one note saying more
  than the other, the same values said another way, several kinds of value different
  at once (another flight, the return train).

The thresholds were chosen on the dev split of `pagemem eval facts` only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from pagemem.consolidate.statement import Statement, only, read

__all__ = ["Relation", "relate", "stops_a_value", "subjects_agree"]

Kind = Literal["same", "change", "maybe", "distinct"]

# Below this cosine two notes with swapped words are taken as unrelated facts...
MAYBE_COSINE = 0.45
# ...unless each holds a value of a kind the other holds another of (a city for a city,
# a number for a number): then the frame may differ more ("lives in Seville" and
# "relocated to Lisbon after landing a job there").
CONFLICT_COSINE = 0.35
# ...and this close when they share no word beyond who and the values and the newer
# does not say it changed: "Kwame is an accountant in Manchester" is no newer value of
# "Kwame booked a room at the Radisson Blu Accra" (0.35 -> 0.5 on dev: look-alikes not
# marked outdated 124 -> 131 of 157, update as of a past date 33 -> 32 of 36; test 71 ->
# 77 of 97, nothing else moved)
FRAMELESS_COSINE = 0.5
# Notes with the same words and values must be at least this close to be the same fact.
SAME_COSINE = 0.6
# Without vectors: the share of content words two notes must have in common.
MAYBE_OVERLAP = 0.34


@dataclass(frozen=True, slots=True)
class Relation:
    kind: Kind
    reason: str = ""
    # a change read from the notes alone: the same note with one value swapped, or the
    # same statement denied. Other changes rest on a marker word ("now", "actually")
    # that also sits in notes about something else: a write closes at most one of those.
    certain: bool = False


def subjects_agree(a: Statement, b: Statement) -> bool:
    """Unknown subjects agree with anything; two known ones must share a member, or,
    when neither is a role ("my sister"), one must name the other ("Tomasz Nowak's
    mobile" and "Tomasz switched carriers")."""
    if not a.subjects or not b.subjects or a.subjects & b.subjects:
        return True
    if (_unsure(a) and "user" in b.subjects) or (_unsure(b) and "user" in a.subjects):
        return True
    if any(":" in s for s in a.subjects | b.subjects):
        return False
    return bool(a.subjects & b.values or b.subjects & a.values)


def _unsure(statement: Statement) -> bool:
    """Is the subject only a first word that acts ("Sad news for our group", "Marion
    announced that we ..."), never marked as a name? Then it may not be who it is about."""
    if len(statement.subjects) != 1:
        return False
    (subject,) = statement.subjects
    return subject != "user" and ":" not in subject and subject not in statement.values


def swapped_word(old: Statement, new: Statement) -> bool:
    """A word or two swapped in an otherwise unchanged note: a new value ("senior
    engineer" -> "staff engineer"), not the same values said another way."""
    gone, added = only(old, new), only(new, old)
    shared = old.content & new.content
    return (
        0 < len(gone) <= 2 and 0 < len(added) <= 2 and len(shared) >= 2 * max(len(gone), len(added))
    )


def conflict_kinds(a: Statement, b: Statement) -> set[str]:
    """The kinds of value each note holds one of that the other lacks (two numbers, two
    names)."""
    mine = {a.kinds[v] for v in a.values - b.values}
    theirs = {b.kinds[v] for v in b.values - a.values}
    return mine & theirs


def conflict(a: Statement, b: Statement) -> bool:
    return bool(conflict_kinds(a, b))


def relate(old: Statement, new: Statement, cosine: float | None = None) -> Relation:
    """What `new` (written later) does to `old`."""
    # the rules only ask which side of a threshold the cosine is on: cache on that
    band = None if cosine is None else sum(cosine >= t for t in _BANDS)
    return _relate(old.text, new.text, band)


_BANDS = (CONFLICT_COSINE, MAYBE_COSINE, SAME_COSINE)


@lru_cache(maxsize=100_000)
def _relate(old_text: str, new_text: str, band: int | None) -> Relation:
    cosine = None if band is None else (0.0, *_BANDS)[band]
    return _rules(read(old_text), read(new_text), cosine)


def stops_a_value(old: Statement, new: Statement) -> bool:
    """Does `new` stop a number, date, time or code `old` asserts ("VFS cancelled the 19
    June slot" after "biometrics now 19 June"), whoever it says did it (people named by
    a role stay apart: "my sister's 19 June flight was cancelled" is hers)?"""
    if not new.stopping or any(":" in s for s in old.subjects | new.subjects):
        return False
    stopped = (new.denied - old.denied) & old.values
    return any(old.kinds[v] != "name" for v in stopped)


def _rules(old: Statement, new: Statement, cosine: float | None) -> Relation:
    if not subjects_agree(old, new) and not stops_a_value(old, new):
        return Relation("distinct", "different subjects")
    gone, added = only(old, new), only(new, old)
    unchanged = not gone and not added and old.values == new.values
    if unchanged and old.denied == new.denied and (cosine is None or cosine >= SAME_COSINE):
        return Relation("same", "same words and values")
    # "I'm no longer vegetarian" after "I am vegetarian": what was said is now denied
    flipped = (new.denied - old.denied) & old.content or (old.denied - new.denied) & new.content
    if flipped and (new.stopping or new.denied or old.denied):
        shared = (old.content & new.content) - flipped
        alone = not (gone | added) - flipped  # nothing said but the denial
        # what is denied must be much of what the old note says ("Rex smokes a pack a
        # day" / "Rex quit smoking"), not a word in passing ("Action: book the MOT" /
        # "No action")
        said = old.content - old.subjects
        central = len(flipped & said) * 3 >= len(said) or stops_a_value(old, new)
        if (shared and central) or alone:
            return Relation("change", f"now denies {', '.join(sorted(flipped))}", alone)
    if new.addition:
        return Relation("distinct", "an addition")
    if not gone or not added:
        return Relation("distinct", "one says more than the other")
    swapped_values = (gone & old.values, added & new.values)
    frame_left = (gone - old.values, added - new.values)
    if len(swapped_values[0]) == 1 and len(swapped_values[1]) == 1 and not any(frame_left):
        (before,), (after,) = swapped_values
        kind = old.kinds.get(before)
        # one number, code or name swapped in an otherwise unchanged note; another date
        # or time alone may as well be another event (a second flight, another walk)
        if kind == new.kinds.get(after) and kind in ("number", "code", "name"):
            return Relation("change", f"{before} -> {after}", certain=True)
    if new.correction and (conflict(old, new) or swapped_word(old, new)):
        return Relation("change", "corrected")
    if old.values and old.values == new.values and not swapped_word(old, new):
        return Relation("distinct", "the same values, said differently")
    kinds = conflict_kinds(old, new)
    if len(kinds) > 1 and not new.changing:
        # a number and a name and a date all different: another event (a second
        # flight, the return train), unless the note says it changed
        return Relation("distinct", f"other {', '.join(sorted(kinds))}")
    frame = (old.content & new.content) - old.values - new.values
    if cosine is not None:
        if kinds:
            close = cosine >= CONFLICT_COSINE and (
                bool(frame) or new.changing or cosine >= FRAMELESS_COSINE
            )
        else:
            close = cosine >= MAYBE_COSINE and bool(frame)
    else:  # words alone: a value of the same kind swapped, or many words in common
        union = old.content | new.content
        overlap = len(old.content & new.content) / len(union) if union else 0.0
        close = bool(kinds) or overlap >= MAYBE_OVERLAP
    if close and kinds and new.changing and cosine is not None:  # "moved to Austin"
        return Relation("change", f"says it changed: {', '.join(sorted(gone & old.values))}")
    if close and (kinds or new.changing):
        return Relation("maybe", f"{', '.join(sorted(gone))} -> {', '.join(sorted(added))}")
    if close:  # other words, no value against a value, no word of change: said again
        return Relation("distinct", "other words, no value against another")
    return Relation("distinct", "different values, different frames")
