"""Words a pattern cannot match without: skip the regular expression when they are absent.

Python's `re` tries a large alternation at every position of a text, so a detector
family costs tens of microseconds a note even when the note holds none of the words
its branches need, and most notes hold none. Each pattern's parse tree is read once
into a formula over strings ("ignore" or "disregard", and "instructions"; or ...)
that every match satisfies. One pass of an Aho-Corasick automaton finds which of all
the patterns' strings a text holds, and a pattern whose formula those strings do not
satisfy is not run (3-5x faster detection, findings identical: tests/guard).

The skip is exact, not a heuristic: `fold` compares characters the way
`re.IGNORECASE` does (a test checks it against `re` over every code point), white
space is squeezed on both sides so that `\\s+` spells one space, a pattern without
that flag only ever needs more, and where the parse tree holds something this
reading does not follow, it claims nothing and the pattern runs.
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import re
import re._casefix as _casefix  # type: ignore[import-not-found]
import re._constants as _c  # type: ignore[import-not-found]
import re._parser as _parser  # type: ignore[import-not-found]
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import ahocorasick

__all__ = ["Prefilter", "dump_formulas", "fold", "load_formulas", "squeeze"]

# Characters `re.IGNORECASE` treats as one letter beyond simple lowercasing (long s is
# "s", dotless i is "i", final sigma is sigma): each maps to the smallest of its group.
_SAME = {
    other: min((low, *others))
    for low, others in _casefix._EXTRA_CASES.items()
    for other in (low, *others)
    if other != min((low, *others))
}
_SPACES = re.compile(r"\s+")

_PRODUCT_CAP = 256  # strings a run of consecutive pieces may spell before it is cut
_UNION_CAP = 4096  # strings an alternation may spell and still be known exactly
_CLASS_CAP = 16  # members of a character class spelled out
_ALTERNATIVES_CAP = 512  # ways a formula may be satisfied before they are merged


def squeeze(text: str) -> str:
    """Every run of white space as one space. A string inside a text is still inside
    it once both are squeezed."""
    return _SPACES.sub(" ", text)


def fold(text: str) -> str:
    """The text squeezed, each character replaced by the one `re.IGNORECASE` compares
    it as: `str.lower` is the simple lowercase `re` uses for every character but "İ"
    (which it turns into two), and `re`'s other equivalences are `_SAME`."""
    return _lower(squeeze(text))


def _lower(text: str) -> str:
    return text.replace("\u0130", "i").lower().translate(_SAME)


Need = tuple[str, bool]  # a string, and whether it must appear as written (else folded)
_Clause = frozenset[Need]  # one of these strings
_Formula = tuple[tuple[_Clause, ...], ...]  # any alternative whose every clause holds
_Info = tuple[_Clause | None, _Formula | None]  # (every string it spells, its formula)
_EMPTY: _Clause = frozenset({("", True)})


class Prefilter:
    """The patterns, by name, that a text could match: all the others cannot.

    Reading the formulas from the parse trees takes about 0.2 s for the guard's
    patterns, paid by the first write of every process; `formulas` read back with
    `load_formulas` (the guard ships them) skip that.
    """

    def __init__(
        self,
        patterns: Mapping[str, re.Pattern[str]],
        formulas: Mapping[str, _Formula | None] | None = None,
    ) -> None:
        self.formulas: dict[str, _Formula | None] = (
            dict(formulas)
            if formulas is not None
            else {name: formula_of(pattern) for name, pattern in patterns.items()}
        )
        self._always = {name for name, formula in self.formulas.items() if formula is None}
        # Each alternative is looked at only when a text holds a string of its rarest
        # clause, so the work follows what the text holds, not how many patterns there are.
        self._waiting: dict[Need, list[tuple[str, tuple[_Clause, ...]]]] = {}
        for name, formula in self.formulas.items():
            for alternative in formula or ():
                for need in alternative[0]:  # the rarest (`formula_of` puts it first)
                    self._waiting.setdefault(need, []).append((name, alternative))
        # one automaton for the folded strings, one for those to find as written
        self._finders = (ahocorasick.Automaton(), ahocorasick.Automaton())
        clauses = {
            clause
            for formula in self.formulas.values()
            for alternative in formula or ()
            for clause in alternative
        }
        for text, cased in frozenset().union(*clauses):
            self._finders[cased].add_word(text, (text, cased))
        for finder in self._finders:
            if len(finder):
                finder.make_automaton()

    def admitted(self, text: str) -> set[str]:
        """The names of the patterns that could match `text`."""
        present: set[Need] = set()
        for cased, seen in ((False, fold(text)), (True, squeeze(text))):
            if len(self._finders[cased]):
                present.update(need for _, need in self._finders[cased].iter(seen))
        admitted = set(self._always)
        for need in present:
            for name, alternative in self._waiting.get(need, ()):
                if name not in admitted and all(
                    not clause.isdisjoint(present) for clause in alternative
                ):
                    admitted.add(name)
        return admitted


def formulas_key(patterns: Mapping[str, re.Pattern[str]]) -> str:
    """What saved formulas were read from: every pattern, this module's own code (how
    they are read) and the Python version (whose `re` parser they were read with).
    Formulas saved under another key are not used."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update(repr(sys.version_info[:2]).encode())
    for name in sorted(patterns):
        digest.update(repr((name, patterns[name].pattern, int(patterns[name].flags))).encode())
    return digest.hexdigest()


def dump_formulas(patterns: Mapping[str, re.Pattern[str]]) -> bytes:
    """The patterns' formulas, to ship beside them (`marshal`: plain data, no code)."""
    formulas = {name: formula_of(pattern) for name, pattern in patterns.items()}
    return marshal.dumps({"key": formulas_key(patterns), "formulas": formulas})


def load_formulas(
    patterns: Mapping[str, re.Pattern[str]], blob: bytes
) -> dict[str, _Formula | None] | None:
    """Formulas saved by `dump_formulas` for exactly these patterns and this code;
    None when they were saved for others (or cannot be read)."""
    try:
        saved = marshal.loads(blob)
        key = formulas_key(patterns)  # reads this module's source: absent, no key
    except (EOFError, ValueError, TypeError, OSError):
        return None
    if not isinstance(saved, dict) or saved.get("key") != key:
        return None
    formulas = saved.get("formulas")
    if not isinstance(formulas, dict) or set(formulas) != set(patterns):
        return None
    return formulas


def formula_of(pattern: re.Pattern[str]) -> _Formula | None:
    """What every match of `pattern` holds, read from its parse tree (None: nothing
    known)."""
    parsed = _parser.parse(pattern.pattern, pattern.flags)
    _, formula = _sequence(parsed.data, cased=not pattern.flags & re.IGNORECASE)
    if formula is None:
        return None
    # each alternative's rarest clause first: a text is checked against an alternative
    # only when it holds a string of that clause
    return tuple(tuple(sorted(alternative, key=_rank, reverse=True)) for alternative in formula)


def _sequence(items: Iterable[tuple[Any, Any]], *, cased: bool) -> _Info:
    """Consecutive pieces spell runs of strings; every run, and every piece's own
    formula, holds for a match of the whole."""
    formulas: list[_Formula | None] = []
    run: _Clause = _EMPTY
    whole = True
    for op, arg in items:
        exact, formula = _node(op, arg, cased=cased)
        if exact == _EMPTY:  # zero width: the run goes on as it was
            continue
        if exact is not None and len(run) * len(exact) <= _PRODUCT_CAP:
            run = _product(run, exact)
            continue
        whole = False
        formulas.append(_of_clause(run))
        if exact is not None:
            run = exact
        else:
            formulas.append(formula)
            run = _EMPTY
    formulas.append(_of_clause(run))
    return (run if whole else None), _all(formulas)


def _node(op: Any, arg: Any, *, cased: bool) -> _Info:
    if op is _c.LITERAL:
        return _exactly(frozenset({_char(arg, cased)}))
    if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):  # zero width: spells the empty string
        return _EMPTY, None
    if op is _c.IN:
        if arg == [(_c.CATEGORY, _c.CATEGORY_SPACE)]:  # white space, squeezed to a space
            return _exactly(frozenset({(" ", cased)}))
        if len(arg) <= _CLASS_CAP and all(member is _c.LITERAL for member, _ in arg):
            return _exactly(frozenset(_char(code, cased) for _, code in arg))
        return None, None
    if op is _c.BRANCH:
        return _branch([_sequence(branch, cased=cased) for branch in arg[1]])
    if op is _c.SUBPATTERN:
        _, on, off, body = arg
        if on & re.IGNORECASE:
            cased = False
        if off & re.IGNORECASE:
            cased = True
        return _sequence(body, cased=cased)
    if op is _c.ATOMIC_GROUP:
        return _sequence(arg, cased=cased)
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
        low, high, body = arg
        return _repeat(low, high, _sequence(body, cased=cased))
    return None, None  # any character, a category, a back-reference: claims nothing


def _char(code: int, cased: bool) -> Need:
    return (squeeze(chr(code)), True) if cased else (fold(chr(code)), False)


def _join(a: Need, b: Need) -> Need:
    """One string after another (squeezed where they meet): as written if both are,
    else folded."""
    first, second = a[0], b[0]
    if first.endswith(" ") and second.startswith(" "):
        second = second[1:]
    if a[1] == b[1]:
        return first + second, a[1]
    return (_lower(first) if a[1] else first) + (_lower(second) if b[1] else second), False


def _product(left: _Clause, right: _Clause) -> _Clause:
    return frozenset(_join(a, b) for a in left for b in right)


def _exactly(strings: _Clause) -> _Info:
    return strings, _of_clause(strings)


def _of_clause(strings: _Clause) -> _Formula | None:
    """One clause, if none of its strings is empty (the empty string holds anywhere)."""
    if not strings or any(not text for text, _ in strings):
        return None
    return ((strings,),)


def _all(formulas: Iterable[_Formula | None]) -> _Formula | None:
    """A formula holding when every one of `formulas` holds."""
    alternatives: list[tuple[_Clause, ...]] = [()]
    for formula in formulas:
        if formula is None:
            continue
        if len(alternatives) * len(formula) > _ALTERNATIVES_CAP:
            # too many ways: fold whichever side loses least into one clause
            mine, theirs = _merged(tuple(alternatives)), _merged(formula)
            if _rank(mine) > _rank(theirs) and len(formula) <= _ALTERNATIVES_CAP:
                alternatives = [(mine,)]
            else:
                formula = ((theirs,),)
        alternatives = [mine + theirs for mine in alternatives for theirs in formula]
    return tuple(alternatives) if alternatives != [()] else None


def _merged(formula: _Formula) -> _Clause:
    """One clause that holds whenever `formula` does: each alternative's best clause."""
    best = (max(alternative, key=_rank) for alternative in formula)
    return frozenset().union(*best)


@functools.lru_cache(maxsize=65536)
def _rank(clause: _Clause) -> tuple[int, int]:
    """Longer strings are rarer; a string that must appear as written, more so."""
    return (min(len(text.strip()) + cased for text, cased in clause), -len(clause))


def _branch(branches: list[_Info]) -> _Info:
    exact: _Clause | None = None
    if all(e is not None for e, _ in branches):
        spelled: _Clause = frozenset().union(*(e for e, _ in branches if e is not None))
        exact = spelled if len(spelled) <= _UNION_CAP else None
    if any(formula is None for _, formula in branches):
        return exact, None
    formulas = [formula for _, formula in branches if formula is not None]
    # too many ways: the branches with the most become one clause each, largest first
    for i in sorted(range(len(formulas)), key=lambda i: -len(formulas[i])):
        if sum(map(len, formulas)) <= _ALTERNATIVES_CAP:
            break
        formulas[i] = ((_merged(formulas[i]),),)
    alternatives = [alternative for formula in formulas for alternative in formula]
    if len(alternatives) > _ALTERNATIVES_CAP:
        return exact, ((_merged(tuple(alternatives)),),)
    return exact, tuple(alternatives)


def _repeat(low: int, high: int, body: _Info) -> _Info:
    exact, formula = body
    if exact is not None and {text for text, _ in exact} == {" "}:  # runs of space squeezed
        return _exactly(exact | ({("", True)} if low == 0 else set()))
    if exact is not None and high <= 3 and len(exact) ** max(high, 1) <= _PRODUCT_CAP:
        spelled: set[Need] = set()
        level: _Clause = _EMPTY
        for count in range(high + 1):
            if count >= low:
                spelled |= level
            level = _product(level, exact)
        return _exactly(frozenset(spelled))
    return None, (formula if low >= 1 else None)
