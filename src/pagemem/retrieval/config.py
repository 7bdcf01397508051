"""The ranking knobs and what a ranked item carries."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

from pagemem.errors import InvalidInputError

__all__ = ["Ranked", "RetrievalConfig"]


@dataclass(frozen=True, slots=True)
class RetrievalConfig:
    """Ranking knobs; defaults are chosen on the LoCoMo dev split (docs/retrieval.md)."""

    k1: float = 1.2
    b: float = 0.3
    neighbour_weight: float = 0.5  # share of the adjacent notes' scores a note inherits
    neighbour_gap_seconds: float = 6 * 3600  # notes further apart in time are not neighbours
    speaker_boost: float = 0.6  # when a query names exactly one speaker of the scope
    # when a query names a time ("in May 2023", "last week"): notes whose time falls in
    # it weigh (1 + time_boost) as much; the window is widened by time_slack_days
    time_boost: float = 1.0
    time_slack_days: float = 1.0
    # when a query asks when ("When did..."): notes that say when something happened
    # ("yesterday", "last week", "in June") weigh (1 + when_boost) as much
    when_boost: float = 0.5
    # pseudo-relevance feedback: the query's vector moves feedback_weight toward the
    # mean of its first round's feedback_notes best notes, and the first round's
    # feedback_pool best notes are scored again with it (the rest keep their cosine)
    feedback_weight: float = 0.3
    feedback_notes: float = 3
    feedback_pool: float = 500
    lexical_weight: float = 0.5  # share of BM25 in the fused score; the rest is dense
    centre: float = 1.0  # 1: subtract the scope's mean vector before cosine; 0: plain cosine
    zscore: float = 0.0  # 1: standardise each signal before fusing; 0: min-max scale
    rrf: float = 0.0  # > 0: reciprocal-rank fusion with this k (e.g. 60) instead of scores
    neighbour_lexical: float = 0.0  # 1: share neighbours' BM25 before fusion; 0: after
    context_weight: float = 1.0  # weight of BM25 over (previous, note, next) read as one passage
    recency_half_life_days: float = 0.0  # 0: off; else newer notes weigh more, halving per period
    recency_weight: float = 0.2  # how much of the score recency may take away
    # a note sharing no word with the query competes only from this plain cosine up
    # (0: every note does); a query with no evidence in the scope finds nothing
    min_cosine: float = 0.1
    alone_cosine: float = 0.12  # the same when no note of the scope has a query word
    ann_threshold: float = 200_000  # live notes in a scope from which HNSW picks candidates
    ann_candidates: float = 1000  # how many HNSW neighbours are scored exactly
    # live notes in a scope from which (below ann_threshold) every note is scored from an
    # int8 code of its vector and the ann_candidates nearest exactly (inf: all exactly)
    scan_threshold: float = 50_000
    # live items in a scope from which a store that can search itself (PostgreSQL) does,
    # instead of every process holding the scope's index in memory
    store_search_threshold: float = 100_000
    # how many of a scope's latest notes a new note is compared with by meaning alone
    # (consolidation's candidates; notes sharing words with it are found in all of them)
    similar_window: float = 4_000
    # ...and the most postings its words are read from, rarest words first (the common
    # words of a large scope would otherwise be most of a write's cost)
    similar_postings: float = 20_000
    # live notes in a scope from which its index is saved beside a SQLite file, for the
    # next process to start from (inf: never)
    snapshot_min: float = 2_000

    @classmethod
    def with_overrides(cls, settings: Iterable[str]) -> RetrievalConfig:
        """A config from 'knob=value' strings (numbers only), as the CLI takes them."""
        values: dict[str, float] = {}
        knobs = {f.name for f in fields(cls) if f.type in ("float", float)}
        for setting in settings:
            name, _, raw = setting.partition("=")
            if name not in knobs:
                raise InvalidInputError(f"unknown knob {name!r}; knobs: {', '.join(sorted(knobs))}")
            try:
                values[name] = float(raw)
            except ValueError:
                raise InvalidInputError(f"{name} needs a number, got {raw!r}") from None
        return cls(**values)


@dataclass(frozen=True, slots=True)
class Ranked:
    """One ranked item of a collection: its id, fused score and why."""

    id: str
    score: float
    explain: str
