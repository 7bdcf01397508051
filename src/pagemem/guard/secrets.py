"""Secrets never reach the store: API keys, tokens, private keys, passwords, cards, IBANs.

Every text pagemem writes (notes, messages, blocks, summaries) passes through
`redact` first. Each secret is replaced by a typed placeholder such as
`[REDACTED:aws_access_key]`, and the kinds found are reported, never the values.

Provider formats are matched by pattern: detect-secrets, the obvious library,
reports values without their positions and truncates some of them (a GitHub
token comes back as "ghp", a JWT without its signature), so redacting by its
findings would leave secrets behind. Card numbers and IBANs are confirmed with
python-stdnum's Luhn and IBAN checks, so order numbers and phone numbers stay; a card
number must also start and run as a card network's do (ISO/IEC 7812 issuer ranges), since
one number in ten passes Luhn by chance: a pet's microchip (15 digits from 900) or an
IMEI (15 digits from 35) is not a card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from stdnum import iban as stdnum_iban
from stdnum import luhn

__all__ = ["KINDS", "Redacted", "redact"]

_I = re.IGNORECASE

# kind -> pattern; group "secret" (when present) is the part replaced, else the whole match.
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "private_key",
        re.compile(
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)",
            re.DOTALL,
        ),
    ),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*")),
    ("aws_access_key", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b")),
    (
        "aws_secret_key",
        re.compile(
            r"(?i:aws)[\w .-]{0,20}(?i:secret)[\w .-]{0,20}[:=]\s*[\"']?"
            r"(?P<secret>[A-Za-z0-9/+=]{40})\b"
        ),
    ),
    (
        "github_token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})"),
    ),
    ("gitlab_token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}")),
    ("anthropic_key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    ("openai_key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}")),
    ("slack_token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("stripe_key", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}")),
    ("google_api_key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("bearer_token", re.compile(r"\bBearer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)", _I)),
    ("url_password", re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s:/@]+:(?P<secret>[^\s@/]+)@", _I)),
    (
        "password",
        re.compile(
            r"\b(?:password|passwd|pwd|passphrase|passcode|pin code|pin)\b\s*(?:[:=]|\bis\b)\s*"
            r"[\"']?(?P<secret>[^\s\"',;]{3,})",
            _I,
        ),
    ),
    (
        "secret",
        re.compile(
            r"\b(?:api[_ -]?key|secret(?:[_ -]?key)?|access[_ -]?token|auth[_ -]?token|"
            r"client[_ -]?secret)\b\s*(?:[:=]|\bis\b)\s*[\"']?(?P<secret>[A-Za-z0-9._~+/=-]{8,})",
            _I,
        ),
    ),
]
_CARD = re.compile(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b")

KINDS: tuple[str, ...] = (*(kind for kind, _ in _PATTERNS), "credit_card", "iban")

# Issuer prefixes of the card networks and the lengths their numbers run to: UATP (1),
# Mastercard and Mir (2), American Express (34, 37; 15 digits), Diners and JCB (3), Visa
# (4), Maestro, Discover, UnionPay and RuPay (5, 6), UnionPay and RuPay (81, 82), UzCard
# (8600), Troy (9792) and Humo (9860). A prefix listed longer wins over its first digit.
_CARD_LENGTHS: dict[str, range | tuple[int, ...]] = {
    "1": (15,),
    "2": range(16, 20),
    "3": (14, 16, 17, 18, 19),  # 15 digits only from 34 and 37: an IMEI from 35 is no card
    "34": (15,),
    "37": (15,),
    "4": (13, 16, 19),
    "5": range(12, 20),
    "6": range(12, 20),
    "81": range(16, 20),
    "82": range(16, 20),
    "8600": (16,),
    "9792": (16,),
    "9860": (16,),
}


@dataclass(frozen=True, slots=True)
class Redacted:
    """The text with secrets replaced, and the kinds replaced (in order of appearance)."""

    text: str
    kinds: tuple[str, ...]

    @property
    def changed(self) -> bool:
        return bool(self.kinds)


def _placeholder(kind: str) -> str:
    return f"[REDACTED:{kind}]"


def redact(text: str) -> Redacted:
    """Replace every secret in `text` with a typed placeholder."""
    spans: list[tuple[int, int, str]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e, _ in spans)

    for kind, pattern in _PATTERNS:
        for found in pattern.finditer(text):
            group = "secret" if "secret" in pattern.groupindex else 0
            start, end = found.span(group)
            if free(start, end):
                spans.append((start, end, kind))
    for found in _CARD.finditer(text):
        digits = re.sub(r"[ -]", "", found.group(0))
        if _card_shaped(digits) and luhn.is_valid(digits) and free(*found.span()):
            spans.append((*found.span(), "credit_card"))
    for found in _IBAN.finditer(text):
        if stdnum_iban.is_valid(found.group(0)) and free(*found.span()):
            spans.append((*found.span(), "iban"))
    if not spans:
        return Redacted(text, ())
    spans.sort()
    pieces, last = [], 0
    for start, end, kind in spans:
        pieces += [text[last:start], _placeholder(kind)]
        last = end
    pieces.append(text[last:])
    return Redacted("".join(pieces), tuple(kind for _, _, kind in spans))


def _card_shaped(digits: str) -> bool:
    """Does the number start and run as some card network's numbers do?"""
    for size in (4, 2, 1):
        lengths = _CARD_LENGTHS.get(digits[:size])
        if lengths is not None:
            return len(digits) in lengths
    return False
