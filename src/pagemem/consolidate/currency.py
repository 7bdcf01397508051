"""The read side of currency: what a search shows when facts compete.

Write-time decisions can be unsure or missing (notes written without
consolidation, imported, or phrased in a way no rule caught), so a search checks
its own hits again. Among the facts it found:

- a restatement of a better hit is folded into it (it stays stored and findable);
- two facts that may hold competing values of the same thing (a link written when
  the newer was stored, or a pair the comparison finds now) are put newest first,
  and the older is marked `possibly-outdated (newer: a7)`, so the model reading it
  is told. A newer linked fact the ranking missed is brought in next to the old one.

Episodic notes (events, conversation turns) are never compared: they do not go
out of date.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from pagemem.consolidate.relation import CONFLICT_COSINE, conflict, relate, subjects_agree
from pagemem.consolidate.statement import only, read
from pagemem.models import Hit, Record

__all__ = ["OUTDATED", "arrange"]

OUTDATED = "possibly-outdated"
SPARE = 5  # hits past k that are still compared (room for what folding removes)
# A hit that says a better hit's words and values again, this close, is folded into it.
FOLD_COSINE = 0.6

Cosine = Callable[[str, str], float | None]


def arrange(
    hits: Sequence[Hit],
    k: int,
    *,
    newer: Mapping[str, Record] | None = None,
    cosine: Cosine | None = None,
    as_of: datetime | None = None,
) -> list[Hit]:
    """The first k hits after folding restatements and ordering competing values.

    `newer` maps a record id to the newest fact written as a possibly newer value of it;
    `cosine` gives the embedding similarity of two records (None when unknown).
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
            if better.record.kind != "episodic"
        ):
            continue
        kept.append(hit)
    for hit in kept[:k]:  # the newest linked value the ranking left out comes in beside it
        record = (newer or {}).get(hit.record.id)
        if record is not None and record.id not in seen and _valid(record, as_of):
            kept.append(Hit(record, hit.score, record.flags, f"newer value of {hit.record.id}"))
            seen.add(record.id)
    return _order(kept, newer or {}, similarity)[:k]


def _folds(better: Record, other: Record, cosine: Cosine) -> bool:
    """Is `other` the same fact as `better` said again: no value of its own against one
    of `better`'s (a number for a number, a name for a name), the same denials, at
    least one value in common or nothing but filler added, and close in meaning?"""
    similarity = cosine(better.id, other.id)
    if similarity is not None and similarity < FOLD_COSINE:
        return False
    a, b = read(better.text), read(other.text)
    denial = (a.denied & (b.content - b.denied)) | (b.denied & (a.content - a.denied))
    if denial or not subjects_agree(a, b) or conflict(a, b):
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


def _valid(record: Record, as_of: datetime | None) -> bool:
    return record.valid_at(as_of) if as_of is not None else record.expired_at is None


def _order(hits: list[Hit], newer: Mapping[str, Record], cosine: Cosine) -> list[Hit]:
    """Competing facts take the places their group holds, newest first; the older are
    marked with the newest's id."""
    facts = [i for i, hit in enumerate(hits) if hit.record.kind != "episodic"]
    parent = {i: i for i in facts}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    linked = {(old, new.id) for old, new in newer.items()}
    for x, i in enumerate(facts):
        for j in facts[x + 1 :]:
            a, b = hits[i].record, hits[j].record
            old, new = (a, b) if _earlier(a, b) else (b, a)
            similarity = cosine(old.id, new.id)
            if (old.id, new.id) in linked or (
                (similarity is None or similarity >= CONFLICT_COSINE)
                and relate(read(old.text), read(new.text), similarity).kind in ("change", "maybe")
            ):
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in facts:
        groups.setdefault(root(i), []).append(i)
    out = list(hits)
    for members in groups.values():
        if len(members) < 2:
            continue
        ordered = sorted(members, key=lambda i: _when(hits[i].record), reverse=True)
        newest = hits[ordered[0]].record.id
        for place, i in zip(sorted(members), ordered, strict=True):
            hit = hits[i]
            if i != ordered[0]:
                flag = f"{OUTDATED} (newer: {newest})"
                hit = replace(hit, flags=(*hit.flags, flag))
            out[place] = hit
    return out


def _when(record: Record) -> tuple[datetime, int]:
    return (record.valid_from, _number(record.id))


def _earlier(a: Record, b: Record) -> bool:
    return _when(a) <= _when(b)


def _number(record_id: str) -> int:
    return int(record_id[1:]) if record_id[1:].isdigit() else 0
