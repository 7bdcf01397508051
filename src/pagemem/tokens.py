"""Token counting: exact OpenAI BPE encodings offline, and the textbook's word counter.

tiktoken fetches its rank files from the network on first use; pagemem ships them
in `data/encodings/` instead and checks each against the sha256 that tiktoken
itself expects before building the encoder, so a count is exact or an error.
"""

from __future__ import annotations

import base64
import re
from functools import cache
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from pagemem._util import read_packaged
from pagemem.errors import InvalidInputError

if TYPE_CHECKING:
    import tiktoken

__all__ = [
    "ENCODINGS",
    "TiktokenCounter",
    "TokenCounter",
    "WordCounter",
    "get_counter",
]

_ENDOFTEXT = "<|endoftext|>"
_FIM_PREFIX = "<|fim_prefix|>"
_FIM_MIDDLE = "<|fim_middle|>"
_FIM_SUFFIX = "<|fim_suffix|>"
_ENDOFPROMPT = "<|endofprompt|>"

# Definitions copied from tiktoken_ext.openai_public (tests check they still agree).
_CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

# name -> (sha256 tiktoken expects, split pattern, special tokens)
ENCODINGS: dict[str, tuple[str, str, dict[str, int]]] = {
    "cl100k_base": (
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        _CL100K_PATTERN,
        {
            _ENDOFTEXT: 100257,
            _FIM_PREFIX: 100258,
            _FIM_MIDDLE: 100259,
            _FIM_SUFFIX: 100260,
            _ENDOFPROMPT: 100276,
        },
    ),
    "o200k_base": (
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        _O200K_PATTERN,
        {_ENDOFTEXT: 199999, _ENDOFPROMPT: 200018},
    ),
}

_WORD = re.compile(r"\S+")


@runtime_checkable
class TokenCounter(Protocol):
    """What every budget in pagemem counts with."""

    @property
    def name(self) -> str: ...

    @property
    def message_overhead(self) -> int:
        """Tokens a chat API adds around each message (role markers and separators)."""
        ...

    def count(self, text: str) -> int: ...


class WordCounter:
    """One token per whitespace-separated word: the textbook's teaching unit."""

    name = "words"
    message_overhead = 0

    def count(self, text: str) -> int:
        return len(_WORD.findall(text))


class TiktokenCounter:
    """Exact counts for an OpenAI encoding, built from the files shipped in the package."""

    # OpenAI's chat format adds <|start|>role ... <|end|> around each message.
    message_overhead = 3

    def __init__(self, encoding: str = "o200k_base") -> None:
        self._encoding = _load_encoding(encoding)
        self.name = encoding

    def count(self, text: str) -> int:
        return len(self._encoding.encode(text, disallowed_special=()))


@cache
def _load_encoding(name: str) -> tiktoken.Encoding:
    import tiktoken

    if name not in ENCODINGS:
        known = ", ".join(sorted(ENCODINGS))
        raise InvalidInputError(f"unknown encoding {name!r}; pagemem ships {known}")
    expected, pattern, special = ENCODINGS[name]
    blob = read_packaged(f"data/encodings/{name}.tiktoken", expected)  # tiktoken's own hash
    ranks = {
        base64.b64decode(token): int(rank)
        for token, rank in (line.split() for line in blob.splitlines() if line)
    }
    return tiktoken.Encoding(
        name=name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=special
    )


def get_counter(name: str | TokenCounter) -> TokenCounter:
    """A counter by name: 'words', 'cl100k_base' or 'o200k_base' (counters pass through)."""
    if not isinstance(name, str):
        return name
    if name == "words":
        return WordCounter()
    return TiktokenCounter(name)
