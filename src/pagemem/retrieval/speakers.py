"""Who said a note, read from its text when the caller did not say.

A transcript line written as text ("Caroline: I went to the support group") names its
speaker the way a chat log does. The speaker boost needs that name; asking every user
to repeat it in `metadata["speaker"]` means most never get the boost. The name is read
once, when the note enters an index (and kept in its snapshot), not per query.

Only a short run of capitalised words before a colon counts, and not the labels notes
commonly start with ("Note:", "Update:", "Re:", "Subject:"): a label that slips through
costs little, since the boost fires only when a query names that word and the scope's
notes carry it.
"""

from __future__ import annotations

import re

__all__ = ["leading_speaker"]

# One to three words ("Caroline", "Dr. Lee", "Mary Ann Smith"), a colon, then text on
# the same line; each word must start with a capital. "https://", "10:30" and "Note :"
# do not match.
_LEADING = re.compile(
    r"\s*([^\W\d_][\w'\u2019.-]{0,30}(?: [^\W\d_][\w'\u2019.-]{0,30}){0,2}):[ \t]+\S"
)

# Words that head notes as labels, not as people (compared lowercased, first word).
_LABELS = frozenset(
    [
        "note",
        "notes",
        "nb",
        "ps",
        "update",
        "updated",
        "edit",
        "reminder",
        "todo",
        "to-do",
        "tl;dr",
        "tldr",
        "summary",
        "recap",
        "warning",
        "caution",
        "important",
        "info",
        "fyi",
        "tip",
        "fact",
        "facts",
        "idea",
        "question",
        "answer",
        "q",
        "a",
        "re",
        "fw",
        "fwd",
        "subject",
        "from",
        "to",
        "cc",
        "bcc",
        "date",
        "time",
        "when",
        "where",
        "who",
        "what",
        "why",
        "how",
        "status",
        "result",
        "results",
        "output",
        "input",
        "error",
        "debug",
        "log",
        "source",
        "title",
        "topic",
        "task",
        "goal",
        "goals",
        "context",
        "example",
        "step",
        "location",
        "address",
        "phone",
        "email",
        "url",
        "link",
        "name",
        "price",
        "total",
        "cost",
        "ingredients",
        "instructions",
        "agenda",
        "action",
        "decision",
        "follow-up",
        "next",
        "pros",
        "cons",
        "rule",
        "policy",
        "system",
        "tool",
        "function",
    ]
)


def leading_speaker(text: str) -> str | None:
    """The name a note starts with, as in "Caroline: ...", or None."""
    match = _LEADING.match(text)
    if match is None:
        return None
    name = match.group(1).rstrip(".")
    parts = name.split(" ")
    if not all(part[0].isupper() for part in parts) or parts[0].lower() in _LABELS:
        return None
    return name
