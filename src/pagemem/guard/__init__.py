"""Judging text before it is stored or shown: secrets to redact, instructions to flag,
and what each origin's notes are trusted with."""

from pagemem.guard.directives import DIRECTIVE_FLAG, DirectiveFinding, detect_directives, flags_for
from pagemem.guard.policy import (
    ACTIONS,
    SUSPECT_FLAG,
    UNTRUSTED_FLAG,
    Action,
    OriginRule,
    TrustPolicy,
    Verdict,
)
from pagemem.guard.secrets import Redacted, redact

__all__ = [
    "ACTIONS",
    "DIRECTIVE_FLAG",
    "SUSPECT_FLAG",
    "UNTRUSTED_FLAG",
    "Action",
    "DirectiveFinding",
    "OriginRule",
    "Redacted",
    "TrustPolicy",
    "Verdict",
    "detect_directives",
    "flags_for",
    "redact",
]
