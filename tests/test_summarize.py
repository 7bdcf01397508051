from __future__ import annotations

from datetime import UTC, datetime

from pagemem.models import Message
from pagemem.summarize import ExtractiveSummarizer, keep_newest_words
from pagemem.tokens import WordCounter, get_counter

WORDS = WordCounter()


def _msg(text: str, seq: int = 1) -> Message:
    return Message(id=f"m{seq}", role="user", content=text, created_at=datetime.now(UTC), seq=seq)


def test_keep_newest_words_drops_the_oldest() -> None:
    assert keep_newest_words("a b c d e", 3, WORDS) == "c d e"
    assert keep_newest_words("a b c", 5, WORDS) == "a b c"
    assert keep_newest_words("a b c", 0, WORDS) == ""
    assert keep_newest_words("", 3, WORDS) == ""


def test_keep_newest_words_with_bpe_tokens() -> None:
    counter = get_counter("o200k_base")
    text = "Priya lives in Seattle and her dog Miso stays with her sister"
    kept = keep_newest_words(text, 5, counter)
    assert counter.count(kept) <= 5
    assert text.endswith(kept)
    assert kept.split()[0] in text.split()  # cut at a word boundary


def test_extractive_summary_keeps_content_words_once() -> None:
    summarize = ExtractiveSummarizer()
    first = summarize(
        "", [_msg("Hi, I'm Priya and I live in Seattle.")], max_tokens=20, counter=WORDS
    )
    assert first == "Priya live Seattle"
    second = summarize(
        first, [_msg("Welcome, Priya! Seattle is lovely.", 2)], max_tokens=20, counter=WORDS
    )
    assert second == "Priya live Seattle; lovely"


def test_extractive_summary_is_deterministic_and_capped() -> None:
    summarize = ExtractiveSummarizer()
    messages = [_msg(f"fact number {i} about topic{i}", i) for i in range(20)]
    one = summarize("", messages, max_tokens=10, counter=WORDS)
    two = summarize("", messages, max_tokens=10, counter=WORDS)
    assert one == two
    assert WORDS.count(one) <= 10
    assert one.endswith("topic19")


def test_a_message_of_only_filler_adds_nothing() -> None:
    summarize = ExtractiveSummarizer()
    assert summarize("Priya", [_msg("Okay, thanks!")], max_tokens=10, counter=WORDS) == "Priya"


def test_llm_summarizer_writes_trims_and_falls_back() -> None:
    from datetime import UTC, datetime

    from pagemem.models import Message
    from pagemem.summarize import ExtractiveSummarizer, LLMSummarizer
    from pagemem.tokens import get_counter

    counter = get_counter("words")
    evicted = [
        Message("m1", "user", "I fly to Lisbon on May 3", datetime(2026, 1, 1, tzinfo=UTC), 1)
    ]
    asked: list[list[dict[str, str]]] = []

    def chat(messages: list[dict[str, str]]) -> str:
        asked.append(messages)
        return "Priya flies to Lisbon on May 3 and prefers aisle seats on every flight"

    summary = LLMSummarizer(chat)("", evicted, max_tokens=8, counter=counter)
    assert summary == "3 and prefers aisle seats on every flight"
    assert counter.count(summary) == 8
    assert "I fly to Lisbon on May 3" in asked[0][1]["content"]

    def down(messages: list[dict[str, str]]) -> str:
        raise ConnectionError("no model")

    fallback = LLMSummarizer(down)("", evicted, max_tokens=20, counter=counter)
    assert fallback == ExtractiveSummarizer()("", evicted, max_tokens=20, counter=counter)
    assert LLMSummarizer(lambda m: "  ")("", evicted, max_tokens=20, counter=counter) == fallback
