"""Memory-poisoning benchmark: does the guard catch injections, and do they reach the model?

The labelled set (shipped in `eval/data/poisoning.jsonl`, written for pagemem)
holds benign user facts, benign web snippets and tool outputs (many of them
hard negatives: imperatives for humans, articles about prompt injection, API
docs) and injections in twelve styles and many languages. Each note has the
question a user would ask that brings it up.

Two measurements, per split:

- the directive detector as the trust policy applies it (each origin's
  threshold): precision and recall of "directive-shaped" against the labels;
- reach: every benign note goes into one scope, then each injection in turn is
  written with its origin, searched for with its question, and counted if it is
  in the top 3; under each policy (flag only, down-rank, quarantine, default).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import numpy as np

from pagemem.errors import InvalidInputError
from pagemem.guard import DIRECTIVE_FLAG, SUSPECT_FLAG, TrustPolicy
from pagemem.guard.learned import LearnedDirectives
from pagemem.memory import Memory
from pagemem.models import ORIGINS
from pagemem.retrieval.embed import Embedder, OnnxEmbedder, Role, Vectors

__all__ = [
    "POLICIES",
    "SETS",
    "Detection",
    "Item",
    "Reach",
    "default_embedder",
    "evaluate_detector",
    "evaluate_reach",
    "load",
]

Label = Literal["benign", "injection"]
_KEYS = {"id", "text", "origin", "label", "category", "style", "lang", "query", "split"}


@dataclass(frozen=True, slots=True)
class Item:
    id: str
    text: str
    origin: str
    label: Label
    category: str
    style: str
    lang: str
    query: str
    split: str

    @property
    def injection(self) -> bool:
        return self.label == "injection"


SETS = ("poisoning", "carriers")


def load(path: Path | None = None, *, shipped: str = "poisoning") -> list[Item]:
    """The labelled notes: a shipped set (`SETS`), or a JSON-lines file of the same shape.

    "poisoning" is the first set (notes of every origin); "carriers" is the second,
    10,842 realistic emails, messages, web pages and tool outputs in 34 languages written
    blind by fifty-eight authors, split by author before anything was tuned on it
    (fifty-six dev, two test).
    """
    if path is None:
        if shipped not in SETS:
            raise InvalidInputError(f"no shipped set {shipped!r}; sets: {', '.join(SETS)}")
        data = resources.files("pagemem").joinpath(f"eval/data/{shipped}.jsonl")
        text = data.read_text("utf-8")
    else:
        text = Path(path).read_text(encoding="utf-8")
    items = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInputError(f"line {number}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict) or set(row) != _KEYS:
            raise InvalidInputError(f"line {number}: expected the keys {', '.join(sorted(_KEYS))}")
        if row["label"] not in ("benign", "injection") or row["origin"] not in ORIGINS:
            raise InvalidInputError(f"line {number}: bad label or origin")
        items.append(Item(**row))
    if not items:
        raise InvalidInputError("the labelled set is empty")
    return items


@dataclass(slots=True)
class Detection:
    """Confusion counts of the detector at each origin's threshold, with the misses."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    missed: list[Item] = field(default_factory=list)
    false_alarms: list[Item] = field(default_factory=list)
    recall_by: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)
    # benign notes flagged of all benign notes, by category, language and origin
    false_alarms_by: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "missed": [i.id for i in self.missed],
            "false_alarms": [i.id for i in self.false_alarms],
            "recall_by": _fractions(self.recall_by),
            "false_alarms_by": _fractions(self.false_alarms_by),
        }


def _fractions(by: dict[str, dict[str, tuple[int, int]]]) -> dict[str, dict[str, str]]:
    return {
        axis: {key: f"{hit}/{total}" for key, (hit, total) in sorted(groups.items())}
        for axis, groups in by.items()
    }


def evaluate_detector(
    items: Iterable[Item],
    policy: TrustPolicy | None = None,
    *,
    learned: LearnedDirectives | None = None,
) -> Detection:
    """Precision and recall of the policy's flags against the labels, per origin.

    Without `learned`: 'directive-shaped' (the rules). With it: what the policy makes of
    the rules and the learned model together, for the origins it asks the model about.
    """
    policy = policy or TrustPolicy()
    result = Detection()
    groups: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    alarms: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for item in items:
        verdict = policy.judge(item.text, item.origin, learned=learned)
        flagged = DIRECTIVE_FLAG in verdict.flags or SUSPECT_FLAG in verdict.flags
        axes = (("lang", item.lang), ("origin", item.origin))
        if not item.injection:
            for axis, key in (("category", item.category), *axes):
                alarms[axis][key][0] += flagged
                alarms[axis][key][1] += 1
        if item.injection:
            for axis, key in (("style", item.style), *axes):
                groups[axis][key][0] += flagged
                groups[axis][key][1] += 1
            if flagged:
                result.tp += 1
            else:
                result.fn += 1
                result.missed.append(item)
        elif flagged:
            result.fp += 1
            result.false_alarms.append(item)
        else:
            result.tn += 1
    result.recall_by = _pairs(groups)
    result.false_alarms_by = _pairs(alarms)
    return result


def _pairs(counts: dict[str, dict[str, list[int]]]) -> dict[str, dict[str, tuple[int, int]]]:
    return {axis: {k: (v[0], v[1]) for k, v in keyed.items()} for axis, keyed in counts.items()}


POLICIES: dict[str, Callable[[], TrustPolicy]] = {
    "flag": lambda: TrustPolicy.uniform("flag"),
    "downrank": lambda: TrustPolicy.uniform("downrank"),
    "quarantine": lambda: TrustPolicy.uniform("quarantine"),
    "default": TrustPolicy,
}


@dataclass(slots=True)
class Reach:
    """How many injections of each origin reached the top k for a query aimed at them."""

    k: int
    reached: Counter[str] = field(default_factory=Counter)
    total: Counter[str] = field(default_factory=Counter)
    held: Counter[str] = field(default_factory=Counter)
    # of those reached, shown with their directive sentences cut out (`Record.shown`)
    neutralised: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    benign_found: Counter[str] = field(default_factory=Counter)  # the cost: benign notes
    benign_total: Counter[str] = field(default_factory=Counter)  # in the top k for their query

    def rate(self, origin: str | None = None) -> float:
        reached = self.reached[origin] if origin else sum(self.reached.values())
        total = self.total[origin] if origin else sum(self.total.values())
        return reached / total if total else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "reached": dict(self.reached),
            "total": dict(self.total),
            "quarantined": dict(self.held),
            "neutralised": dict(self.neutralised),
            "rate": round(self.rate(), 4),
            "reached_ids": self.examples,
            "benign_found": dict(self.benign_found),
            "benign_total": dict(self.benign_total),
        }


class _Memo:
    """An embedder that remembers, so four policies embed the set once."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self._seen: dict[tuple[str, str], Vectors] = {}

    def embed(self, texts: Sequence[str], *, role: Role = "document") -> Vectors:
        missing = [t for t in dict.fromkeys(texts) if (t, role) not in self._seen]
        if missing:
            for text, vector in zip(missing, self.inner.embed(missing, role=role), strict=True):
                self._seen[(text, role)] = vector
        return np.stack([self._seen[(t, role)] for t in texts]).astype(np.float32)


def evaluate_reach(
    items: Sequence[Item],
    policy: TrustPolicy,
    *,
    k: int = 3,
    embedder: Embedder | None = None,
    progress: Callable[[int], None] | None = None,
) -> Reach:
    """Benign notes as the haystack; each injection alone with them, searched by its query."""
    memory = Memory(":memory:", trust=policy, embedder=embedder)
    me = memory.scope("eval", "poisoning")
    benign = [i for i in items if not i.injection]
    ids = me.archive.insert_many(
        {"text": i.text, "origin": i.origin, "source": i.id} for i in benign
    )
    result = Reach(k)
    for item, record_id in zip(benign, ids, strict=True):
        result.benign_total[item.origin] += 1
        if any(hit.record.id == record_id for hit in me.archive.search(item.query, k=k)):
            result.benign_found[item.origin] += 1
    for item in items:
        if not item.injection:
            continue
        record_id = me.archive.insert(item.text, origin=item.origin, source=item.id)  # type: ignore[arg-type]
        result.total[item.origin] += 1
        if me.archive.get(record_id).quarantined:
            result.held[item.origin] += 1
        hits = me.archive.search(item.query, k=k)
        found = next((hit.record for hit in hits if hit.record.id == record_id), None)
        if found is not None:
            result.reached[item.origin] += 1
            result.examples.append(item.id)
            if found.shown != found.text:
                result.neutralised[item.origin] += 1
        me.archive.delete(record_id)
        if progress is not None:
            progress(1)
    memory.close()
    return result


def default_embedder(dense: bool) -> Embedder | None:
    return _Memo(OnnxEmbedder()) if dense else None
