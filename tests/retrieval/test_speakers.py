from __future__ import annotations

import pytest

from pagemem import Memory, ScopedMemory
from pagemem.retrieval.ranker import RetrievalConfig
from pagemem.retrieval.speakers import leading_speaker

LEXICAL = RetrievalConfig(neighbour_weight=0, context_weight=0)


@pytest.mark.parametrize(
    ("text", "speaker"),
    [
        ("Caroline: I went to the support group", "Caroline"),
        ("  Melanie:\tpottery on Sunday", "Melanie"),
        ("Dr. Lee: take two a day", "Dr. Lee"),
        ("Mary Ann Smith: hello", "Mary Ann Smith"),
        ("O'Brien: sure", "O'Brien"),
        ("Zoë: ça va", "Zoë"),
        ("Émile: bonjour", "Émile"),
    ],
)
def test_a_leading_name_is_the_speaker(text: str, speaker: str) -> None:
    assert leading_speaker(text) == speaker


@pytest.mark.parametrize(
    "text",
    [
        "Note: the gate code is 4411",
        "Update: moved to Berlin",
        "Re: the invoice",
        "TODO: call the bank",
        "PS: bring snacks",
        "https://example.com is the site",
        "Meeting at 10:30 with Sam",
        "caroline: lowercase is not a name",
        "Caroline:no space after the colon",
        "Caroline said: hi",  # a lowercase word is not part of a name
        "The Four Seasons Hotel Lobby: meet there",  # more than three words
        "Caroline:",
        "",
        "Sam",
    ],
)
def test_labels_urls_times_and_sentences_are_not_speakers(text: str) -> None:
    assert leading_speaker(text) is None


def test_a_speaker_named_only_in_the_text_is_boosted() -> None:
    with Memory(":memory:", embedder=None, retrieval=LEXICAL) as mem:
        me = mem.scope("acme", "chat")
        me.archive.insert("Caroline: I love painting sunsets")
        me.archive.insert("Melanie: I love painting sunsets")
        hits = me.archive.search("What does Melanie love painting?")
        assert hits[0].record.id == "a2"
        assert "speaker=melanie" in hits[0].explain
        # metadata still wins over the text
        me.archive.insert("Caroline: I love painting lakes", metadata={"speaker": "Melanie"})
        hits = me.archive.search("What does Melanie love painting?")
        assert {h.record.id for h in hits[:2]} == {"a2", "a3"}
        assert all("speaker=melanie" in h.explain for h in hits[:2])


def test_a_label_is_not_boosted_as_a_speaker() -> None:
    with Memory(":memory:", embedder=None, retrieval=LEXICAL) as mem:
        me = mem.scope("acme", "chat")
        me.archive.insert("Note: the gate code is 4411")
        me.archive.insert("the gate code for the note drawer is 9000")
        hits = me.archive.search("note gate code")
        assert all("speaker=" not in h.explain for h in hits)


def test_recall_knows_the_speaker_from_the_name_or_the_text(store_target: str) -> None:
    with Memory(store_target, embedder=None, retrieval=LEXICAL) as mem:
        _recall_knows_the_speaker(mem.scope("acme", "chat"))


def _recall_knows_the_speaker(me: ScopedMemory) -> None:
    said = [
        me.recall.append("user", "I love painting sunsets", name="Caroline"),
        me.recall.append("assistant", "I love painting sunsets", name="Melanie"),
        me.recall.append("user", "Caroline: I love painting lakes"),
        me.recall.append("assistant", "Melanie: I love painting lakes"),
    ]
    me.recall.evict([m.id for m in said])
    found = me.recall.search("What does Melanie love painting?", order="relevance")
    assert {m.id for m in found[:2]} == {said[1].id, said[3].id}
    found = me.recall.search("What does Caroline love painting?", order="relevance")
    assert {m.id for m in found[:2]} == {said[0].id, said[2].id}
