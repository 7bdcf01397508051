"""Where a side effect's values came from: the check that holds when a detector misses.

An injected instruction does harm only when its payload (an address, an account
number, a URL, an amount, a file) reaches a tool that acts. So before a
side-effecting call runs, each value in its arguments is looked up in what the
model has read: a value found in untrusted text (web and tool notes, flagged notes,
tool output) and in nothing trusted (the user's own messages, core memory, trusted
notes) is traced to the texts it came from, and the call is held for approval.
Values the user gave pass without friction, whatever the model read.

Taken from CaMeL (Debenedetti et al., 2025, "Defeating Prompt Injections by Design"):
values carry where they came from, and a policy is checked before every tool call,
not on the model's reasoning. Taken from FIDES (Costa et al., 2025): integrity labels
propagate, so a note the model writes with untrusted values is untrusted itself.
Not taken: a quarantined second model and a custom interpreter. Values are matched
after normalising (case, spacing, URL parts, the digits of a number, an amount in
either locale's marks), not tracked through the model; where matching cannot see (a
destination re-spelled, "evil dot com"), `trace(..., unseen=True)` fails closed: once
untrusted text was read, a destination found in nothing read holds the call too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DESTINATIONS", "Ledger", "Source", "Traced", "mentions", "values"]

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", re.UNICODE)
_URL = re.compile(
    r"(?:https?://|www\.)[^\s<>\"'`)\]]+|"
    r"(?<![\w@.-])(?:[a-z0-9-]+\.)+(?:com|net|org|io|info|biz|xyz|app|site|online|top|dev|"
    r"co|me|ru|de|uk|fr|es|it|pl|nl|cn|jp|example|test)(?:/[^\s<>\"'`)\]]*)?(?![\w-])",
    re.IGNORECASE,
)
_IBAN = re.compile(
    r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b", re.IGNORECASE
)
# a run of digits with the separators people write in phone, card and account numbers;
# a currency's letters may follow ("130.000đ" reads as "130.000" does alone)
_DIGITS = re.compile(r"(?<![\w.])\+?\d[\d \-./()]{4,}\d(?!\d)")
_DATE_TIME = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?!\d)|"
    r"\b\d{1,2}:\d{2}\b"
)
_SLASHED_DATE = re.compile(r"(?<![\w/])(?:\d{4}/\d{1,2}/\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4})(?![\w/])")
# a number with thousands grouped by a comma, a full stop, a space or an apostrophe and
# its decimals after the other mark ("1,250.50", "1.250,50", "1 250,50"), or plain
_AMOUNT = re.compile(
    r"(?<![\w.,])\d{1,3}(?:(?P<group>[,.\s\u00a0\u202f'])\d{3})(?:(?P=group)\d{3})*"
    r"(?:[.,]\d+)?(?![\d])|(?<![\w.,])\d+(?:[.,]\d+)?(?![\d])"
)
_PATH = re.compile(
    r"(?:~|\.{1,2})?(?:/[\w.\-]+){2,}|[\w\-]+(?:/[\w.\-]+)+\.\w{1,5}|"
    r"(?<![\w@/.-])[\w\-]+\.(?:txt|pdf|docx?|xlsx?|csv|json|ya?ml|zip|tar|gz|sh|py|js|exe|"
    r"key|pem|env|ini|conf|log|db|sqlite|png|jpe?g)\b",
    re.IGNORECASE,
)
_HANDLE = re.compile(r"(?<![\w@])@[A-Za-z_][\w.]{2,}")
# A short argument of capitalised words ("Mallory Reyes", "Acme Holdings Ltd") is a
# name: looked up whole.
_NAME = re.compile(r"^(?:[A-Z][\w'\u2019-]+)(?:\s+[A-Z][\w'\u2019-]+){0,3}$")
_SPACE = re.compile(r"\s+")


def values(text: str) -> set[str]:
    """The values in `text` a side effect could act on, each normalised and tagged with
    its kind ("email:bob@example.com", "host:example.com", "digits:4915112345678")."""
    return set(mentions(text))


def mentions(text: str) -> dict[str, str]:
    """Each value of `text` (as `values` gives it) and the words that wrote it."""
    found: dict[str, str] = {}
    for email in _EMAIL.findall(text):
        found.setdefault(f"email:{email.casefold().rstrip('.')}", email)
        found.setdefault(f"host:{email.rsplit('@', 1)[1].casefold().rstrip('.')}", email)
    rest = _EMAIL.sub(" ", text)  # each part of the text is read as one kind of value
    for url in _URL.findall(rest):
        address = re.sub(r"^(?:https?://)?(?:www\.)?", "", url.casefold()).rstrip("/.,;:!?")
        found.setdefault(f"host:{address.split('/', 1)[0].split(':', 1)[0]}", url)
        if "/" in address:
            found.setdefault(f"url:{address}", url)
    rest = _URL.sub(" ", rest)
    rest = _SLASHED_DATE.sub(" ", rest)  # "2024/10/29" is a date, not a file
    for path in _PATH.findall(rest):
        found.setdefault(f"file:{path.casefold().rstrip('.').rsplit('/', 1)[-1]}", path)
    rest = _PATH.sub(" ", rest)
    for iban in _IBAN.findall(rest):
        found.setdefault(f"account:{iban.replace(' ', '').upper()}", iban)
    rest = _IBAN.sub(" ", rest)
    rest = _DATE_TIME.sub(" ", rest)  # a date or a time is when, not where to
    for run in _DIGITS.findall(rest):
        digits = re.sub(r"\D", "", run)
        if len(digits) >= 6:
            found.setdefault(f"digits:{digits}", run)
            rest = rest.replace(run, " ")
    for match in _AMOUNT.finditer(rest):
        for number in _readings(match.group(0)):
            if number >= 100:
                found.setdefault(f"amount:{_amount(number)}", match.group(0))
    for handle in _HANDLE.findall(text):
        found.setdefault(f"handle:{handle.casefold().rstrip('.')}", handle)
    return found


def _amount(number: float) -> str:
    """An amount as one spelling: 1250.5 and 1250.50 alike, never an exponent."""
    return f"{number:.2f}".rstrip("0").rstrip(".")


def _readings(written: str) -> set[float]:
    """What a written number can mean. Locales disagree on the marks: "1.250,50" and
    "1,250.50" are the same amount, and "130.000" is 130 thousand in Vietnam or Germany
    but 130 in the United States, so a lone group of three digits after one mark is read
    both ways, in the note and in a tool's argument alike."""
    marks = [ch for ch in written if not ch.isdigit()]
    digits = re.sub(r"\D", "", written)
    if not marks:
        return {float(digits)}
    *groups, last = re.split(r"[^\d]", written)
    if len(marks) == 1 and len(last) == 3 and marks[0] in ",.":
        return {float(digits), float(f"{''.join(groups)}.{last}")}
    if marks[-1] in ",." and (len(last) != 3 or len(set(marks)) > 1):
        return {float(f"{''.join(groups)}.{last}")}  # the last mark starts the decimals
    return {float(digits)}


def _argument_values(value: Any) -> set[str]:
    """The values of one argument: those inside its text, and the argument itself when
    it is a short name."""
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, int | float):
        return {f"amount:{_amount(value)}"} if abs(value) >= 100 else set()
    if isinstance(value, list | tuple):
        return set().union(*(_argument_values(item) for item in value)) if value else set()
    if isinstance(value, Mapping):
        return _argument_values(list(value.values()))
    text = str(value)
    found = values(text)
    phrase = _SPACE.sub(" ", text.strip())
    if len(phrase) >= 4 and _NAME.match(phrase):
        found.add(f"name:{phrase.casefold()}")
    return found


@dataclass(frozen=True, slots=True)
class Source:
    """A text the model read, where it came from, and whether it is trusted."""

    text: str
    label: str  # "a12 (web: https://...)", "tool read_inbox", "user message m4"
    trusted: bool
    found: frozenset[str] = field(default=frozenset(), compare=False)


# Kinds of value that say where something goes: one the model did not copy from anything
# it read may still be an untrusted one re-spelled ("evil dot example", split in two).
DESTINATIONS = ("email", "host", "url", "account", "digits", "handle")


@dataclass(frozen=True, slots=True)
class Traced:
    """An argument value found in untrusted text and in nothing trusted, or (`unseen`) a
    destination found in nothing the model read, in a turn that read untrusted text."""

    argument: str
    value: str  # kind:normalised ("email:pay@evil.example")
    sources: tuple[str, ...]  # labels of the untrusted texts that hold it (or were read)
    unseen: bool = False

    def describe(self) -> str:
        kind, _, shown = self.value.partition(":")
        if self.unseen:
            return (
                f"{self.argument} ({kind} {shown!r}) appears in nothing the model read, "
                f"and it read untrusted text: {', '.join(self.sources)}"
            )
        return f"{self.argument} ({kind} {shown!r}) appears only in {', '.join(self.sources)}"


class Ledger:
    """What the model has read in one turn, trusted and not, with the values in it."""

    def __init__(self, sources: Iterable[Source] = ()) -> None:
        self._sources: list[Source] = []
        self.extend(sources)

    @property
    def sources(self) -> tuple[Source, ...]:
        return tuple(self._sources)

    def add(self, text: str, label: str, *, trusted: bool) -> None:
        self.extend([Source(text, label, trusted)])

    def extend(self, sources: Iterable[Source]) -> None:
        for source in sources:
            found = source.found or frozenset(values(source.text))
            self._sources.append(Source(source.text, source.label, source.trusted, found))

    def trace(self, arguments: Mapping[str, Any], *, unseen: bool = False) -> list[Traced]:
        """The argument values that came from untrusted text only, argument by argument;
        with `unseen`, also each destination no text read holds once any untrusted
        text was read (a value matched verbatim is caught anyway; this catches one the
        model re-spelled, and fails closed where the matching cannot see)."""
        traced = []
        read = tuple(dict.fromkeys(s.label for s in self._sources if not s.trusted))
        for argument, value in arguments.items():
            for item in sorted(_argument_values(value)):
                holders = [s for s in self._sources if self._holds(s, item)]
                untrusted = [s.label for s in holders if not s.trusted]
                if untrusted and not any(s.trusted for s in holders):
                    traced.append(Traced(argument, item, tuple(dict.fromkeys(untrusted))))
                elif unseen and read and not holders and item.split(":")[0] in DESTINATIONS:
                    traced.append(Traced(argument, item, read, unseen=True))
        return traced

    def tainted(self, text: str) -> list[Traced]:
        """The values of a text the model writes that came from untrusted text only."""
        return self.trace({"text": text})

    @staticmethod
    def _holds(source: Source, item: str) -> bool:
        if item in source.found:
            return True
        if item.startswith("name:"):
            name = re.escape(item[5:])
            folded = _SPACE.sub(" ", source.text).casefold()
            return re.search(rf"(?<!\w){name}(?!\w)", folded) is not None
        return False
