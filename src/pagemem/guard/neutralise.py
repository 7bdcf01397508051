"""Neutralise the directive sentences of a note, not the note.

A poisoned email or review is often the very document the user asked for; hiding all
of it to hide one planted sentence throws the useful part away. So the detector is run
again sentence by sentence: the sentences that read as instructions to the model are
the spans a reader is shown as a marker instead (the stored text keeps them, for review
and export), and only a note that is mostly such sentences, or whose directive part
cannot be pinned to sentences (hidden markup, invisible tag characters, obfuscation
found only after decoding, an unscanned middle), is quarantined whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pagemem.guard.directives import detect_directives

__all__ = ["MOSTLY", "Neutralised", "neutralise"]

# A note at least this share directive (by characters) is quarantined whole.
MOSTLY = 0.5
# Evidence that is not in one sentence's words: it cannot be cut out sentence by sentence.
_WHOLE = frozenset(
    {"hidden-instruction", "hidden-markup", "unicode-tags", "obfuscated", "unscanned"}
)
# A sentence: up to a full stop, question or exclamation mark followed by a space (so
# "evil.example" stays whole) or a CJK one; what is left of the line when none follows.
_SENTENCE = re.compile(r"(?:[^\n]*?(?:[.!?]+(?=\s|$)|[\u3002\uff01\uff1f]+)|[^\n]+)\s*")


@dataclass(frozen=True, slots=True)
class Neutralised:
    """The directive sentences of a note (character spans, in order) and their share."""

    spans: tuple[tuple[int, int], ...]
    share: float

    @property
    def mostly(self) -> bool:
        return self.share >= MOSTLY


def neutralise(text: str, threshold: float, families: tuple[str, ...] = ()) -> Neutralised | None:
    """The sentences of `text` that score `threshold` or more on their own; None when the
    note's directive evidence (`families`, from the whole note) cannot be cut out by
    sentence or no single sentence carries it."""
    if _WHOLE & set(families):
        return None
    spans: list[tuple[int, int]] = []
    for found in _SENTENCE.finditer(text):
        sentence = found.group(0)
        if sentence.strip() and detect_directives(sentence).score >= threshold:
            start, end = found.start(), found.start() + len(sentence.rstrip())
            if spans and text[spans[-1][1] : start].strip() == "":
                spans[-1] = (spans[-1][0], end)  # one marker for neighbouring sentences
            else:
                spans.append((start, end))
    if not spans:
        return None
    total = len("".join(text.split())) or 1
    cut = sum(len("".join(text[a:b].split())) for a, b in spans)
    return Neutralised(tuple(spans), cut / total)
