"""A learned second opinion on directive-shaped text, for notes from tools and the web.

The rules in `directives` catch what they have words for; an attacker who avoids
those words gets past them, and a document full of imperatives for people trips
them. This model reads the whole note instead: a logistic regression over hashed
character 3-5-grams and word 1-2-grams (so it reads every language and script the
same way, and needs no embedder), trained on pagemem's labelled carriers by
`scripts/train_directive_model.py`. Trained with one author left out at a time, it
told injections from benign notes with an area under the ROC curve of 0.96 on the
author it had not seen, 0.93 on the notes the rules pass (see docs/security.md).

The trust policy uses it both ways: a note it is sure of is treated as
directive-shaped though no rule fired, and the sentences that made it so are cut
(`culprits`); a note the rules found directive-shaped that it finds plainly benign
is not.
"""

from __future__ import annotations

import io
import itertools
import math
import re
import zlib
from collections.abc import Iterable
from functools import cache

import numpy as np
import numpy.typing as npt

from pagemem._util import read_packaged
from pagemem.guard.deobfuscate import unmask
from pagemem.guard.neutralise import MOSTLY
from pagemem.guard.sentences import sentences as split

__all__ = ["MODEL_PATH", "LearnedDirectives", "features", "sentences"]

MODEL_PATH = "data/guard/directive-model.npz"
_MODEL_SHA256 = "b1976f96be9a117fbadd9be2dabf10b04544036dac94ae7c5df067320fa05f7a"
BITS = 18
_MASK = (1 << BITS) - 1
_WORD = re.compile(r"\w+")
_SPACE = re.compile(r"\s+")
# Links, mail addresses and host names are not read: every labelled set makes its
# addresses up (evil.example), so a model that read them learned the convention (half
# its gain on dev went when the hosts were rewritten as real-looking ones), and one that
# read them as a kind of token learned that an address means an injection (it flagged
# 814 of 17,503 documentation paragraphs). Whether an address is where data goes is the
# rules' and the side-effect check's to judge.
_ADDRESSES = re.compile(
    r"\b(?:[a-z][a-z0-9+.-]*://|www\.)[^\s<>\"'()\[\]]+"  # links
    r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"  # mail addresses
    r"|\b(?:[a-z0-9-]+\.)+(?:example|test|invalid|localhost|com|net|org|io|info|biz|xyz|co"
    r"|app|dev|ru|de|fr|cn|jp|uk|it|es|nl|pl|br|in|kr|tr|ua|se|ch|at|be|eu|us|ca|au)\b"
    r"(?:/\S*)?"  # host names, with a path
)
# Notes longer than this are read at both ends, as the rules read them.
_READ = 20_000

Grams = dict[int, int]


def sentences(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences the model reads, white space trimmed."""
    if len(text) > 2 * _READ:
        return sentences(text[:_READ]) + [
            (a + len(text) - _READ, b + len(text) - _READ) for a, b in sentences(text[-_READ:])
        ]
    return split(text)


def _grams(sentence: str) -> Grams:
    """Hashed n-gram counts of one sentence, after undoing invisible-character tricks."""
    visible = _ADDRESSES.sub(" ", unmask(sentence).variants[0].casefold())
    padded = " " + _SPACE.sub(" ", visible).strip() + " "
    crc = zlib.crc32
    counts: Grams = {}
    for size in (3, 4, 5):
        for start in range(len(padded) - size + 1):
            key = crc(padded[start : start + size].encode()) & _MASK
            counts[key] = counts.get(key, 0) + 1
    tokens = _WORD.findall(padded)
    pairs = (f"b {a} {b}" for a, b in itertools.pairwise(tokens))
    for gram in (*(f"w {t}" for t in tokens), *pairs):
        key = crc(gram.encode()) & _MASK
        counts[key] = counts.get(key, 0) + 1
    return counts


def features(text: str) -> Grams:
    """A note's n-gram counts: the sum of its sentences' (so a cut can be scored by
    taking sentences away)."""
    return _summed(_grams(text[start:end]) for start, end in sentences(text))


class LearnedDirectives:
    """Scores a note from 0 (plainly data) to 1 (plainly an instruction to the model)."""

    def __init__(self, idf: npt.NDArray[np.float64], weights: npt.NDArray[np.float64], bias: float):
        self.idf = idf
        self.weights = weights
        self.bias = bias

    @classmethod
    def bundled(cls) -> LearnedDirectives:
        """The model shipped in the package, checked against its pinned hash."""
        return _bundled()

    def score(self, text: str) -> float:
        return self._score(features(text))

    def culprits(self, text: str, threshold: float) -> tuple[tuple[int, int], ...] | None:
        """The sentences to take away, most telling first, until what is left scores
        under `threshold`; None if that would take half the note or more (it is mostly
        instructions) or the note has no sentence to take."""
        spans = sentences(text)
        parts = [_grams(text[a:b]) for a, b in spans]
        sizes = [len("".join(text[a:b].split())) for a, b in spans]  # white space aside
        total, whole = _summed(parts), sum(sizes) or 1
        taken: set[int] = set()
        cut = 0
        while self._score(total) >= threshold:
            left = [i for i in range(len(parts)) if i not in taken]
            if not left:
                return None
            best = min(left, key=lambda i: self._score(_minus(total, parts[i])))
            taken.add(best)
            total = _minus(total, parts[best])
            cut += sizes[best]
            if cut / whole >= MOSTLY:
                return None
        return tuple(spans[i] for i in sorted(taken))

    def _score(self, grams: Grams) -> float:
        if not grams:
            return 0.0
        keys = np.fromiter(grams, dtype=np.int64, count=len(grams))
        counts = np.fromiter(grams.values(), dtype=np.float64, count=len(grams))
        values = (1.0 + np.log(counts)) * self.idf[keys]
        norm = math.sqrt(float(values @ values)) or 1.0
        logit = float(values @ self.weights[keys]) / norm + self.bias
        return 1.0 / (1.0 + math.exp(-logit))


def _summed(parts: Iterable[Grams]) -> Grams:
    total: Grams = {}
    for part in parts:
        for key, count in part.items():
            total[key] = total.get(key, 0) + count
    return total


def _minus(total: Grams, part: Grams) -> Grams:
    left = dict(total)
    for key, count in part.items():
        if (remaining := left[key] - count) > 0:
            left[key] = remaining
        else:
            del left[key]
    return left


@cache
def _bundled() -> LearnedDirectives:
    with np.load(io.BytesIO(read_packaged(MODEL_PATH, _MODEL_SHA256))) as spec:
        return LearnedDirectives(
            spec["idf"].astype(np.float64), spec["weights"].astype(np.float64), float(spec["bias"])
        )
