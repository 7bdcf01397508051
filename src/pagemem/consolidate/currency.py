"""The read side of currency: what a search shows when facts compete.

Write-time decisions can be unsure or missing (notes written without
consolidation, imported, or phrased in a way no rule caught), so a search checks
its own hits again. Among the facts it found:

- a restatement of a better hit is folded into it (it stays stored and findable);
- two facts that may hold competing values of the same thing (a link written when
  the newer was stored, or a pair the comparison finds now) are put newest first,
  and the older is marked `possibly-outdated (newer: a7)`, so the model reading it
  is told. A newer linked fact the ranking missed is brought in next to the old one;
- facts about the same subject that are close in meaning answer the same question
  even when no rule saw a change between them: the newer goes first, unmarked (a
  change phrased in a way nothing recognised still reads newest first); so do facts
  the question finds about as well that hold rival values of the same kind, however
  far apart they are in meaning (a house move told as a story), and facts that answer
  with the same words, words no other note says, each with a rival value there;
- one fact said many ways fills at most two places: further notes that say it
  again (close in meaning, no value against each other) are left out, like a
  restatement (they stay stored, and findable by what they add).

Episodic notes (events, conversation turns) are never compared: they do not go
out of date. Nor are two facts written under different keys (`Record.key`): the
caller named them as different facts, whatever their words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from functools import lru_cache

from pagemem.consolidate.decide import TRUST
from pagemem.consolidate.relation import (
    CONFLICT_COSINE,
    conflict,
    conflict_kinds,
    relate,
    subjects_agree,
)
from pagemem.consolidate.statement import Statement, only, read
from pagemem.guard.directives import DIRECTIVE_FLAG
from pagemem.guard.policy import SUSPECT_FLAG
from pagemem.models import NEUTRALISED_FLAG, Hit, Record

__all__ = ["OUTDATED", "arrange"]

OUTDATED = "possibly-outdated"
SPARE = 5  # hits past k that are still compared (room for what folding removes)
# A hit that says a better hit's words and values again, this close, is folded into it.
FOLD_COSINE = 0.6
# Facts about the same subject this close in meaning are put newest first, unmarked;
# down to LOOSE_COSINE when they share a word, and to CHANGED_COSINE when the newer
# says it replaces something ("moved", "instead", "now"; 0.35 -> 0.25 chosen on dev:
# update 93 -> 97 of 102, no other row moved; test 49 -> 50 of 56)
NEAR_COSINE = 0.45
LOOSE_COSINE = 0.35
CHANGED_COSINE = 0.25
# Notes this close (or sharing two values, a name and an age), with no value against
# each other, count as one fact for the cap.
SAME_FACT_COSINE = 0.5
# ...or this close and sharing a word (0.4 -> 0.25 on dev: restatements capped 70 -> 72
# of 82, nothing else moved)
SHARED_FACT_COSINE = 0.25
PER_FACT = 2  # places of the k one fact may fill
# Two facts a question finds about as well (each at least this share of the best fact's
# score), about the same subject and holding rival values, answer it the same way however
# far apart they are in meaning ("rent a flat at 22 Lark Lane", "sleeping at number 7
# Birchfield Road tonight"): newest first, unmarked. 0.5 chosen on dev: update 97 -> 99 of
# 102, as of a past date 32 -> 34 of 36, nothing else moved (0.35-0.7 alike; 0.2 cost
# look-alikes asked for their first place, 82 -> 79); test 50 -> 51 of 56, look-alikes
# first 44 -> 42 of 97.
ANSWERS = 0.5
# Between two short notes (at most SHORT_SENTENCES sentences each: a fact, not a
# document) the read side reaches further: SHORT_ANSWERS of the best fact's score, and
# SHORT_CHANGED_COSINE for a note that says it changed. Chosen on dev with the hard sets
# h, i and j (changes told as a delta, an event, in passing): update 293 -> 297 of 312,
# as of a past date 132 -> 136 of 141, look-alikes asked for ranks first 124 -> 122 of
# 274. The same reach between all notes cost the dev carriers' benign documents 18 of
# their 113 places in the top 3 for their own question (a newer email with other
# numbers put first); between short notes it costs them one.
SHORT_SENTENCES = 2
SHORT_ANSWERS = 0.3
SHORT_CHANGED_COSINE = 0.2

Cosine = Callable[[str, str], float | None]
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")


def arrange(
    hits: Sequence[Hit],
    k: int,
    *,
    newer: Mapping[str, Record] | None = None,
    cosine: Cosine | None = None,
    as_of: datetime | None = None,
    answers: Mapping[str, frozenset[str]] | None = None,
) -> list[Hit]:
    """The first k hits after folding restatements and ordering competing values.

    `newer` maps a record id to the newest fact written as a possibly newer value of it;
    `cosine` gives the embedding similarity of two records (None when unknown);
    `answers` the words each hit shares with other hits and no other note
    (`Ranker.answer_words`).
    """
    similarity: Cosine = cosine or (lambda a, b: None)
    kept: list[Hit] = []
    seen: set[str] = set()
    for hit in hits:
        if len(kept) >= k + SPARE:
            break
        seen.add(hit.record.id)
        if hit.record.kind != "episodic" and any(
            _folds(better.record, hit.record, similarity)
            for better in kept
            if _comparable(better.record, hit.record)
        ):
            continue
        kept.append(hit)
    for hit in kept[:k]:  # the newest linked value the ranking left out comes in beside it
        record = (newer or {}).get(hit.record.id)
        if record is not None and record.id not in seen and _valid(record, as_of):
            kept.append(Hit(record, hit.score, record.flags, f"newer value of {hit.record.id}"))
            seen.add(record.id)
    answer_words = answers or {}
    return _spread(_order(kept, newer or {}, similarity, answer_words), similarity, answer_words)[
        :k
    ]


def _folds(better: Record, other: Record, cosine: Cosine) -> bool:
    """Is `other` the same fact as `better` said again: no value of its own against one
    of `better`'s (a number for a number, a name for a name), the same denials, at
    least one value in common or nothing but filler added, and close in meaning?"""
    similarity = cosine(better.id, other.id)
    if similarity is not None and similarity < FOLD_COSINE:
        return False
    a, b = read(better.text), read(other.text)
    if _denies(a, b) or not subjects_agree(a, b) or conflict(a, b):
        return False
    relation = relate(a, b, similarity).kind
    if relation == "same":
        return True
    if relation == "change":
        return False
    # When each note says something the other does not ("junior analyst at Brightwater",
    # "promoted: senior analyst, Brightwater"), only a shared value as specific as a
    # number, date, time or code makes them one fact; a shared name is not enough.
    specific = {v for v in a.values & b.values if a.kinds[v] != "name"}
    if only(b, a) and only(a, b) and not specific:
        return False
    return similarity is not None and similarity >= FOLD_COSINE


def _comparable(a: Record, b: Record) -> bool:
    """May two facts be the same fact or compete? Not when either is an episode, nor
    when the caller wrote them under different keys."""
    if a.kind == "episodic" or b.kind == "episodic":
        return False
    return a.key is None or b.key is None or a.key == b.key


def _valid(record: Record, as_of: datetime | None) -> bool:
    return record.valid_at(as_of) if as_of is not None else record.expired_at is None


def _order(
    hits: list[Hit],
    newer: Mapping[str, Record],
    cosine: Cosine,
    answers: Mapping[str, frozenset[str]],
) -> list[Hit]:
    """Facts that answer the same question take the places their group holds, newest
    first; where the rules or a link say two compete, the older is marked with the id
    of the newest it competes with."""
    facts = [i for i, hit in enumerate(hits) if hit.record.kind != "episodic"]
    near, competing = _Groups(facts), _Groups(facts)
    top = max((hits[i].score for i in facts), default=0.0)
    linked = {(old, new.id) for old, new in newer.items()}
    for x, i in enumerate(facts):
        for j in facts[x + 1 :]:
            a, b = hits[i].record, hits[j].record
            if not _comparable(a, b):
                continue
            old, new = (a, b) if _earlier(a, b) else (b, a)
            if not _may_follow(old, new):
                continue
            similarity = cosine(old.id, new.id)
            if (
                (old.id, new.id) in linked
                or _siblings(old, new)
                or (
                    (similarity is None or similarity >= CONFLICT_COSINE)
                    and relate(read(old.text), read(new.text), similarity).kind
                    in ("change", "maybe")
                )
            ):
                competing.join(i, j)
                near.join(i, j)
            elif (
                (similarity is not None and _near(read(old.text), read(new.text), similarity))
                or (_both_answer(hits[i], hits[j], top) and _rival_values(old, new))
                or _rival_answers(old, new, answers)
            ):
                near.join(i, j)
    newest_of = {
        i: max(members, key=lambda m: _when(hits[m].record))
        for members in competing.groups()
        for i in members
    }
    out = list(hits)
    for members in near.groups():
        ordered = sorted(members, key=lambda i: _when(hits[i].record), reverse=True)
        for place, i in zip(sorted(members), ordered, strict=True):
            hit = hits[i]
            if newest_of.get(i, i) != i:
                flag = f"{OUTDATED} (newer: {hits[newest_of[i]].record.id})"
                hit = replace(hit, flags=(*hit.flags, flag))
            out[place] = hit
    return out


def _may_follow(old: Record, new: Record) -> bool:
    """Whether a newer note may be read as the current value over an older one: as on
    write (`TRUST`), only from an origin trusted as much, and never a note the guard
    found directive-shaped. A web page stating a "new" bank account is not the account's
    new value."""
    guarded = {DIRECTIVE_FLAG, SUSPECT_FLAG, NEUTRALISED_FLAG} & set(new.flags)
    return not guarded and TRUST.get(new.origin, 0) >= TRUST.get(old.origin, 0)


def _both_answer(a: Hit, b: Hit, top: float) -> bool:
    """Does the question find both about as well (each at least ANSWERS of the best
    fact's score, SHORT_ANSWERS between short notes)?"""
    share = SHORT_ANSWERS if _short(a.record.text, b.record.text) else ANSWERS
    return top > 0 and min(a.score, b.score) >= share * top


def _short(*texts: str) -> bool:
    """Is each a note of one or two sentences: a fact, not a document?"""
    return all(_sentences(text) <= SHORT_SENTENCES for text in texts)


@lru_cache(maxsize=20_000)
def _sentences(text: str) -> int:
    return sum(1 for part in _SENTENCE.split(text) if part.strip())


def _rival_values(a: Record, b: Record) -> bool:
    """About the same subject, each with a value of a kind the other holds another of."""
    x, y = read(a.text), read(b.text)
    return subjects_agree(x, y) and conflict(x, y)


def _rival_answers(a: Record, b: Record, answers: Mapping[str, frozenset[str]]) -> bool:
    """Do two facts answer with the same words (words no other note says), about the
    same subject, each with a value there of a kind the other says another of? The
    same answer, changed ("rehearsal ... Wednesdays, in the church hall" and "the hall
    is let midweek, so we rehearse on Thursdays")."""
    said = _said_alike(a, b, answers)
    if said is None:
        return False
    x, y = said
    if x.addition or y.addition or not subjects_agree(x, y):
        return False
    return _rivals(x, y)


def _siblings(a: Record, b: Record) -> bool:
    """Were both written as newer values of one fact (each a change of it, or a possible
    one)? Then they compete with each other too."""
    changes = ("kept-both", "superseded")
    return (
        a.consolidation in changes
        and b.consolidation in changes
        and a.consolidated_with is not None
        and a.consolidated_with == b.consolidated_with
    )


class _Groups:
    """Union-find over hit positions."""

    def __init__(self, items: Sequence[int]) -> None:
        self._parent = {i: i for i in items}

    def _root(self, i: int) -> int:
        parent = self._parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(self, i: int, j: int) -> None:
        self._parent[self._root(i)] = self._root(j)

    def groups(self) -> list[list[int]]:
        """Every group of two or more, members in position order."""
        found: dict[int, list[int]] = {}
        for i in self._parent:
            found.setdefault(self._root(i), []).append(i)
        return [sorted(m) for m in found.values() if len(m) > 1]


def _near(old: Statement, new: Statement, similarity: float) -> bool:
    """Do two facts likely answer the same question (so the newer should go first)?"""
    if not subjects_agree(old, new):
        return False
    if new.changing or new.delta:  # "moved", "now", "up by 60": it replaces something
        short = _short(old.text, new.text)
        return similarity >= (SHORT_CHANGED_COSINE if short else CHANGED_COSINE)
    if similarity < LOOSE_COSINE:
        return False
    return similarity >= NEAR_COSINE or bool(old.content & new.content)


def _spread(hits: list[Hit], cosine: Cosine, answers: Mapping[str, frozenset[str]]) -> list[Hit]:
    """Hits in order, without those saying again a fact PER_FACT better hits said."""
    placed: list[Hit] = []
    for hit in hits:
        record = hit.record
        said = 0
        if record.kind != "episodic":
            said = sum(
                1
                for other in placed
                if _comparable(other.record, record)
                and (
                    _same_fact(other.record, record, cosine)
                    or _same_answer(other.record, record, answers)
                )
            )
        if said < PER_FACT:
            placed.append(hit)
    return placed


def _same_fact(a: Record, b: Record, cosine: Cosine) -> bool:
    similarity = cosine(a.id, b.id)
    if similarity is None:
        return False
    x, y = read(a.text), read(b.text)
    shared = (x.content & y.content) - x.subjects - y.subjects  # a word beyond who
    close = similarity >= SAME_FACT_COSINE or (similarity >= SHARED_FACT_COSINE and bool(shared))
    if not close and len(x.values & y.values) < 2:
        return False
    if x.addition or y.addition:  # "also allergic to shellfish" is another fact
        return False
    against = conflict_kinds(x, y)
    if len({v for v in x.values & y.values if x.kinds[v] != "name"}) >= 2:
        # two notes that agree on two numbers, times or codes ("ES 9031, 08:01") are one
        # booking however they name the place ("Paris", "Gare du Nord")
        against.discard("name")
    if against:
        return False
    # about the same one: the same subject, or a word both say ("my dog's called Waffles"
    # and "took my corgi Waffles to the park"; "I'm allergic to shellfish" and "my
    # partner keeps forgetting my shellfish allergy")
    if not (subjects_agree(x, y) or shared):
        return False
    old, new = (x, y) if _earlier(a, b) else (y, x)
    return relate(old, new, similarity).kind != "change"


def _same_answer(a: Record, b: Record, answers: Mapping[str, frozenset[str]]) -> bool:
    """Do two facts answer with the same words, words no other note says? Then they
    say one thing again, whatever else each holds (a letter's other news, a ticket's
    number), unless one adds to it ("also") or denies it."""
    said = _said_alike(a, b, answers)
    if said is None:
        return False
    x, y = said
    if x.addition or y.addition or _denies(x, y):
        return False
    # a value against the other's (a date for a date, a name for a name) is another
    # fact (a flight on the 1st, another on the 15th)
    return not _rivals(x, y)


def _said_alike(
    a: Record, b: Record, answers: Mapping[str, frozenset[str]]
) -> tuple[Statement, Statement] | None:
    """What each of two facts says where it says the answer words they share (a
    letter's other news is not compared); None when they share none."""
    words = answers.get(a.id, frozenset()) & answers.get(b.id, frozenset())
    if not words:
        return None
    return _where_said(a.text, words), _where_said(b.text, words)


def _rivals(x: Statement, y: Statement) -> bool:
    """Does each hold a value the other never says, of a kind the other holds another
    of? A code is the note's own (a ticket's number), not the fact's."""
    mine = {x.kinds[v] for v in x.values - y.content}
    theirs = {y.kinds[v] for v in y.values - x.content}
    return bool((mine & theirs) - {"code"})


def _where_said(text: str, words: frozenset[str]) -> Statement:
    """The sentences of `text` that hold one of `words`, read (all of it if none does)."""
    sentences = [part for part in _SENTENCE.split(text) if part.strip()]
    holding = [part for part in sentences if read(part).content & words]
    return read(" ".join(holding) if holding else text)


def _denies(a: Statement, b: Statement) -> bool:
    """Does one note deny a word the other says ("vegetarian" / "not vegetarian")?"""
    return bool((a.denied & (b.content - b.denied)) | (b.denied & (a.content - a.denied)))


def _when(record: Record) -> tuple[datetime, int]:
    return (record.valid_from, _number(record.id))


def _earlier(a: Record, b: Record) -> bool:
    return _when(a) <= _when(b)


def _number(record_id: str) -> int:
    return int(record_id[1:]) if record_id[1:].isdigit() else 0
