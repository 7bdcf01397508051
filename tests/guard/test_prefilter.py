"""The prefilter only ever skips a pattern that cannot match: checked against `re` itself."""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]
import marshal
import re
import sys
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagemem.eval.poisoning import load
from pagemem.guard import directives
from pagemem.guard.deobfuscate import unmask
from pagemem.guard.prefilter import (
    Prefilter,
    dump_formulas,
    fold,
    formula_of,
    load_formulas,
    squeeze,
)


def _code_points() -> range:
    return range(sys.maxunicode + 1)


def test_fold_is_how_ignorecase_compares_every_character() -> None:
    """`re` compares a character under IGNORECASE by its simple lowercase (`_sre`'s own
    function) and a few extra equivalences; fold must give one character for each class."""
    extra = re._casefix._EXTRA_CASES  # type: ignore[attr-defined]
    for code in _code_points():
        if 0xD800 <= code <= 0xDFFF:
            continue
        char = chr(code)
        folded = fold(char)
        if char.isspace():
            assert folded == " "
            continue
        low = _sre.unicode_tolower(code)
        assert folded == chr(min((low, *extra.get(low, ())))), hex(code)


def test_characters_re_calls_equal_fold_alike() -> None:
    """The same claim asked of `re` directly, for every character with another case."""
    checked = 0
    for code in _code_points():
        if 0xD800 <= code <= 0xDFFF:
            continue
        char = chr(code)
        others = {char.lower(), char.upper(), char.title(), chr(_sre.unicode_tolower(code))}
        for other in others - {char}:
            if len(other) == 1 and re.fullmatch(re.escape(char), other, re.IGNORECASE):
                assert fold(char) == fold(other), (hex(code), other)
                checked += 1
    assert checked > 2000


def test_squeezing_keeps_a_string_inside_a_text() -> None:
    assert squeeze("a \t\n b") == "a b"
    assert " b" in squeeze("a  \n  b")
    assert "a " in squeeze("a   b")


@pytest.mark.parametrize(
    ("pattern", "flags", "holds", "fails"),
    [
        (r"ignore\s+(?:all|previous)\s+instructions", re.I, "IGNORE  all\ninstructions", "ignore"),
        (r"(?-i:\bAI\b) (?:must|should)", re.I, "the AI must", "said must"),
        (r"colou?r", re.I, "COLOR", "colr"),
        (r"(?:send|mail)\w*\s+to\s+\S+@\S+", re.I, "Mailed to x@y.z", "send it to me"),
        (r"URGENT|FINAL NOTICE", 0, "a FINAL NOTICE", "urgent"),
    ],
)
def test_a_formula_admits_what_matches_and_skips_what_cannot(
    pattern: str, flags: int, holds: str, fails: str
) -> None:
    compiled = re.compile(pattern, flags)
    gate = Prefilter({"p": compiled})
    assert gate.admitted(holds) == {"p"}
    assert not compiled.search(fails)
    assert gate.admitted(fails) == set()


@pytest.mark.parametrize("pattern", [r".*", r"\w+", r"(?:ab|.)c?", r"[^x]{3}", r"a?b?"])
def test_what_it_cannot_read_it_admits(pattern: str) -> None:
    assert formula_of(re.compile(pattern)) is None
    assert Prefilter({"p": re.compile(pattern)}).admitted("zzz") == {"p"}


def _patterns() -> dict[str, re.Pattern[str]]:
    return directives.prefilter_patterns()


def _eval_texts(every: int) -> list[str]:
    """Every `every`th note of the shipped injection sets, injections and benign alike
    (every pattern is run on each, with no prefilter: all of them would take minutes)."""
    items = [item for name in ("poisoning", "carriers") for item in load(shipped=name)]
    return [item.text for item in items[::every]]


def test_every_detector_pattern_that_matches_the_eval_texts_is_admitted() -> None:
    patterns = _patterns()
    gate = Prefilter(patterns)
    texts = _eval_texts(every=5)
    matched = 0
    for text in texts:
        for variant in (*unmask(text).variants, *unmask(text).readings):
            admitted = gate.admitted(variant)
            for name, pattern in patterns.items():
                if pattern.search(variant):
                    matched += 1
                    assert name in admitted, (name, variant[:120])
    assert matched > 200


def test_detection_is_the_same_with_and_without_the_prefilter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = _eval_texts(every=4)
    fast = [directives.detect_directives(text) for text in texts]

    class Everything:
        def admitted(self, text: str) -> set[str]:
            return set(_patterns())

    monkeypatch.setattr(directives, "_prefilter", Everything)
    assert [directives.detect_directives(text) for text in texts] == fast
    assert sum(finding.flagged for finding in fast) > 80


_GATE = Prefilter(_patterns())
_PIECES = sorted(
    {
        text
        for formula in _GATE.formulas.values()
        for alternative in formula or ()
        for clause in alternative
        for text, _ in clause
    }
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(_PIECES).map(str.upper),
            st.sampled_from(_PIECES),
            st.sampled_from([" ", "\n", "  ", "\t", ".", ": ", "AI", "İ", "ſ", "K", "—", "?"]),
            st.text(max_size=4),
        ),
        max_size=14,
    ).map("".join)
)
def test_no_pattern_is_skipped_on_text_built_from_its_own_words(text: str) -> None:
    admitted = _GATE.admitted(text)
    for name, pattern in _patterns().items():
        if pattern.search(text):
            assert name in admitted, (name, text)


def test_the_shipped_formulas_are_those_the_patterns_give() -> None:
    """The guard reads its formulas from the package instead of from the patterns
    (0.2 s a process); after a pattern or this reading changes, run
    scripts/build_guard_prefilter.py."""
    patterns = directives.prefilter_patterns()
    blob = resources.files("pagemem").joinpath(directives.PREFILTER_FILE).read_bytes()
    shipped = load_formulas(patterns, blob)
    assert shipped is not None, "stale: run scripts/build_guard_prefilter.py"
    assert shipped == {name: formula_of(pattern) for name, pattern in patterns.items()}
    assert directives._prefilter().formulas == shipped


def test_formulas_made_for_other_patterns_or_damaged_are_not_used() -> None:
    patterns = {"a": re.compile(r"ignore (all )?instructions", re.I)}
    blob = dump_formulas(patterns)
    assert load_formulas(patterns, blob) == {"a": formula_of(patterns["a"])}
    other = {"a": re.compile(r"ignore (any )?instructions", re.I)}
    assert load_formulas(other, blob) is None
    assert load_formulas({**patterns, "b": re.compile("x")}, blob) is None
    for damaged in (b"", blob[:100], b"\x00garbage", marshal.dumps(["a list"])):
        assert load_formulas(patterns, damaged) is None
    # a prefilter built on formulas read back admits what one reading the patterns does
    fresh, loaded = Prefilter(patterns), Prefilter(patterns, load_formulas(patterns, blob))
    for text in ("please IGNORE all instructions", "ignore me", "instructions only"):
        assert fresh.admitted(text) == loaded.admitted(text)
