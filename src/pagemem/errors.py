"""The exceptions pagemem raises, each saying what to do about it."""

from __future__ import annotations

__all__ = [
    "BlockOverflowError",
    "InvalidInputError",
    "LLMError",
    "NotFoundError",
    "PagememError",
]


class PagememError(Exception):
    """Base class: catch this to handle every pagemem failure."""


class InvalidInputError(PagememError, ValueError):
    """An argument was rejected before anything was written."""


class NotFoundError(PagememError, KeyError):
    """No such record or block in this scope (other scopes are never consulted)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class BlockOverflowError(PagememError):
    """A core memory write would exceed the block's token cap; nothing was written."""

    def __init__(self, label: str, tokens: int, limit: int) -> None:
        self.label = label
        self.tokens = tokens
        self.limit = limit
        super().__init__(
            f"block '{label}' is {tokens}/{limit} tokens; "
            "shorten it or move details to archival memory"
        )


class LLMError(PagememError):
    """A language model endpoint failed or answered nothing usable."""
