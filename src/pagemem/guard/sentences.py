"""Where a note's sentences are, for the two readers that take sentences away: the
rules re-scored one sentence at a time when a note is cut (`neutralise`), and the
learned model's reading and its culprits (`learned`). One definition, so the sentence
the model blames is the sentence a cut would show as a marker.
"""

from __future__ import annotations

import re

__all__ = ["sentences"]

# A sentence: up to a full stop, question or exclamation mark followed by white space (so
# "evil.example" stays whole) or a CJK one; what is left of the line when none follows.
# A full stop before a digit or a small letter is an abbreviation's ("disposizione n. 14",
# "e.g. this"), not a sentence's end.
_SENTENCE = re.compile(
    r"(?:[^\n]*?(?:(?:[!?]+|\.+(?![ \t]+[a-z0-9]))(?=\s|$)|[\u3002\uff01\uff1f]+)|[^\n]+)\s*"
)


def sentences(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of `text`, in order, white space trimmed."""
    spans = []
    for match in _SENTENCE.finditer(text):
        chunk = match.group(0)
        if chunk.strip():
            start = match.start() + len(chunk) - len(chunk.lstrip())
            spans.append((start, match.start() + len(chunk.rstrip())))
    return spans
