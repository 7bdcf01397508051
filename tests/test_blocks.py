from __future__ import annotations

import pytest

from pagemem import BlockOverflowError, InvalidInputError, Memory, NotFoundError, ScopedMemory


def test_set_get_list(me: ScopedMemory) -> None:
    me.blocks.set("human", "Name: Priya.", limit=200, description="facts about the user")
    me.blocks.set("persona", "A careful travel assistant.", limit=100)
    assert me.blocks.get("human").value == "Name: Priya."
    assert me.blocks.get("human").description == "facts about the user"
    assert [b.label for b in me.blocks.list()] == ["human", "persona"]


def test_cap_refusal_names_the_numbers(words_memory: Memory) -> None:
    me = words_memory.scope("acme", "priya")
    me.blocks.set("human", "one two three", limit=5)
    with pytest.raises(BlockOverflowError) as caught:
        me.blocks.set("human", "one two three four five six seven")
    assert str(caught.value) == (
        "block 'human' is 7/5 tokens; shorten it or move details to archival memory"
    )
    assert (caught.value.tokens, caught.value.limit) == (7, 5)
    assert me.blocks.get("human").value == "one two three"


def test_cap_counts_in_the_memory_tokenizer(me: ScopedMemory) -> None:
    text = "Name: Priya. Home airport SEA."
    me.blocks.set("human", text, limit=200)
    assert me.blocks.tokens("human") == me.counter.count(text)
    with pytest.raises(BlockOverflowError, match=r"block 'human' is \d+/3 tokens"):
        me.blocks.set("human", text, limit=3)


def test_append_and_replace(words_memory: Memory) -> None:
    me = words_memory.scope("acme", "priya")
    me.blocks.set("human", "Name: Priya.", limit=8)
    me.blocks.append("human", "Home airport SEA.")
    assert me.blocks.get("human").value == "Name: Priya.\nHome airport SEA."
    me.blocks.replace("human", "SEA", "PDX")
    assert me.blocks.get("human").value == "Name: Priya.\nHome airport PDX."
    with pytest.raises(BlockOverflowError, match="9/8"):
        me.blocks.append("human", "Dog: Miso, a Lab.")
    assert me.blocks.get("human").value == "Name: Priya.\nHome airport PDX."


def test_replace_errors(me: ScopedMemory) -> None:
    me.blocks.set("human", "likes tea; likes tea")
    with pytest.raises(InvalidInputError, match="does not contain 'coffee'"):
        me.blocks.replace("human", "coffee", "tea")
    with pytest.raises(InvalidInputError, match="2 times"):
        me.blocks.replace("human", "likes tea", "likes coffee")


def test_unknown_block(me: ScopedMemory) -> None:
    me.blocks.set("human", "x")
    with pytest.raises(NotFoundError, match="no core memory block 'persona'; blocks here: human"):
        me.blocks.get("persona")
    with pytest.raises(NotFoundError):
        me.blocks.append("persona", "x")
    with pytest.raises(NotFoundError):
        me.blocks.delete("persona")


@pytest.mark.parametrize("label", ["", "Human", "has space", "1st", "x" * 65, None, "dröm"])
def test_bad_labels(me: ScopedMemory, label: object) -> None:
    with pytest.raises(InvalidInputError, match="block label"):
        me.blocks.set(label, "x")  # type: ignore[arg-type]


@pytest.mark.parametrize("limit", [0, -5, True, 1.5])
def test_bad_limits(me: ScopedMemory, limit: object) -> None:
    with pytest.raises(InvalidInputError, match="limit must be"):
        me.blocks.set("human", "x", limit=limit)  # type: ignore[arg-type]


def test_delete(me: ScopedMemory) -> None:
    me.blocks.set("human", "x")
    me.blocks.delete("human")
    assert me.blocks.list() == []
    assert [e.op for e in me.history("human")] == ["set", "delete"]


def test_empty_block_is_allowed_but_bad_unicode_is_not(me: ScopedMemory) -> None:
    assert me.blocks.set("scratch", "").value == ""
    with pytest.raises(InvalidInputError, match="surrogate"):
        me.blocks.set("scratch", "\udfff")
