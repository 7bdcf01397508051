"""A record, message, block or summary written in one scope is invisible from every other."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagemem import Context, Memory, NotFoundError, ScopedMemory, dispatch

OTHERS = [("acme", "sam", None), ("globex", "priya", None), ("acme", "priya", "bot")]


@pytest.fixture
def owner(memory: Memory) -> ScopedMemory:
    me = memory.scope("acme", "priya")
    me.archive.insert("Priya's secret dog is named Miso", tags=["pets"], origin="user")
    me.blocks.set("human", "Name: Priya. Dog: Miso.")
    ctx = Context(me, max_tokens=60, system="You help.", summary_tokens=20, envelope=False)
    for i in range(6):
        ctx.append("user", f"Miso the dog did trick number {i}")
    assert me.recall.count() > 0
    assert me.recall.summary()
    return me


@pytest.mark.parametrize("scope", OTHERS, ids=["other-user", "other-tenant", "agent-scope"])
def test_nothing_crosses_scopes(
    memory: Memory, owner: ScopedMemory, scope: tuple[str, str, str | None]
) -> None:
    other = memory.scope(*scope)
    assert other.archive.search("Miso dog secret") == []
    assert all(h.record.scope == owner.scope for h in owner.archive.search("Miso"))
    assert other.archive.search("Miso", tags=["pets"]) == []
    assert other.archive.list() == []
    assert other.archive.count() == 0
    with pytest.raises(NotFoundError):
        other.archive.get("a1")
    with pytest.raises(NotFoundError):
        other.archive.delete("a1")
    assert other.recall.search("Miso") == []
    assert other.recall.in_context() == []
    assert other.recall.count() == 0
    assert other.recall.summary() == ""
    assert other.blocks.list() == []
    with pytest.raises(NotFoundError):
        other.blocks.get("human")
    assert other.history() == []
    assert (
        Context(
            other,
            max_tokens=60,
            system="You help.",
            summary_tokens=20,
            default_blocks=False,
            envelope=False,
        ).text()
        == "You help."
    )
    assert (
        "no archival memories" in dispatch(other, "archival_memory_search", {"query": "Miso"}).text
    )
    assert "no earlier messages" in dispatch(other, "conversation_search", {"query": "Miso"}).text
    assert not dispatch(other, "core_memory_append", {"label": "human", "content": "x"}).ok
    # and the owner's data is untouched by all of the above
    assert owner.archive.get("a1").text == "Priya's secret dog is named Miso"
    assert owner.blocks.get("human").value == "Name: Priya. Dog: Miso."


SCOPES = [("acme", "priya"), ("acme", "sam"), ("globex", "priya"), ("globex", "sam")]
WORDS = ["miso", "dog", "seat", "aisle", "lisbon", "seattle"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(range(len(SCOPES))),
            st.lists(st.sampled_from(WORDS), min_size=1, max_size=4),
            st.booleans(),
        ),
        max_size=25,
    )
)
def test_random_writes_stay_in_their_scope(ops: list[tuple[int, list[str], bool]]) -> None:
    # Near-copies are folded in search results; keep them all to compare exactly.
    with Memory(":memory:") as mem:
        expected: dict[int, dict[str, str]] = {i: {} for i in range(len(SCOPES))}
        for index, words, delete_after in ops:
            me = mem.scope(*SCOPES[index])
            text = " ".join(words)
            rid = me.archive.insert(text, kind="episodic")  # events: never folded
            expected[index][rid] = text
            if delete_after:
                me.archive.delete(rid)
                del expected[index][rid]
        for index, scope in enumerate(SCOPES):
            me = mem.scope(*scope)
            listed = me.archive.list(limit=1000)
            assert {r.id: r.text for r in listed} == expected[index]
            assert all(r.scope == me.scope for r in listed)
            for word in WORDS:
                hits = me.archive.search(word, k=1000)
                found = {h.record.id for h in hits}
                assert all(h.record.scope == me.scope for h in hits)
                assert found <= set(expected[index])  # nothing from another scope
                # every matching text is found
                matching = {text for text in expected[index].values() if word in text.split()}
                assert matching <= {h.record.text for h in hits}


def test_threads_writing_and_searching_keep_to_their_scopes(db_target: str) -> None:
    import threading

    path = db_target
    errors: list[BaseException] = []
    with Memory(path) as mem:

        def work(user: str) -> None:
            try:
                me = mem.scope("acme", user)
                for i in range(25):
                    me.archive.insert(f"{user} note {i} about the {user} project")
                    for hit in me.archive.search(f"{user} project", k=5):
                        assert hit.record.scope == me.scope
                        assert hit.record.text.startswith(user)
            except BaseException as exc:  # surfaced below
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(f"user{i}",)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        for i in range(4):
            me = mem.scope("acme", f"user{i}")
            assert me.archive.count() == 25
            assert {r.text.split()[0] for r in me.archive.list()} == {f"user{i}"}
