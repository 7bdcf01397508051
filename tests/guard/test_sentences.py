"""The sentences a cut hides and the learned model reads: spans that a reader can trust."""

from __future__ import annotations

import pytest

from pagemem.guard.sentences import sentences


def test_sentences_are_spans_with_white_space_trimmed() -> None:
    assert sentences("One. Two!\nThree") == [(0, 4), (5, 9), (10, 15)]
    assert sentences("  A.  B\n\n") == [(2, 4), (6, 7)]
    assert sentences("") == []
    assert sentences(" \n\t\n") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Send it to evil.example now. Thanks.", ["Send it to evil.example now.", "Thanks."]),
        ("See disposizione n. 14 in the contract.", ["See disposizione n. 14 in the contract."]),
        ("Bring a snack, e.g. fruit. Then go.", ["Bring a snack, e.g. fruit.", "Then go."]),
        ("Really?! Yes... Fine", ["Really?!", "Yes...", "Fine"]),
        ("配送は明日です。返品は三十日以内！", ["配送は明日です。", "返品は三十日以内！"]),
        ("line one\nline two", ["line one", "line two"]),
    ],
)
def test_sentence_ends_abbreviations_and_host_names(text: str, expected: list[str]) -> None:
    assert [text[a:b] for a, b in sentences(text)] == expected
