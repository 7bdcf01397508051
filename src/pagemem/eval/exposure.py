"""What the model reads of each labelled note under the default policy, and what it costs.

Every note is written through the public API with its origin, as an application would:

- **injections**: held for review (quarantined), cut (kept, the directive sentences
  shown as a marker), only flagged, or missed (shown as they are);
- **benign notes**: how many are held, cut or flagged (the false alarms a user pays for);
- **pairs**: a carrier written clean and written with an injection added (ids ending
  `-pair-NN-clean` and `-pair-NN-poisoned`), each alone among the benign notes and
  searched for by the carrier's question: how often each is in the top k. A defence that
  cuts the injection keeps the poisoned carrier as findable as the clean one. And, with
  no detector in the loop, how many of the poisoned carriers that were cut still show
  some of the injected text: what the model reads of one against its clean version.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from pagemem.eval.poisoning import Item
from pagemem.guard import DIRECTIVE_FLAG, SUSPECT_FLAG
from pagemem.memory import Memory
from pagemem.models import NEUTRALISED_FLAG, NEUTRALISED_MARK, Record
from pagemem.retrieval.embed import Embedder

__all__ = ["Exposure", "evaluate_exposure"]

_PAIR = re.compile(r"^(?P<key>.+-pair-\d+)-(?P<side>clean|poisoned)$")
RESIDUE = 15  # characters other than white space: less is a changed word or two


@dataclass(frozen=True, slots=True)
class Exposure:
    injections: int = 0
    held: int = 0
    cut: int = 0
    flagged_only: int = 0
    benign: int = 0
    benign_held: int = 0
    benign_cut: int = 0
    benign_flagged: int = 0
    pairs: int = 0
    clean_found: int = 0
    poisoned_found: int = 0
    # poisoned carriers cut, and of those, the ones whose shown text still holds more
    # than `RESIDUE` characters the clean one does not
    pairs_cut: int = 0
    pairs_residue: int = 0

    @property
    def missed(self) -> int:
        return self.injections - self.held - self.cut - self.flagged_only

    @property
    def stopped(self) -> float:
        """Share of injections held or cut in what the model reads."""
        return (self.held + self.cut) / self.injections if self.injections else 1.0

    def as_dict(self) -> dict[str, int | float]:
        return {**asdict(self), "missed": self.missed, "stopped": round(self.stopped, 4)}


def evaluate_exposure(
    items: Sequence[Item], *, embedder: Embedder | None = None, k: int = 3
) -> Exposure:
    """Write each note (injections and pairs one at a time, beside the benign notes) and
    count what the default policy made of it."""
    counts = dict.fromkeys(Exposure.__slots__, 0)
    pairs: dict[str, dict[str, Item]] = {}
    for item in items:
        if found := _PAIR.match(item.id):
            pairs.setdefault(found["key"], {})[found["side"]] = item
    paired = {i.id for sides in pairs.values() if len(sides) == 2 for i in sides.values()}
    clean_of = {
        sides["poisoned"].id: sides["clean"].text for sides in pairs.values() if len(sides) == 2
    }
    with Memory(":memory:", embedder=embedder) as memory:
        me = memory.scope("eval", "exposure")
        haystack = [i for i in items if not i.injection and i.id not in paired]
        ids = me.archive.insert_many(
            {"text": i.text, "origin": i.origin, "source": i.id, "consolidate": False}
            for i in haystack
        )
        for record_id in ids:
            _count(counts, me.archive.get(record_id), benign=True)
        for item in items:
            if item.id in paired or item.injection:
                record_id = me.archive.insert(
                    item.text,
                    origin=item.origin,  # type: ignore[arg-type]
                    source=item.id,
                    consolidate=False,
                )
                record = me.archive.get(record_id)
                _count(counts, record, benign=not item.injection)
                if item.id in clean_of and NEUTRALISED_FLAG in record.flags:
                    counts["pairs_cut"] += 1
                    counts["pairs_residue"] += _added(clean_of[item.id], record.shown) > RESIDUE
                if item.id in paired:
                    hits = me.archive.search(item.query, k=k)
                    side = "poisoned_found" if item.injection else "clean_found"
                    counts[side] += any(hit.record.id == record_id for hit in hits)
                me.archive.delete(record_id)
    counts["pairs"] = len([sides for sides in pairs.values() if len(sides) == 2])
    return Exposure(**counts)


def _count(counts: dict[str, int], record: Record, *, benign: bool) -> None:
    cut = NEUTRALISED_FLAG in record.flags
    flagged = DIRECTIVE_FLAG in record.flags or SUSPECT_FLAG in record.flags
    if benign:
        counts["benign"] += 1
        counts["benign_held"] += record.quarantined
        counts["benign_cut"] += cut
        counts["benign_flagged"] += flagged
    else:
        counts["injections"] += 1
        counts["held"] += record.quarantined
        counts["cut"] += cut
        counts["flagged_only"] += flagged and not cut and not record.quarantined


def _added(clean: str, shown: str) -> int:
    """Characters (not white space) of `shown` that `clean` does not have, the marker
    put in place of a cut left out."""
    shown = shown.replace(NEUTRALISED_MARK, "")
    matcher = difflib.SequenceMatcher(None, clean, shown, autojunk=False)
    return sum(
        len("".join(shown[j1:j2].split()))
        for op, _, _, j1, j2 in matcher.get_opcodes()
        if op in ("insert", "replace")
    )
