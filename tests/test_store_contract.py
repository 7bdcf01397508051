"""The same assertions against every store backend: SQLite in memory and on disk, and
PostgreSQL with pgvector."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pagemem import InvalidInputError, Memory, NotFoundError, ScopedMemory
from pagemem.retrieval.ranker import RetrievalConfig

from .conftest import ticking_clock


@pytest.fixture(params=["sqlite-memory", "sqlite-file", "postgres"])
def mem(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Memory]:
    target: str | Path = ":memory:" if request.param == "sqlite-memory" else tmp_path / "memory.db"
    if request.param == "postgres":
        target = request.getfixturevalue("postgres_url")
    # Lexical only, no neighbour sharing: these tests check exact matching and the store.
    memory = Memory(
        target,
        clock=ticking_clock(),
        retrieval=RetrievalConfig(neighbour_weight=0, context_weight=0),
        embedder=None,
    )
    yield memory
    memory.close()


@pytest.fixture
def me(mem: Memory) -> ScopedMemory:
    return mem.scope("acme", "priya")


def test_issue_api_shape(mem: Memory) -> None:
    me = mem.scope(tenant="acme", user="priya")
    rid = me.archive.insert("Priya prefers aisle seats", source="chat turn 5", origin="user")
    hits = me.archive.search("seats", k=5)
    assert [h.record.id for h in hits] == [rid]
    assert hits[0].record.text == "Priya prefers aisle seats"
    assert hits[0].record.source == "chat turn 5"
    assert isinstance(hits[0].score, float)
    assert hits[0].flags == ()
    me.blocks.set("human", "Name: Priya. Home airport SEA.", limit=200)
    assert me.recall.search("dog") == []
    me.archive.delete(rid)
    assert me.archive.search("seats") == []


def test_record_keeps_its_provenance(me: ScopedMemory) -> None:
    since = datetime(2025, 3, 1, tzinfo=UTC)
    rid = me.archive.insert(
        "Priya moved to Seattle",
        source="chat turn 1",
        origin="user",
        kind="episodic",
        tags=["home", "city", "home"],
        metadata={"confidence": 0.9},
        valid_from=since,
    )
    record = me.archive.get(rid)
    assert record.kind == "episodic"
    assert record.origin == "user"
    assert record.tags == ("home", "city")
    assert record.metadata == {"confidence": 0.9}
    assert record.valid_from == since
    assert record.valid_to is None
    assert record.created_at.tzinfo is not None


def test_ids_count_per_scope(mem: Memory) -> None:
    a, b = mem.scope("acme", "priya"), mem.scope("acme", "sam")
    assert a.archive.insert("one") == "a1"
    assert b.archive.insert("one") == "a1"
    assert a.archive.insert("two") == "a2"


def test_search_ranks_and_filters(me: ScopedMemory) -> None:
    me.archive.insert("Priya's dog is named Miso", tags=["pets"], origin="user")
    me.archive.insert("The dog park closes at nine; dog owners love it", origin="web")
    me.archive.insert("Priya prefers aisle seats", tags=["travel"], origin="user")
    assert {h.record.id for h in me.archive.search("dog")} == {"a1", "a2"}
    assert [h.record.id for h in me.archive.search("dog", tags=["pets"])] == ["a1"]
    assert [h.record.id for h in me.archive.search("dog", origins=["web"])] == ["a2"]
    assert me.archive.search("dog", kinds=["procedural"]) == []
    scores = [h.score for h in me.archive.search("dog")]
    assert scores == sorted(scores, reverse=True)
    assert [h.record.id for h in me.archive.search("dog", k=1)] == [
        me.archive.search("dog")[0].record.id
    ]


def test_time_range_filter(me: ScopedMemory) -> None:
    first = me.archive.insert("dog walk on Monday")
    second = me.archive.insert("dog walk on Tuesday")
    t2 = me.archive.get(second).created_at
    assert [h.record.id for h in me.archive.search("walk", end=t2)] == [first]
    assert [h.record.id for h in me.archive.search("walk", start=t2)] == [second]
    naive = t2.replace(tzinfo=None)  # naive datetimes are read as UTC
    assert [h.record.id for h in me.archive.search("walk", start=naive)] == [second]
    assert me.archive.search("walk", start=datetime(2100, 1, 1)) == []


def test_stemming_matches_word_forms(me: ScopedMemory) -> None:
    me.archive.insert("Priya prefers aisle seats")
    assert me.archive.search("seat preference") != []


@pytest.mark.parametrize(
    "query",
    [
        '"',
        '"unclosed',
        "*",
        "dog*",
        "NEAR(dog miso)",
        "dog OR",
        "OR",
        "AND NOT",
        "(",
        ")",
        "col:dog",
        "^dog",
        "dog -cat",
        "'; DROP TABLE records; --",
        "{dog}",
        "-",
        "+",
        "\\",
    ],
)
def test_fts_syntax_in_queries_never_raises(me: ScopedMemory, query: str) -> None:
    me.archive.insert("Priya's dog is named Miso")
    me.archive.insert("OR and NEAR are words too")
    hits = me.archive.search(query)
    assert all(hit.record.text for hit in hits)
    assert me.recall.search(query) == []
    assert me.archive.count() == 2


def test_operator_words_are_searched_as_words(me: ScopedMemory) -> None:
    me.archive.insert("OR and NEAR are words too")
    assert [h.record.id for h in me.archive.search("NEAR")] == ["a1"]


def test_an_empty_query_is_an_error_and_one_without_words_finds_nothing(
    me: ScopedMemory,
) -> None:
    me.archive.insert("anything")
    for empty in ("", "   "):
        with pytest.raises(InvalidInputError, match="query is empty"):
            me.archive.search(empty)
        with pytest.raises(InvalidInputError, match="query is empty"):
            me.recall.search(empty)
    assert me.archive.search("   ?! ") == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "text is empty"),
        ("   \n\t", "text is empty"),
        ("bad \ud800 surrogate", "lone surrogate"),
        ("nul \x00 inside", "NUL"),
        (None, "must be a string"),
        (42, "must be a string"),
        ("x" * 1_048_577, "bytes; the limit is 1,048,576"),
    ],
)
def test_bad_text_is_refused_and_nothing_changes(
    me: ScopedMemory, text: object, message: str
) -> None:
    keep = me.archive.insert("Priya prefers aisle seats")
    with pytest.raises(InvalidInputError, match=message):
        me.archive.insert(text)  # type: ignore[arg-type]
    assert me.archive.count() == 1
    assert me.archive.get(keep).text == "Priya prefers aisle seats"
    assert [h.record.id for h in me.archive.search("aisle")] == [keep]


def test_one_megabyte_note_round_trips(me: ScopedMemory) -> None:
    big = ("Miso the dog " * 80_000)[:1_000_000]
    rid = me.archive.insert(big)
    assert me.archive.get(rid).text == big
    assert [h.record.id for h in me.archive.search("Miso")] == [rid]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"origin": "martian"}, "unknown origin"),
        ({"kind": "gossip"}, "unknown kind"),
        ({"tags": [""]}, "tags must be"),
        ({"tags": ["x" * 65]}, "tags must be"),
        ({"metadata": {"when": datetime.now()}}, "datetime, which JSON cannot hold"),
        ({"source": "s" * 1001}, "source must be"),
        ({"valid_from": datetime(2026, 1, 2), "valid_to": datetime(2026, 1, 1)}, "valid_to"),
    ],
)
def test_bad_record_fields(me: ScopedMemory, kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        me.archive.insert("a fact", **kwargs)  # type: ignore[arg-type]
    assert me.archive.count() == 0


@pytest.mark.parametrize("k", [0, -1, 1001, True, 2.5])
def test_bad_k(me: ScopedMemory, k: object) -> None:
    with pytest.raises(InvalidInputError, match="k must be"):
        me.archive.search("dog", k=k)  # type: ignore[arg-type]


def test_get_and_delete_unknown(me: ScopedMemory) -> None:
    with pytest.raises(NotFoundError, match="no archival record 'a9'"):
        me.archive.get("a9")
    with pytest.raises(NotFoundError):
        me.archive.delete("a9")


def test_delete_removes_text_everywhere_but_keeps_a_tombstone(me: ScopedMemory) -> None:
    rid = me.archive.insert("Priya's passport number is X1234567", origin="user")
    me.archive.delete(rid, actor="priya")
    assert me.archive.search("passport") == []
    assert me.archive.count() == 0
    history = me.history(rid)
    assert [entry.op for entry in history] == ["insert", "delete"]
    assert all(entry.before is None and entry.after is None for entry in history)
    assert history[-1].actor == "priya"


def test_history_records_block_writes(me: ScopedMemory) -> None:
    me.blocks.set("human", "Name: Priya.")
    me.blocks.set("human", "Name: Priya. Home airport SEA.")
    entries = me.history("human")
    assert [(e.before, e.after) for e in entries] == [
        (None, "Name: Priya."),
        ("Name: Priya.", "Name: Priya. Home airport SEA."),
    ]


def test_list_and_paginate(me: ScopedMemory) -> None:
    ids = [me.archive.insert(f"fact number {i}") for i in range(7)]
    assert [r.id for r in me.archive.list(limit=3)] == ids[:3]
    assert [r.id for r in me.archive.list(limit=3, offset=6)] == ids[6:]
    with pytest.raises(InvalidInputError):
        me.archive.list(offset=-1)


def test_recall_search_is_newest_first_and_only_evicted(me: ScopedMemory) -> None:
    first = me.recall.append("user", "My dog Miso loves the beach")
    second = me.recall.append("assistant", "Miso the dog sounds fun")
    live = me.recall.append("user", "Is Miso a good dog?")
    me.recall.evict([first.id, second.id])
    found = me.recall.search("dog")
    assert [m.id for m in found] == [second.id, first.id]
    assert live.id not in {m.id for m in found}
    assert [m.id for m in me.recall.search("dog", roles=["user"])] == [first.id]
    assert me.recall.count() == 2
    assert [m.id for m in me.recall.in_context()] == [live.id]
    with pytest.raises(InvalidInputError, match="unknown role"):
        me.recall.search("dog", roles=["narrator"])


def test_file_store_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with Memory(path) as mem:
        me = mem.scope("acme", "priya")
        rid = me.archive.insert("Priya prefers aisle seats")
        me.blocks.set("human", "Name: Priya.", limit=50)
        me.recall.append("user", "hello there")
    with Memory(path) as mem:
        me = mem.scope("acme", "priya")
        assert me.archive.get(rid).text == "Priya prefers aisle seats"
        assert me.blocks.get("human").limit == 50
        assert [m.content for m in me.recall.in_context()] == ["hello there"]
        assert me.archive.insert("next") == "a2"


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "future.db"
    Memory(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(RuntimeError, match="schema version 99"):
        Memory(path)


def test_insert_many_is_all_or_nothing(me: ScopedMemory) -> None:
    ids = me.archive.insert_many(
        ["Priya prefers aisle seats", {"text": "Miso is a dog", "tags": ["pets"], "origin": "user"}]
    )
    assert ids == ["a1", "a2"]
    assert me.archive.get("a2").tags == ("pets",)
    assert [h.record.id for h in me.archive.search("dog")] == ["a2"]
    with pytest.raises(InvalidInputError, match="item 1: text is empty"):
        me.archive.insert_many(["fine", ""])
    with pytest.raises(InvalidInputError, match=r"item 0: .*unexpected keyword"):
        me.archive.insert_many([{"text": "x", "colour": "red"}])
    assert me.archive.count() == 2
    assert me.archive.insert_many([]) == []
    assert me.archive.insert("next") == "a3"


def test_list_refuses_an_offset_past_what_sqlite_can_hold(me: ScopedMemory) -> None:
    with pytest.raises(InvalidInputError, match="offset must be a whole number from 0"):
        me.archive.list(offset=2**70)


def test_values_no_backend_can_hold_are_refused_and_nothing_is_written(
    me: ScopedMemory, mem: Memory
) -> None:
    with pytest.raises(InvalidInputError, match="NUL"):
        me.archive.insert("fine text", metadata={"note": "bad\x00value"})
    with pytest.raises(InvalidInputError, match="NUL"):
        me.archive.insert("fine text", metadata={"bad\x00key": 1})
    with pytest.raises(InvalidInputError, match="NUL"):
        me.archive.insert("bad\x00text")
    with pytest.raises(InvalidInputError):
        mem.scope("ac\x00me", "priya")
    assert me.archive.count() == 0
    assert me.archive.insert("fine text", metadata={"note": "a \\u0000 lookalike"}) == "a1"


def test_api_keys_and_agents_are_listed_for_moving_a_memory(mem: Memory) -> None:
    live = mem.issue_api_key("acme", label="web")
    gone = mem.issue_api_key("globex")
    assert mem.revoke_api_key(gone)
    keys = mem.store.api_keys()
    assert [(k.tenant, k.label, k.revoked_at is None) for k in keys] == [
        ("acme", "web", True),
        ("globex", "", False),
    ]
    assert mem.tenant_for_api_key(live) == "acme"
    with pytest.raises(InvalidInputError, match="already stored"):
        mem.store.add_api_key(keys[0].key_hash, "globex", label="", at=mem.now())
    assert mem.tenant_for_api_key(live) == "acme"  # the refused copy changed nothing
    revoked = datetime(2026, 1, 2, tzinfo=UTC)
    mem.store.add_api_key("f" * 64, "initech", label="old", at=mem.now(), revoked_at=revoked)
    assert mem.store.api_keys()[-1].revoked_at == revoked
    assert mem.store.tenant_for_key("f" * 64) is None

    mem.store.put_agent("acme", "priya", "bot", {"max_tokens": 10}, at=mem.now())
    mem.store.put_agent("acme", "priya", "bot", {"max_tokens": 20}, at=mem.now())
    mem.store.put_agent("acme", "ari", "bot", {}, at=mem.now())
    assert [(a.user, a.name, a.settings) for a in mem.store.agents()] == [
        ("ari", "bot", {}),
        ("priya", "bot", {"max_tokens": 20}),
    ]


@pytest.mark.parametrize("backend", ["sqlite-file", "postgres"])
def test_a_notes_vector_is_written_in_the_same_transaction(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The vector made for the candidate lookup goes in with the note: one commit, and
    nothing left to store after it (a second write would be refused here)."""
    from pagemem.bench.scale import _SyntheticEmbedder

    target: str | Path = tmp_path / "memory.db"
    if backend == "postgres":
        target = request.getfixturevalue("postgres_url")
    embedder = _SyntheticEmbedder()
    memory = Memory(target, clock=ticking_clock(), embedder=embedder)  # type: ignore[arg-type]
    me = memory.scope("acme", "priya")
    me.archive.insert("Priya's locker is number 41 at the Eastside pool.")

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a vector was written after its note")

    monkeypatch.setattr(memory.store, "put_vectors", refused)
    text = "Priya swims on Tuesday mornings before work."
    record_id = me.archive.insert(text)
    rows = memory.store.index_rows(
        me.scope, after=0, limit=10, collection="records", model_id=embedder.model_id
    )
    vector = {row.id: row.vector for row in rows}[record_id]
    assert vector == embedder.embed([text])[0].tobytes()
    assert [h.record.id for h in me.archive.search("when does Priya swim?", k=1)] == [record_id]
    memory.close()
