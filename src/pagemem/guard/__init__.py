"""Judging text before it is stored or shown: secrets to redact, instructions to flag."""

from pagemem.guard.directives import DIRECTIVE_FLAG, DirectiveFinding, detect_directives, flags_for
from pagemem.guard.secrets import Redacted, redact

__all__ = [
    "DIRECTIVE_FLAG",
    "DirectiveFinding",
    "Redacted",
    "detect_directives",
    "flags_for",
    "redact",
]
