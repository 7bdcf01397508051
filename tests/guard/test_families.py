"""The evidence families' gates: a scan skips a family whose gate fails, so a gate must
pass wherever its family's pattern matches."""

from __future__ import annotations

import re
import unicodedata

from pagemem.eval import poisoning
from pagemem.guard import directives, discussed, placement
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


def test_patterns_spell_letters_as_the_scan_reads_them() -> None:
    """The scan reads text compatibility-folded (NFKC), so a letter that folds to others
    can never match: Thai's sara am is read as nikhahit and sara aa, a ligature as its
    letters."""
    patterns = [*((f, p) for f, (_, p) in FAMILIES.items()), *GATES.items()]
    for module in (directives, discussed, placement):
        patterns += [(n, p) for n, p in vars(module).items() if isinstance(p, re.Pattern)]
    for name, pattern in patterns:
        unread = {
            char
            for char in str(pattern.pattern)
            if unicodedata.category(char)[0] in "LM" and unicodedata.normalize("NFKC", char) != char
        }
        assert not unread, (name, sorted(unread))
