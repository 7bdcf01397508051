"""Undoing the tricks that hide instructions from a scanner, before the scan.

A note is scanned as written and as each readable variant of it: Unicode
compatibility forms folded, invisible characters dropped, letters spaced or
starred apart joined up, Cyrillic and Greek look-alikes mapped to Latin,
leetspeak read as letters, and base64, hex or ROT13 payloads decoded. The
variants that needed undoing are themselves evidence (`Unmasked.tricks`).
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
import unicodedata
from dataclasses import dataclass

__all__ = ["Unmasked", "unmask"]

# Zero-width and formatting characters that render as nothing.
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad\u180e]")
# Unicode "tag" characters (U+E0000-U+E007F) spell ASCII invisibly.
_TAGS = re.compile("[\U000e0000-\U000e007f]+")
# Cyrillic and Greek letters that look like Latin ones.
_HOMOGLYPHS = str.maketrans(
    "АВЕКМНОРСТХаеорсухіјѕԁӏΑΒΕΖΗΙΚΜΝΟΡΤΥΧαοι",
    "ABEKMHOPCTXaeopcyxijsdlABEZHIKMNOPTYXaoi",
)
_LATIN = re.compile(r"[A-Za-z]")
_FOREIGN = re.compile(r"[\u0370-\u03ff\u0400-\u04ff]")
_WORD = re.compile(r"\S+")
# "s e n d   t h e" : single characters separated by single spaces, words by 2+.
_SPACED = re.compile(r"(?:(?<=\s)|^)((?:\S {1,3}){4,}\S)(?=\s|$)")
# "忽*略*之*前" or "i.g.n.o.r.e": characters joined by a repeated filler.
_STARRED = re.compile(r"(?:\w[*·•._\-]){3,}\w")
_LEET = str.maketrans("4310578@$", "aeiostbas")
_LEET_WORD = re.compile(r"\b(?=\w*[a-z])(?=\w*[0-9])[a-z0-9]{3,}\b", re.IGNORECASE)
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{24,}={0,2}(?![A-Za-z0-9+/=])")
_HEX = re.compile(r"\b(?:[0-9a-fA-F]{2}[ :]?){12,}\b")
_ROT13_CUE = re.compile(r"\b(rot-?13|caesar|rotated|decode|decoded|decoding)\b", re.IGNORECASE)
_REVERSE_CUE = re.compile(
    r"\b(backwards?|reversed?|in reverse|right to left|rückwärts|à l'envers|al revés|al contrario|"
    r"od tyłu|задом наперёд)",
    re.IGNORECASE,
)
_HYPHENATED = re.compile(r"(?<=\w)-(?=\w)")
# Chat spelling that dodges word lists: "pls ignor ur old rulez".
_SLANG = {
    "u": "you", "ur": "your", "pls": "please", "plz": "please", "b4": "before", "ignor": "ignore",
    "rulez": "rules", "instrukshuns": "instructions", "readin": "reading", "reedin": "reading",
    "ppl": "people", "msg": "message", "tel": "tell",
}  # fmt: skip
_SLANG_WORD = re.compile(r"\b(?:" + "|".join(map(re.escape, _SLANG)) + r")\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Unmasked:
    """The readable variants of a text and which tricks each one undid."""

    variants: tuple[str, ...]
    tricks: tuple[str, ...]


def _printable(raw: bytes) -> str | None:
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    letters = sum(ch.isalpha() or ch.isspace() for ch in decoded)
    return decoded if decoded and letters / len(decoded) > 0.8 else None


def _despace(match: re.Match[str]) -> str:
    return " ".join(part.replace(" ", "") for part in re.split(r" {2,}", match.group(1)))


def _fold_homoglyphs(text: str) -> str:
    """Map look-alikes in words that mix Latin with Cyrillic or Greek letters."""

    def fold(word: re.Match[str]) -> str:
        token = word.group(0)
        if _FOREIGN.search(token) and (_LATIN.search(token) or _mostly_latin_context(text)):
            return token.translate(_HOMOGLYPHS)
        return token

    return _WORD.sub(fold, text)


def _mostly_latin_context(text: str) -> bool:
    latin = len(_LATIN.findall(text))
    return latin > 3 * len(_FOREIGN.findall(text))


# Words an override is made of, and every spelling one slip away from each (a letter
# dropped, added, changed, or two swapped): "ignroe your prevous instrucitons".
_OVERRIDE_WORDS = (
    "ignore",
    "disregard",
    "previous",
    "prior",
    "instructions",
    "instruction",
    "forget",
    "override",
    "guidelines",
    "earlier",
    "system",
    "above",
    "rules",
)


def _one_slip(word: str) -> set[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return {
        *(a + b[1:] for a, b in splits if b),
        *(a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1),
        *(a + c + b[1:] for a, b in splits if b for c in letters),
        *(a + c + b for a, b in splits for c in letters),
    }


_SLIPS = {
    slip: word
    for word in _OVERRIDE_WORDS
    for slip in _one_slip(word)
    if len(slip) >= 5
    and slip not in _OVERRIDE_WORDS
    # an inflection ("ignored", "systems") or another word ("forgot") is not a slip
    and not any(slip == word + end for end in ("s", "d", "ed", "r", "n"))
    and slip not in ("forgot", "abode", "priors", "prions", "rulers", "earliest")
}
_LATIN_WORD = re.compile(r"[A-Za-z]{5,}")


def _unslip(text: str) -> str:
    return _LATIN_WORD.sub(lambda m: _SLIPS.get(m[0].lower(), m[0]), text)


def unmask(text: str) -> Unmasked:
    """The text as written (compatibility-folded) and every variant a trick hid."""
    tricks: list[str] = []
    # ASCII holds no tag, compatibility form, invisible character or look-alike letter
    plain = text.isascii()
    tags = "" if plain else "".join(chr(ord(ch) - 0xE0000) for ch in "".join(_TAGS.findall(text)))
    if tags.strip():
        tricks.append("unicode-tags")
    folded = text if plain else unicodedata.normalize("NFKC", _TAGS.sub("", text))
    if not plain and folded != unicodedata.normalize("NFC", _TAGS.sub("", text)):
        tricks.append("compatibility-forms")
    visible = folded if plain else _INVISIBLE.sub("", folded)
    if visible != folded and re.search(r"\w[\u200b-\u200d\u2060\u00ad]\w", folded):
        tricks.append("invisible-characters")
    variants = [visible]
    if tags.strip():
        variants.append(tags)
    for name, variant in (
        ("spaced-letters", _SPACED.sub(_despace, visible)),
        ("separated-letters", _STARRED.sub(lambda m: re.sub(r"[*·•._\-]", "", m[0]), visible)),
        ("homoglyphs", visible if plain else _fold_homoglyphs(visible)),
        ("leetspeak", _LEET_WORD.sub(lambda m: m[0].translate(_LEET), visible)),
        ("hyphenated", _HYPHENATED.sub("", visible)),
        ("chat-spelling", _SLANG_WORD.sub(lambda m: _SLANG[m[0].lower()], visible)),
        ("misspelt", _unslip(visible)),
    ):
        if variant != visible:
            variants.append(variant)
            tricks.append(name)
    for token in _BASE64.findall(visible):
        try:
            decoded = _printable(base64.b64decode(token + "=" * (-len(token) % 4), validate=True))
        except (binascii.Error, ValueError):
            decoded = None
        if decoded:
            variants.append(decoded)
            tricks.append("base64")
    for token in _HEX.findall(visible):
        try:
            decoded = _printable(bytes.fromhex(re.sub(r"[ :]", "", token)))
        except ValueError:
            decoded = None
        if decoded:
            variants.append(decoded)
            tricks.append("hex")
    if _REVERSE_CUE.search(visible):
        variants.append(visible[::-1])
        tricks.append("reversed")
    if _ROT13_CUE.search(visible):  # only scanned, so a pointless decode costs nothing
        variants.append(codecs.encode(visible, "rot13"))
        tricks.append("rot13")
    return Unmasked(tuple(dict.fromkeys(variants)), tuple(dict.fromkeys(tricks)))
