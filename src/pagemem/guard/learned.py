"""A learned second opinion on directive-shaped text, for notes from tools and the web.

The rules in `directives` catch what they have words for; an attacker who avoids
those words gets past them. This model reads meaning instead: each sentence of
a note is embedded with the bundled MiniLM and scored by a logistic regression
trained on pagemem's labelled set (`scripts/train_directive_model.py`,
multiple-instance: a note is as suspect as its most suspect sentence). It is
less precise than the rules (it also fires on text *about* assistants), so the
trust policy uses it to down-rank untrusted notes, never to quarantine them.
"""

from __future__ import annotations

import json
import re

import numpy as np

from pagemem._util import read_packaged
from pagemem.guard.deobfuscate import unmask
from pagemem.retrieval.embed import Embedder
from pagemem.retrieval.lexical import STOP_WORDS, words

__all__ = ["MODEL_PATH", "LearnedDirectives", "reads_as_english", "segments"]

MODEL_PATH = "data/guard/directive-model.json"
_MODEL_SHA256 = "a70367d8207dddeb4d86a2b78d261832b54b03fa2bcc29c83f397f48fd56f238"
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|\n+")
_MAX_SEGMENT = 400
_MAX_SEGMENTS = 40


def segments(text: str) -> list[str]:
    """The sentences a note is judged by (after undoing invisible-character tricks)."""
    visible = unmask(text).variants[0]
    found: list[str] = []
    for part in (p.strip() for p in _SENTENCE.split(visible)):
        while len(part) > _MAX_SEGMENT:
            found.append(part[:_MAX_SEGMENT])
            part = part[_MAX_SEGMENT:].strip()
        if part:
            found.append(part)
    if len(found) > _MAX_SEGMENTS:  # keep both ends, as the rules do
        half = _MAX_SEGMENTS // 2
        found = found[:half] + found[-half:]
    return found or [visible[:_MAX_SEGMENT] or " "]


class LearnedDirectives:
    """Scores a text from 0 to 1; needs the embedder the model was trained with."""

    def __init__(self, embedder: Embedder) -> None:
        spec = json.loads(read_packaged(MODEL_PATH, _MODEL_SHA256))
        if embedder.model_id != spec["model_id"]:
            raise ValueError(
                f"the directive model needs {spec['model_id']}, not {embedder.model_id}"
            )
        self.embedder = embedder
        self.weights = np.asarray(spec["weights"], dtype=np.float64)
        self.bias = float(spec["bias"])
        self.threshold = float(spec["threshold"])

    @classmethod
    def for_embedder(cls, embedder: Embedder | None) -> LearnedDirectives | None:
        """The model if this embedder is the one it was trained on, else None (rules only)."""
        if embedder is None:
            return None
        try:
            return cls(embedder)
        except ValueError:
            return None

    def score(self, text: str) -> float:
        """The most suspect English sentence's score; 0 for a note with none. The bundled
        MiniLM was trained on English, and on other languages the model scores almost
        every sentence as suspect (145 of 154 benign notes of a multilingual set)."""
        english = [segment for segment in segments(text) if reads_as_english(segment)]
        if not english:
            return 0.0
        vectors = self.embedder.embed(english, role="document")
        logits = vectors.astype(np.float64) @ self.weights + self.bias
        return float(1.0 / (1.0 + np.exp(-float(logits.max()))))


_ENGLISH_SHARE = 0.2  # of a sentence's words that are English function words


def reads_as_english(sentence: str) -> bool:
    """Mostly Latin letters and enough English function words ("the", "to", "is") for a
    sentence of English; short Latin fragments (under four words) count as English,
    since they say too little to tell."""
    letters = [ch for ch in sentence if ch.isalpha()]
    if letters and sum(ch.isascii() for ch in letters) * 2 < len(letters):
        return False  # mostly another script
    tokens = words(sentence)
    if len(tokens) < 4:
        return True
    return sum(token in STOP_WORDS for token in tokens) / len(tokens) >= _ENGLISH_SHARE
