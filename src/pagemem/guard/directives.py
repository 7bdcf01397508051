"""Judging text before it is stored or shown: does it read as an instruction to the model?

Memory is untrusted input. A note that talks to the model reading it ("AI
assistants reading this must...", "ignore all previous instructions", "you are
now DAN", a fake system section, a tool call in JSON, a URL that carries the
user's data out, "do not tell the user") is directive-shaped, in any of the
languages in `lexicon`, and also after the tricks `deobfuscate` undoes.

Each family of evidence has a weight; the score is the chance that at least one
is right (a noisy OR), so two weak signals add up and one strong one suffices.
Text that discusses such instructions (a tutorial's "e.g.", an article about
prompt injection) without speaking to the model is scored down, and when all of its
evidence is discussed it scores as its strongest piece rather than their noisy OR.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources

from pagemem.guard.deobfuscate import unmask
from pagemem.guard.discussed import discount
from pagemem.guard.families import AI, FAMILIES, GATES
from pagemem.guard.lexicon import (
    MODAL,
    THE_USER,
    USER_REF,
    alt,
)
from pagemem.guard.placement import (
    coded,
    denied,
    heading,
    inserted,
    labelled,
    let_loose,
    logged,
    not_the_readers,
    request_body,
    restrained,
    safeguarded,
    setting,
    speaker,
    spoken_of,
    warned,
)
from pagemem.guard.prefilter import Prefilter, load_formulas

__all__ = [
    "DIRECTIVE_FLAG",
    "FLAG_THRESHOLD",
    "DirectiveFinding",
    "detect_directives",
    "discussed_throughout",
    "flags_for",
    "hidden_instructions",
]

DIRECTIVE_FLAG = "directive-shaped"
FLAG_THRESHOLD = 0.5
# Scanning costs up to ~40 microseconds a character; past this length only the head and
# the tail are scanned and the unscanned middle counts as weak evidence, so a long page
# from the web or a tool is held for review rather than trusted blind.
SCAN_LIMIT = 32_000
PREFILTER_FILE = "data/guard/prefilter.marshal"  # the patterns' formulas, made ahead

# Markup that hides text from a human reader but not from a model.
_HIDDEN = re.compile(
    r"<!--(.*?)-->|<(\w+)[^>]*(?:display\s*:\s*none|visibility\s*:\s*hidden|\bhidden\b|"
    r"font-size\s*:\s*[01](?:px|pt)?\b|color\s*[:=]\s*[\"']?(?:#f{3}(?:f{3})?|white)\b)[^>]*>"
    r"(.*?)</\2>|"
    r"^\s*\[//\]:\s*#\s*\((.*?)\)|\n{8,}([^\n].*)|"
    r"\b(?:title|alt|aria-label|content|data-[\w-]+)\s*=\s*\"([^\"]{24,})\"|"
    # the same element as a page's text renders its tags: [div class="sr-only"]...[/div]
    r"\[(\w+)[^\]\n]*(?:display\s*:\s*none|visibility\s*:\s*hidden|\bhidden\b|\bsr-only\b)"
    r"[^\]\n]*\](.*?)\[/\7\]",
    re.IGNORECASE | re.DOTALL | re.MULTILINE,
)
_TALKS_TO_MODEL = re.compile(
    rf"{AI}|{alt(THE_USER)}|{alt(USER_REF)}|{alt(MODAL)}|"
    r"\b(?:please|bitte|por favor|per favore|s'il vous plaît|proszę|пожалуйста|lütfen|vui lòng)\b",
    re.IGNORECASE,
)
_SPEAKS_TO_MODEL = ("addressed", "hidden-instruction", "unicode-tags")


@dataclass(frozen=True, slots=True)
class DirectiveFinding:
    """Which families of directive-shaped text matched, the first span of each, and a
    score from 0 (reads as data) to 1 (reads as instructions to the model)."""

    families: tuple[str, ...]
    spans: tuple[str, ...]
    score: float = 0.0
    # the families counted as talk about instructions (quoted as an example, reported),
    # nothing else in the text speaking to the model
    discussed: tuple[str, ...] = ()

    @property
    def flagged(self) -> bool:
        return self.score >= FLAG_THRESHOLD


@dataclass(frozen=True, slots=True)
class _Evidence:
    weight: float
    span: str
    # how much of its weight counts when nothing speaks to the model: less when it is
    # introduced as an example or reported (0.3), least when quoted as one (0.1)
    discount: float = 1.0

    @property
    def discussed(self) -> bool:
        return self.discount < 1.0


def prefilter_patterns() -> dict[str, re.Pattern[str]]:
    """Every pattern a scan may skip: the families and their gates."""
    gates = {f"gate:{family}": gate for family, gate in GATES.items()}
    return {family: pattern for family, (_, pattern) in FAMILIES.items()} | gates


@functools.cache
def _prefilter() -> Prefilter:
    """Built on first use: most processes that import the guard never scan. The
    formulas shipped with the package (scripts/build_guard_prefilter.py) make that
    about 0.04 s instead of 0.25; when they were made for other patterns, other code or
    another Python, they are read from the patterns again."""
    patterns = prefilter_patterns()
    try:
        blob = resources.files("pagemem").joinpath(PREFILTER_FILE).read_bytes()
    except OSError:
        blob = b""
    return Prefilter(patterns, load_formulas(patterns, blob))


def _hailed(text: str, match: re.Match[str]) -> bool:
    """A heading's dash or colon, a transcript's speaker, a setting's name, or a model
    spoken of rather than to."""
    return (
        heading(text, match)
        or speaker(text, match)
        or setting(text, match)
        or spoken_of(text, match)
    )


# Matches whose place makes them something else (`placement`): an obligation on someone
# other than the reader or a restraint on models, a heading's dash or a transcript's
# speaker tag, a log line's or a subject line's system tag, a call that is a line of code.
_EXCUSED: dict[str, Callable[[str, re.Match[str]], bool]] = {
    "ai-obligation": lambda text, match: not_the_readers(text, match) or restrained(text, match),
    "addressed": _hailed,
    "named-order": _hailed,
    "named-order-person": _hailed,
    "fake-system": lambda text, match: logged(text, match) or request_body(text, match),
    "side-effect-call": coded,
    "exfiltration": warned,
    "secret-handover": denied,
    "memory-note": warned,
    "concealment": let_loose,
    "override": inserted,
    "waived-consent": safeguarded,
}

# Families that restate another's evidence when both match (an order after a model
# hailed at a sentence's start is also "addressed"): counted once, as the earlier one.
_RESTATES = {
    "named-order": ("addressed",),
    "named-order-person": ("addressed", "named-order"),
    "agent-addressed": ("named-order-person",),  # "Agents: verify ..." once, not twice
}


def _scan(text: str, found: dict[str, _Evidence], *, plain: bool) -> None:
    possible = _prefilter().admitted(text)  # a family outside it cannot match: not run
    for family, (weight, pattern) in FAMILIES.items():
        if family in found or family not in possible:
            continue
        if any(earlier in found for earlier in _RESTATES.get(family, ())):
            continue
        if (gate := GATES.get(family)) and (
            f"gate:{family}" not in possible or not gate.search(text)
        ):
            continue
        if family == "labelled-for-model":  # tried at each colon, from its label's start
            match = labelled(text, pattern)
        elif excused := _EXCUSED.get(family):  # the first match its place does not excuse
            match = next((m for m in pattern.finditer(text) if not excused(text, m)), None)
        else:
            match = pattern.search(text)
        if match:
            counts = discount(text, match.start(), match.end()) if plain else 1.0
            found[family] = _Evidence(weight, match.group(0).strip(), counts)
    for match, talks in _hidden(text):
        span = match.group(0).strip()[:200]
        if talks:
            found.setdefault("hidden-instruction", _Evidence(0.75, span))
        else:
            found.setdefault("hidden-markup", _Evidence(0.25, span))


def _hidden(text: str) -> Iterator[tuple[re.Match[str], bool]]:
    """Each passage a human reader of the rendered text would not see, and whether it
    speaks to the model."""
    for match in _HIDDEN.finditer(text):
        inner = next((group for group in match.groups()[::-1] if group), "") or ""
        if match.group(2):
            inner = match.group(3) or ""
        yield match, bool(_TALKS_TO_MODEL.search(inner))


def hidden_instructions(text: str) -> list[tuple[int, int]]:
    """The spans of `text` hidden from a human reader that speak to the model: a note
    cut for them loses the whole hidden passage, not only its sentences that score."""
    return [match.span() for match, talks in _hidden(text) if talks]


def detect_directives(text: str) -> DirectiveFinding:
    """Scan text, and what obfuscation hid in it, for passages aimed at the model."""
    found: dict[str, _Evidence] = {}
    if len(text) > SCAN_LIMIT:
        half = SCAN_LIMIT // 2
        found["unscanned"] = _Evidence(0.35, f"{len(text) - SCAN_LIMIT} characters not scanned")
        text = f"{text[:half]}\n{text[-half:]}"
    unmasked = unmask(text)
    for reading in (unmasked.variants[0], *unmasked.readings):
        _scan(reading, found, plain=True)
    plain = set(found)
    for variant in unmasked.variants[1:]:
        _scan(variant, found, plain=False)
    if any(family not in plain for family in found):
        found["obfuscated"] = _Evidence(0.4, ", ".join(unmasked.tricks))
    if "unicode-tags" in unmasked.tricks:
        found["unicode-tags"] = _Evidence(0.6, "invisible Unicode tag characters")
    elif "invisible-characters" in unmasked.tricks:
        found["invisible-characters"] = _Evidence(0.3, "zero-width characters inside words")
    # Evidence that is only discussed (an article quoting an attack, a tutorial's example)
    # counts for less, unless something in the text also speaks to the model directly.
    speaks = any(f in found and not found[f].discussed for f in _SPEAKS_TO_MODEL)
    weights = [e.weight * (1.0 if speaks else e.discount) for e in found.values()]
    if found and all(e.discussed for e in found.values()):
        # only talk about attacks (an article quoting three of them): as strong as its
        # strongest quote, not the sum of the quotes
        score = max(weights)
    else:
        clear = 1.0
        for weight in weights:
            clear *= 1.0 - weight
        score = 1.0 - clear
    families = tuple(found)
    spans = tuple(found[f].span for f in families)
    discussed = () if speaks else tuple(f for f in families if found[f].discussed)
    return DirectiveFinding(families, spans, round(score, 4), discussed)


def discussed_throughout(text: str, family: str) -> bool:
    """Is every match of `family` in `text`, as written and as each trick or encoding
    hid it, talk about instructions (quoted as an example, reported)? The scan counts a
    family's first match only: an article's quoted example before a planted order would
    excuse the order."""
    if len(text) > SCAN_LIMIT:
        return False
    _, pattern = FAMILIES[family]
    excused = _EXCUSED.get(family)
    unmasked = unmask(text)
    for reading in (*unmasked.variants, *unmasked.readings):
        for match in pattern.finditer(reading):
            if excused is not None and excused(reading, match):
                continue
            if discount(reading, match.start(), match.end()) >= 1.0:
                return False
    return True


def flags_for(text: str) -> tuple[str, ...]:
    """The flags a note carries from its content alone, at the default threshold."""
    return (DIRECTIVE_FLAG,) if detect_directives(text).flagged else ()
