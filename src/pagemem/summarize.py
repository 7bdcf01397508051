"""Running summaries of evicted messages.

The default is deterministic and needs no LLM: it keeps the content words of each
evicted message (function words dropped) and, when over its cap, drops the oldest
words first. An LLM summarizer plugs in through the same call signature.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from pagemem.models import Chat, Message
from pagemem.retrieval.lexical import STOP_WORDS, words
from pagemem.tokens import TokenCounter

__all__ = ["ExtractiveSummarizer", "LLMSummarizer", "Summarizer", "keep_newest_words"]

log = logging.getLogger(__name__)


class Summarizer(Protocol):
    """Fold evicted messages into the previous summary, within `max_tokens`."""

    def __call__(
        self,
        previous: str,
        evicted: Sequence[Message],
        *,
        max_tokens: int,
        counter: TokenCounter,
    ) -> str: ...


def keep_newest_words(text: str, max_tokens: int, counter: TokenCounter) -> str:
    """The longest tail of `text`, cut at a word boundary, that fits in `max_tokens`."""
    pieces = text.split()
    if max_tokens <= 0 or not pieces:
        return ""
    if counter.count(" ".join(pieces)) <= max_tokens:
        return " ".join(pieces)
    low, high = 1, len(pieces)  # search the smallest start index that fits
    while low < high:
        middle = (low + high) // 2
        if counter.count(" ".join(pieces[middle:])) <= max_tokens:
            high = middle
        else:
            low = middle + 1
    return " ".join(pieces[low:])


# Chat filler that carries no fact, on top of the search stop words.
FILLER = frozenset(
    [
        "hi",
        "hello",
        "hey",
        "welcome",
        "thanks",
        "thank",
        "please",
        "ok",
        "okay",
        "sure",
        "yes",
        "yeah",
        "noted",
        "got",
    ]
)


def _gist(text: str, seen: set[str]) -> str:
    """The content words of `text` not already in the summary (`seen` is updated)."""
    kept = []
    for piece in text.split():
        word = piece.strip(".,!?;:\"'()[]{}")
        parts = words(word)
        if not parts or all(p in STOP_WORDS or p in FILLER for p in parts):
            continue
        if word.lower() not in seen:
            seen.add(word.lower())
            kept.append(word)
    return " ".join(kept)


class ExtractiveSummarizer:
    """Content words of each evicted message not yet in the summary; newest kept when over
    the cap."""

    def __call__(
        self,
        previous: str,
        evicted: Sequence[Message],
        *,
        max_tokens: int,
        counter: TokenCounter,
    ) -> str:
        seen = {piece.strip(";").lower() for piece in previous.split()}
        parts = [previous] if previous else []
        parts += [gist for gist in (_gist(m.content, seen) for m in evicted) if gist]
        return keep_newest_words("; ".join(parts), max_tokens, counter)


_SUMMARY_PROMPT = """You maintain a running summary of a conversation whose older messages no
longer fit in view. Fold the new messages into the summary. Keep names, places, dates,
decisions, preferences and open tasks; drop greetings and filler. Write plain sentences,
no more than {words} words. Reply with the summary text only."""


class LLMSummarizer:
    """A model writes the summary; over the cap it is cut to the newest words; if the model
    fails or answers nothing, the deterministic summarizer takes over."""

    def __init__(self, chat: Chat, *, fallback: Summarizer | None = None) -> None:
        self.chat = chat
        self.fallback: Summarizer = fallback or ExtractiveSummarizer()

    def __call__(
        self,
        previous: str,
        evicted: Sequence[Message],
        *,
        max_tokens: int,
        counter: TokenCounter,
    ) -> str:
        if max_tokens <= 0:
            return ""
        lines = "\n".join(f"{m.role}: {m.content}" for m in evicted)
        request = [
            {
                "role": "system",
                "content": _SUMMARY_PROMPT.format(words=max(10, max_tokens * 3 // 4)),
            },
            {
                "role": "user",
                "content": f"Summary so far:\n{previous or '(none)'}\n\nNew:\n{lines}",
            },
        ]
        try:
            text = self.chat(request).strip()
        except Exception as exc:  # the model is down: keep the conversation going
            log.warning("summarizer model failed (%s); using the extractive summary", exc)
            text = ""
        if not text:
            return self.fallback(previous, evicted, max_tokens=max_tokens, counter=counter)
        return keep_newest_words(text, max_tokens, counter)
