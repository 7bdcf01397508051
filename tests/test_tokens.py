from __future__ import annotations

import hashlib
from importlib import resources
from typing import Any

import pytest
import tiktoken
import tiktoken_ext.openai_public as openai_public

from pagemem.errors import InvalidInputError
from pagemem.tokens import ENCODINGS, TiktokenCounter, WordCounter, _load_encoding, get_counter

SAMPLES = [
    "hello world",
    "Priya's dog is named Miso and stays with her sister",
    "  indented\n\tcode = {'a': 1}  # comment\r\n",
    "Ünïcödé, 日本語のテキスト, emojis 🐕🛫, and numbers 1234567.89",
    "<|endoftext|> is only text here",
    "",
]


def _tiktoken_reference(name: str, monkeypatch: pytest.MonkeyPatch) -> tiktoken.Encoding:
    """tiktoken's own definition of the encoding, fed our shipped file instead of the URL."""
    path = resources.files("pagemem").joinpath(f"data/encodings/{name}.tiktoken")

    def load_local(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        from tiktoken.load import load_tiktoken_bpe

        assert url.endswith(f"/{name}.tiktoken")
        assert expected_hash == ENCODINGS[name][0]
        return load_tiktoken_bpe(str(path), expected_hash)

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", load_local)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")  # never write a cache
    spec: dict[str, Any] = getattr(openai_public, name)()
    return tiktoken.Encoding(**spec)


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_shipped_file_matches_tiktokens_hash(name: str) -> None:
    blob = resources.files("pagemem").joinpath(f"data/encodings/{name}.tiktoken").read_bytes()
    assert hashlib.sha256(blob).hexdigest() == ENCODINGS[name][0]


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_encoding_is_identical_to_tiktokens_definition(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = _tiktoken_reference(name, monkeypatch)
    ours = _load_encoding(name)
    assert ours._pat_str == reference._pat_str
    assert ours._special_tokens == reference._special_tokens
    assert ours.n_vocab == reference.n_vocab
    for text in SAMPLES:
        assert ours.encode(text, disallowed_special=()) == reference.encode(
            text, disallowed_special=()
        )


def test_known_counts() -> None:
    assert get_counter("cl100k_base").count("hello world") == 2
    assert get_counter("o200k_base").count("hello world") == 2
    # cl100k and o200k split this differently: the counts must be each encoding's own
    text = "Ünïcödé, 日本語のテキスト"
    assert get_counter("cl100k_base").count(text) != get_counter("o200k_base").count(text)


def test_special_token_text_is_counted_as_text() -> None:
    counter = TiktokenCounter("cl100k_base")
    assert counter.count("<|endoftext|>") > 1


def test_corrupt_file_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    _load_encoding.cache_clear()
    monkeypatch.setitem(ENCODINGS, "cl100k_base", ("0" * 64, *ENCODINGS["cl100k_base"][1:]))
    with pytest.raises(RuntimeError, match="corrupt"):
        _load_encoding("cl100k_base")
    monkeypatch.undo()
    _load_encoding.cache_clear()
    assert get_counter("cl100k_base").count("hello") == 1


def test_unknown_encoding() -> None:
    with pytest.raises(InvalidInputError, match="unknown encoding 'p50k_base'"):
        get_counter("p50k_base")


def test_word_counter() -> None:
    counter = WordCounter()
    assert counter.count("What is my dog called") == 5
    assert counter.count("  spaced\tout\nwords  ") == 3
    assert counter.count("") == 0
    assert counter.message_overhead == 0


def test_counter_passes_through() -> None:
    counter = WordCounter()
    assert get_counter(counter) is counter
