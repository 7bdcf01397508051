"""The evidence families' gates: a scan skips a family whose gate fails, so a gate must
pass wherever its family's pattern matches."""

from __future__ import annotations

from pagemem.eval import poisoning
from pagemem.guard.deobfuscate import unmask
from pagemem.guard.families import FAMILIES, GATES


def test_every_gated_family_exists() -> None:
    assert set(GATES) <= set(FAMILIES)


def test_gates_never_hide_a_match_on_the_labelled_set() -> None:
    for item in poisoning.load():
        for variant in (*unmask(item.text).variants, *unmask(item.text).readings):
            for family, gate in GATES.items():
                if FAMILIES[family][1].search(variant):
                    assert gate.search(variant), (family, item.id)
