"""Text analysis for ranking: words, minus stop words, Snowball-stemmed.

Documents and queries go through the same analyzer so "preferences" finds
"prefers". Question words ("what", "when") are stop words too: they say what
kind of answer is wanted, not what it is about.
"""

from __future__ import annotations

from functools import lru_cache

import snowballstemmer

from pagemem.retrieval.lexical import STOP_WORDS, words

__all__ = ["Analyzer"]


class Analyzer:
    """Lowercase word tokens, stop words removed, stemmed (English Snowball)."""

    def __init__(self, language: str = "english") -> None:
        self._stemmer = snowballstemmer.stemmer(language)
        self._stem = lru_cache(maxsize=200_000)(self._stemmer.stemWord)

    def terms(self, text: str) -> list[str]:
        """Every content term of `text`, in order, repeats kept (for term frequency)."""
        return [self._stem(word) for word in words(text) if word not in STOP_WORDS]

    def query(self, text: str) -> list[str]:
        """Distinct content terms of a query; all terms if every word is a stop word."""
        terms = self.terms(text)
        if not terms:
            terms = [self._stem(word) for word in words(text)]
        return list(dict.fromkeys(terms))
