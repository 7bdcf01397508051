"""Turning questions into ranked notes: lexical analysis now, embeddings and fusion next."""

from pagemem.retrieval.lexical import STOP_WORDS, query_terms, words

__all__ = ["STOP_WORDS", "query_terms", "words"]
