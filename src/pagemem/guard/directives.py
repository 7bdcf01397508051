"""Judging text before it is stored or shown: does it read as an instruction to the model?

Memory is untrusted input. A note that tells the model what to do ("ignore all
previous instructions", "you are now", a tool call in JSON, a URL that carries
data out) is flagged when written, and the flag travels with every search hit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DIRECTIVE_FLAG", "DirectiveFinding", "detect_directives", "flags_for"]

DIRECTIVE_FLAG = "directive-shaped"

_I = re.IGNORECASE
_PATTERNS: dict[str, re.Pattern[str]] = {
    # "ignore all previous instructions", "disregard the above", "forget your rules"
    "override": re.compile(
        r"\b(ignore|disregard|forget|override|bypass|skip)\b[^.\n]{0,40}?"
        r"\b(previous|prior|above|earlier|preceding|all|any|your|system|the)\b[^.\n]{0,30}?"
        r"\b(instructions?|prompts?|rules|directives|guidelines|context|messages?|orders)\b",
        _I,
    ),
    # "you are now DAN", "act as", "pretend to be", "from now on you"
    "role-play": re.compile(
        r"\b(you are now|you're now|act as (an?|the)\b|pretend (to be|you are)|"
        r"roleplay as|from now on,? you|new persona|developer mode|jailbreak)",
        _I,
    ),
    # instructions addressed to the model or assistant by name
    "addressed": re.compile(
        r"\b(assistant|AI|chatbot|language model|LLM)\s*[:,]?\s*(must|should|"
        r"shall|will|always|never|do not|don't)\b",
        _I,
    ),
    # markers that pretend a new prompt section begins
    "hidden-marker": re.compile(
        r"(<\|im_start\|>|<\|system\|>|\[/?INST\]|<<SYS>>|###\s*(system|instruction)|"
        r"\bsystem prompt\b|\bnew instructions?\s*:|\bBEGIN (ADMIN|SYSTEM)\b|"
        r"<!--[^>]*(instruction|assistant|ignore)[^>]*-->)",
        _I,
    ),
    # text shaped like a tool or function call
    "tool-call": re.compile(
        r"(\"(name|function|tool)\"\s*:\s*\"[^\"]+\"\s*,\s*\"(arguments|parameters|input)\"|"
        r"<tool_call>|<function_call|\bcall the [\w-]+ tool\b|\bfunction_call\b)",
        _I,
    ),
    # exfiltration: send/post data somewhere, or a URL carrying data in its query
    "exfiltration": re.compile(
        r"(\b(send|post|forward|upload|email|leak|exfiltrate)\b[^.\n]{0,60}?"
        r"\b(to|at)\s+(https?://|\S+@\S+\.\w+)|"
        r"https?://\S+[?&]\w+=\{?\s*(user|secret|password|key|token|data|memory|conversation))",
        _I,
    ),
    # keep it from the user
    "concealment": re.compile(
        r"\b(do not|don't|never)\s+(tell|inform|mention|reveal|show)\s+(this\s+to\s+)?"
        r"(the\s+)?(user|human|anyone)\b|\bwithout (telling|informing) (the )?(user|human)\b",
        _I,
    ),
}


_WEIGHTS = {
    "override": 0.9,
    "role-play": 0.7,
    "addressed": 0.6,
    "hidden-marker": 0.9,
    "tool-call": 0.7,
    "exfiltration": 0.8,
    "concealment": 0.6,
}
FLAG_THRESHOLD = 0.5


@dataclass(frozen=True, slots=True)
class DirectiveFinding:
    """Which families of directive-shaped text matched, the first span of each, and a
    score from 0 (reads as data) to 1 (reads as instructions to the model)."""

    families: tuple[str, ...]
    spans: tuple[str, ...]
    score: float = 0.0

    @property
    def flagged(self) -> bool:
        return self.score >= FLAG_THRESHOLD


def detect_directives(text: str) -> DirectiveFinding:
    """Scan text for instruction-shaped passages aimed at the model."""
    families, spans = [], []
    for family, pattern in _PATTERNS.items():
        found = pattern.search(text)
        if found:
            families.append(family)
            spans.append(found.group(0))
    clear = 1.0
    for family in families:
        clear *= 1.0 - _WEIGHTS[family]
    return DirectiveFinding(tuple(families), tuple(spans), round(1.0 - clear, 4))


def flags_for(text: str) -> tuple[str, ...]:
    """The flags a note carries from its content alone, at the default threshold."""
    return (DIRECTIVE_FLAG,) if detect_directives(text).flagged else ()
